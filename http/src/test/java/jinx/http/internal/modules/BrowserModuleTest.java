package jinx.http.internal.modules;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.EngineFixture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The browser module: versions against nginx's masks, Opera before MSIE, unlisted browsers, netscape4 and the
 * ancient substrings, the values, {@code $msie}, and the configuration errors.
 */
class BrowserModuleTest {

    private EngineFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private String ask(String uri, String ua) throws Exception {
        return f.get("GET " + uri + " HTTP/1.1\r\nHost: localhost\r\nUser-Agent: " + ua + "\r\nConnection: close\r\n\r\n")
            .body();
    }

    @Test
    @Timeout(30)
    void modernAndAncient() throws Exception {
        f = EngineFixture.modules("server { listen 127.0.0.1:8080; modern_browser msie 6.0; modern_browser gecko 1.7; "
            + "modern_browser_value yes; ancient_browser_value no; "
            + "location / { return 200 \"[$modern_browser][$ancient_browser][$msie]\"; } "
            + "location /u/ { modern_browser unlisted; ancient_browser Lynx; return 200 \"[$modern_browser]\"; } }");
        assertEquals("[yes][][1]", ask("/", "Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1)"));
        assertEquals("[][no][1]", ask("/", "Mozilla/4.0 (compatible; MSIE 5.5; Windows 98)"));
        assertEquals("[][no][]", ask("/", "Mozilla/4.0 (compatible; MSIE 6.0; X11) Opera 7.50  [en]"));
        assertEquals("[yes][][]", ask("/", "Mozilla/5.0 (X11; rv:1.7.12) Gecko/20050915"));
        assertEquals("[][no][]", ask("/", "Mozilla/5.0 (X11; rv:1.6) Gecko/20040206"));
        assertEquals("[yes]", ask("/u/", "curl/8"));
        assertEquals("[]", ask("/u/", "Lynx/2.8"));
    }

    @Test
    void msieAsTheCoreSetsIt() {
        assertTrue(BrowserModule.msie("MSIE 6.0b"));
        assertFalse(BrowserModule.msie("MSIE 6."));
        assertFalse(BrowserModule.msie("MSIE 6.0; Opera"));
        assertFalse(BrowserModule.msie(null));
    }

    @Test
    void configurationErrors() {
        assertRefused("modern_browser netscape 4;", "unknown browser name \"netscape\"");
        assertRefused("modern_browser msie 6b;", "invalid browser version \"6b\"");
        assertRefused("modern_browser listed;", "invalid parameter \"listed\"");
    }

    private static void assertRefused(String directive, String text) {
        Exception e = assertThrows(Exception.class, () -> EngineFixture.modules(
            "server { listen 127.0.0.1:8080; location / { " + directive + " } }").close());
        assertTrue(String.valueOf(e.getMessage()).contains(text), e.getMessage());
    }
}
