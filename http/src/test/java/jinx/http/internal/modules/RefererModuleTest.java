package jinx.http.internal.modules;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.EngineFixture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The referer module: {@code $invalid_referer} for host names, wildcards, URI prefixes, regexes, {@code none},
 * {@code blocked} and {@code server_names}, inheritance, and nginx's configuration errors.
 */
class RefererModuleTest {

    private static final String HTTP = """
        server {
            listen 127.0.0.1:8080;
            server_name localhost www.example.org ~^re\\d+\\.test$;
            valid_referers none blocked example.com *.example.net www.example.* site.org/pub ~\\.regex\\.;
            location / { return 200 "[$invalid_referer]"; }
            location /names { valid_referers server_names; return 200 "[$invalid_referer]"; }
            location /none { valid_referers none other.org; return 200 "[$invalid_referer]"; }
        }
        """;

    private EngineFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private String ask(String uri, String referer) throws Exception {
        String h = referer == null ? "" : "Referer: " + referer + "\r\n";
        return f.get("GET " + uri + " HTTP/1.1\r\nHost: localhost\r\n" + h + "Connection: close\r\n\r\n").body();
    }

    @Test
    @Timeout(30)
    void refererValues() throws Exception {
        f = EngineFixture.modules(HTTP);
        assertEquals("[]", ask("/", null));
        assertEquals("[]", ask("/", "blocked-value"));
        assertEquals("[]", ask("/", "http://example.com/x"));
        assertEquals("[]", ask("/", "HTTPS://EXAMPLE.COM:8443/x"));
        assertEquals("[1]", ask("/", "http://sub.example.com/x"));
        assertEquals("[]", ask("/", "http://a.b.example.net/"));
        assertEquals("[1]", ask("/", "http://example.net/"));
        assertEquals("[]", ask("/", "http://www.example.co.uk/"));
        assertEquals("[]", ask("/", "http://site.org/pub/a"));
        assertEquals("[1]", ask("/", "http://site.org/private"));
        assertEquals("[]", ask("/", "http://any.regex.host/"));
        assertEquals("[1]", ask("/", "http://other.org/"));
        assertEquals("[]", ask("/", "ftp://example.com/"));
    }

    @Test
    @Timeout(30)
    void serverNamesAndNone() throws Exception {
        f = EngineFixture.modules(HTTP);
        assertEquals("[]", ask("/names", "http://www.example.org/"));
        assertEquals("[]", ask("/names", "http://re42.test"));
        assertEquals("[]", ask("/names", "http://RE42.test:80/x"));
        assertEquals("[1]", ask("/names", "http://example.com/"));
        assertEquals("[1]", ask("/names", null));
        assertEquals("[1]", ask("/none", "http://anything/"));
        assertEquals("[]", ask("/none", null));
        assertEquals("[]", ask("/none", "http://other.org"));
    }

    @Test
    void regexSeesWhatFollowsTheScheme() {
        RefererModule.RefererConf c = new RefererModule.RefererConf();
        c.keys = new HostKeys<>();
        c.regex = java.util.List.of(regex("\\.com$"));
        assertEquals(jinx.kernel.Rc.OK, RefererModule.check(c, "http://a.com"));
        assertEquals(jinx.kernel.Rc.OK, RefererModule.check(c, "HTTPS://a.com"));
        assertEquals(jinx.kernel.Rc.DECLINED, RefererModule.check(c, "https://a.com/"));
    }

    private static jinx.http.internal.core.HttpRegex regex(String s) {
        try {
            return jinx.http.internal.core.HttpRegex.compile(s, true);
        } catch (jinx.kernel.ConfException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @Timeout(30)
    void configurationErrors() {
        assertRefused("valid_referers none blocked;", "the \"none\" or \"blocked\" referers are specified in the "
            + "\"valid_referers\" directive without any valid referer");
        assertRefused("valid_referers a.com A.COM;", "conflicting parameter \"A.COM\"");
        assertRefused("valid_referers www.*.com;", "invalid hostname or wildcard \"www.*.com\"");
        assertRefused("valid_referers \"~\";", "empty regex in \"~\"");
        assertRefused("valid_referers \"\";", "invalid referer \"\"");
        Exception e = assertThrows(Exception.class, () -> EngineFixture.modules(
            "server { listen 127.0.0.1:8080; return 200 $invalid_referer; }"));
        assertTrue(e.getMessage().contains("unknown \"invalid_referer\" variable"), e.getMessage());
    }

    private static void assertRefused(String directive, String text) {
        Exception e = assertThrows(Exception.class, () -> EngineFixture.modules(
            "server { listen 127.0.0.1:8080; location / { " + directive + " } }").close());
        assertTrue(String.valueOf(e.getMessage()).contains(text), e.getMessage());
    }
}
