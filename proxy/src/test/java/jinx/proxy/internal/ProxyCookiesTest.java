package jinx.proxy.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** {@link ProxyCookies} on its own: nginx's parse, rewrite and flag edits, with fixed values (no request). */
class ProxyCookiesTest {

    private static ProxyLocConf conf() {
        ProxyLocConf c = new ProxyLocConf();
        c.cookieDomains = List.of(new ProxyCookies.Rule(ProxyCookies.Kind.DOMAIN, Values.fixed("backend.example"),
            null, Values.fixed("front.example")));
        c.cookiePaths = List.of(
            new ProxyCookies.Rule(ProxyCookies.Kind.PREFIX, Values.fixed("/app/"), null, Values.fixed("/")),
            new ProxyCookies.Rule(ProxyCookies.Kind.REGEX, null, Pattern.compile("^/old(.*)$"),
                Values.fixed("/new$1")));
        c.cookieFlags = new ArrayList<>(List.of(new ProxyCookies.Flags(Values.fixed("sid"), null,
            List.of(Values.fixed("secure"), Values.fixed("HttpOnly"), Values.fixed("samesite=strict"),
                Values.fixed("bogus")))));
        return c;
    }

    @Test
    void parseTrimsSpacesAndKeepsBareAttributes() {
        List<String[]> a = ProxyCookies.parse(" a = 1 ;Path=/x;  Secure ;");
        assertEquals(4, a.size());
        assertEquals("a", a.get(0)[0]);
        assertEquals("1", a.get(0)[1]);
        assertEquals("Path", a.get(1)[0]);
        assertEquals("/x", a.get(1)[1]);
        assertEquals("Secure", a.get(2)[0]);
        assertEquals(null, a.get(2)[1]);
        assertEquals("", a.get(3)[0]);
    }

    @Test
    void domainKeepsItsDotAndIgnoresCase() {
        assertEquals("a=1; Domain=.front.example", ProxyCookies.rewrite(null, conf(), "a=1;Domain=.BACKEND.example"));
    }

    @Test
    void pathPrefixThenRegexWithCaptures() {
        assertEquals("a=1; path=/x", ProxyCookies.rewrite(null, conf(), "a=1; path=/app/x"));
        assertEquals("a=1; Path=/new/deep", ProxyCookies.rewrite(null, conf(), "a=1; Path=/old/deep"));
    }

    @Test
    void flagsAddReplaceAndIgnoreUnknown() {
        assertEquals("sid=9; Secure; SameSite=Strict; HttpOnly",
            ProxyCookies.rewrite(null, conf(), "sid=9;Secure;SameSite=none"));
    }

    @Test
    void flagsRemove() {
        ProxyLocConf c = conf();
        c.cookieFlags.add(0, new ProxyCookies.Flags(null, Pattern.compile("^t"),
            List.of(Values.fixed("nosecure"), Values.fixed("nosamesite"), Values.fixed("nohttponly"))));
        assertEquals("tok=1", ProxyCookies.rewrite(null, c, "tok=1; secure; HttpOnly; SameSite=Lax"));
    }

    @Test
    void untouchedValueIsTheSameString() {
        String v = "other=1;  Domain=elsewhere.example";
        assertSame(v, ProxyCookies.rewrite(null, conf(), v));
        String bare = "bare";
        assertSame(bare, ProxyCookies.rewrite(null, conf(), bare));
    }
}
