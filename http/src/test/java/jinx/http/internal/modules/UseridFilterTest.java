package jinx.http.internal.modules;

import java.util.Base64;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.Responses;

import static jinx.http.internal.modules.StaticModuleTest.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The userid filter: identifiers byte for byte as nginx 1.22 made them (its cookies and variables, taken from a run
 * with a known pid and time), and the cookie's text, mark, reset and errors through the engine.
 */
class UseridFilterTest {

    /** nginx's start value in that run: (623860 us / 20) << 16 | pid 7448. */
    private static final int START = 0x79D91D18;
    /** The second of that run. */
    private static final long TIME = 0x6B172941L;

    private static final String HTTP = """
        server {
            listen 127.0.0.1:8080;
            location / {
                userid on; userid_service 16909060; userid_flags secure httponly samesite=lax;
                userid_domain example.com; userid_path /p; userid_p3p 'CP="x"'; userid_expires max; userid_mark A;
                return 200 "got=$uid_got set=$uid_set";
            }
            location /v1 { userid v1; return 200 "got=$uid_got set=$uid_set"; }
            location /log { userid log; userid_name u; return 200 "got=$uid_got set=$uid_set"; }
            location /reset { userid on; userid_service 1; set $uid_reset log; return 200 "set=$uid_set"; }
            location /plain { userid on; return 200 "set=$uid_set"; }
        }
        """;

    private EngineFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    @Test
    void identifiersAsNginxMadeThem() {
        Uids uids = new Uids(START);
        byte[] v2 = uids.v2(Uids.network(16909060), TIME);
        assertEquals("AQIDBGsXKUF52R0YAwMDAg==", Uids.encode(v2));
        assertEquals("uid=040302014129176B181DD97902030303", Uids.text("uid", v2));
        assertEquals("uid=040302014129176B181DD97902040303", Uids.text("uid", uids.v2(Uids.network(16909060),
            TIME)));
        byte[] v1 = uids.v1(-1, TIME);
        assertEquals("AAAAAEEpF2sYHdl5AQAAAA==", Uids.encode(v1));
        assertEquals("uid=000000006B17294179D91D1800000001", Uids.text("uid", v1));
        assertEquals("uid=000000006B17294179D91D1800000101", Uids.text("uid", uids.v1(-1, TIME)));
        assertEquals(START, Uids.startValue(623860, 7448));
        assertEquals("Mon, 07-Dec-26 22:46:41 GMT", Uids.cookieTime(TIME + 3600));
        assertEquals("Thu, 31-Dec-37 23:55:55 GMT", Uids.cookieTime(UseridFilterModule.MAX_EXPIRES));
        assertEquals("Fri, 01-Jan-2038 00:00:00 GMT", Uids.cookieTime(2145916800L));
    }

    @Test
    void sequenceWrapsAsNginx() {
        Uids uids = new Uids(0);
        for (int i = 0; i < (int) ((0x1_0000_0000L - Uids.SEQUENCE_V2) / 0x100) + 1; i++) {
            uids.v2(new byte[4], 0);
        }
        // the sequence passed 2^32 and started again at nginx's first value
        assertEquals("x=00000000000000000000000002030303", Uids.text("x", uids.v2(new byte[4], 0)));
    }

    private UseridFilterModule module() {
        UseridFilterModule m = (UseridFilterModule) f.cycle().module(UseridFilterModule.NAME).module();
        m.uids = new Uids(START);
        return m;
    }

    private static byte[] cookieBytes(String setCookie) {
        String b64 = setCookie.substring(setCookie.indexOf('=') + 1, setCookie.indexOf('=') + 23);
        return Base64.getDecoder().decode(b64 + "==");
    }

    @Test
    @Timeout(30)
    void setsTheCookieAsNginx() throws Exception {
        f = EngineFixture.modules(HTTP);
        module();
        Responses.Response r = f.get(get("/"));
        String cookie = r.header("Set-Cookie");
        byte[] uid = cookieBytes(cookie);
        long time = (uid[4] & 0xffL) << 24 | (uid[5] & 0xff) << 16 | (uid[6] & 0xff) << 8 | uid[7] & 0xff;
        assertTrue(Math.abs(time - System.currentTimeMillis() / 1000) < 60, cookie);
        Uids expected = new Uids(START);
        String b64 = Uids.encode(expected.v2(Uids.network(16909060), time));
        assertEquals("uid=" + b64.substring(0, 22) + "A=; expires=Thu, 31-Dec-37 23:55:55 GMT; domain=example.com; "
            + "path=/p; secure; httponly; samesite=lax", cookie);
        assertEquals("CP=\"x\"", r.header("P3P"));
        assertTrue(r.headerText().indexOf("Set-Cookie") < r.headerText().indexOf("P3P"), r.headerText());
        assertEquals("got= set=" + Uids.text("uid", cookieBytes(cookie)), r.body());

        // a cookie without the mark is set again, marked; with it, left alone
        String sent = "fwAAAWcFAAAOUDgAAwMEAg";
        r = f.get("GET / HTTP/1.1\r\nHost: a\r\nCookie: a=b; uid=" + sent + "==\r\nConnection: close\r\n\r\n");
        assertTrue(r.header("Set-Cookie").startsWith("uid=" + sent + "A=; expires="), r.header("Set-Cookie"));
        assertEquals("got=uid=0100007F000005670038500E02040303 set=uid=0100007F000005670038500E02040303", r.body());
        r = f.get("GET / HTTP/1.1\r\nHost: a\r\nCookie: uid=" + sent + "A=\r\nConnection: close\r\n\r\n");
        assertNull(r.header("Set-Cookie"));
        assertEquals("got=uid=0100007F000005670038500E02040303 set=", r.body());
    }

    @Test
    @Timeout(30)
    void versionOneLogAndReset() throws Exception {
        f = EngineFixture.modules(HTTP);
        module();
        Responses.Response r = f.get(get("/v1"));
        byte[] uid = cookieBytes(r.header("Set-Cookie"));
        assertEquals("uid=" + Uids.encode(uid) + "; path=/", r.header("Set-Cookie"));
        assertTrue(Uids.text("uid", uid).endsWith("79D91D1800000001"), r.body());
        assertEquals("00000000", Uids.text("uid", uid).substring(4, 12));

        r = f.get("GET /log HTTP/1.1\r\nHost: a\r\nCookie: u=fwAAAWcFAAAOUDgAAwMEAg==\r\nConnection: close\r\n\r\n");
        assertNull(r.header("Set-Cookie"));
        assertEquals("got=u=0100007F000005670038500E02040303 set=", r.body());

        r = f.get("GET /reset HTTP/1.1\r\nHost: a\r\nCookie: uid=fwAAAWcFAAAOUDgAAwMEAg==\r\n"
            + "Connection: close\r\n\r\n");
        uid = cookieBytes(r.header("Set-Cookie"));
        assertEquals("set=" + Uids.text("uid", uid), r.body());
        assertEquals("uid=01000000", Uids.text("uid", uid).substring(0, 12));
        assertTrue(f.log().contains("[notice]") && f.log().contains("userid cookie "
            + "\"uid=0100007F000005670038500E02040303\" was reset"), f.log());
    }

    @Test
    @Timeout(30)
    void badCookiesAreLoggedAndReplaced() throws Exception {
        f = EngineFixture.modules(HTTP);
        module();
        Responses.Response r = f.get("GET /plain HTTP/1.1\r\nHost: a\r\nCookie: x=1\r\nCookie: uid=short\r\n"
            + "Connection: close\r\n\r\n");
        assertTrue(r.header("Set-Cookie").endsWith("; path=/"), r.header("Set-Cookie"));
        assertTrue(f.log().contains("[error]") && f.log().contains("client sent too short userid cookie "
            + "\"uid=short\""), f.log());
        f.get("GET /plain HTTP/1.1\r\nHost: a\r\nCookie: uid=!!!AAWcFAAAOUDgAAwMEAgA=\r\nConnection: close\r\n\r\n");
        assertTrue(f.log().contains("client sent invalid userid cookie \"uid=!!!AAWcFAAAOUDgAAwMEAgA=\""), f.log());
    }

    @Test
    void configurationErrors() {
        String[][] bad = {
            {"userid maybe;", "invalid value \"maybe\""},
            {"userid_mark ab;", "\"userid_mark\" directive value must be \"off\" or a single letter, digit or \"=\""},
            {"userid_mark -;", "\"userid_mark\" directive value must be \"off\" or a single letter, digit or \"=\""},
            {"userid_expires 1x;", "\"userid_expires\" directive invalid value"},
            {"userid_expires 1h; userid_expires 2h;", "\"userid_expires\" directive is duplicate"},
            {"userid_service x;", "\"userid_service\" directive invalid number"},
            {"userid_flags secure foo;", "invalid value \"foo\""},
        };
        for (String[] b : bad) {
            Exception e = assertThrows(Exception.class, () -> EngineFixture.modules("server { listen 127.0.0.1:8080; "
                + "location / { " + b[0] + " } }").close(), b[0]);
            assertTrue(e.getMessage().contains(b[1]), e.getMessage());
        }
    }
}
