package jinx.http.internal.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code User-Agent} flags nginx's {@code ngx_http_process_user_agent()} sets, computed once per value: the
 * same flags whether a value is seen for the first time or found in the table, and a request's flags follow its own
 * value, not the previous request's.
 */
class BrowsersTest {

    private static final String CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
        + "Chrome/120.0.0.0 Safari/537.36";
    private static final String FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";
    private static final String MSIE6 = "Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1)";
    private static final String MSIE6_SV1 = "Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1)";
    private static final String MSIE8 = "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1)";
    private static final String OPERA = "Opera/9.80 (Windows NT 6.1; MSIE 7.0) Presto/2.12";
    private static final String SAFARI = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 "
        + "(KHTML, like Gecko) Version/17.1 Safari/605.1.15";
    private static final String KONQUEROR = "Mozilla/5.0 (compatible; Konqueror/4.5; Linux) KHTML/4.5.4";

    private EngineFixture f;

    @BeforeEach
    void start() throws Exception {
        // msie_refresh shows r.msie in the response: a redirect to a refresh page for MSIE only
        f = EngineFixture.socketless("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n"
            + " location / { msie_refresh on; return 302 /there; }\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        f.close();
    }

    @Test
    void flagsAsNginxSetsThem() {
        assertEquals(16, RequestHeaders.browsers(CHROME));
        assertEquals(8, RequestHeaders.browsers(FIREFOX));
        assertEquals(1 | 2, RequestHeaders.browsers(MSIE6));
        assertEquals(1, RequestHeaders.browsers(MSIE6_SV1));
        assertEquals(1, RequestHeaders.browsers(MSIE8));
        assertEquals(4, RequestHeaders.browsers(OPERA));
        assertEquals(32, RequestHeaders.browsers(SAFARI));
        assertEquals(64, RequestHeaders.browsers(KONQUEROR));
        assertEquals(0, RequestHeaders.browsers("curl/8.0"));
        assertEquals(0, RequestHeaders.browsers("MSIE 6"));
    }

    @Test
    @Timeout(20)
    void eachRequestGetsItsOwnValuesFlags() throws Exception {
        // a value over 256 bytes is a new string on each request, found in the table by its equal value
        String longMsie = MSIE8 + " " + "x".repeat(300);
        String[] agents = {MSIE8, CHROME, MSIE8, MSIE8, FIREFOX, MSIE6, OPERA, longMsie, CHROME, longMsie, MSIE8};
        try (LocalConnection lc = f.connect()) {
            int n = 0;
            for (int round = 0; round < 3; round++) {
                for (String ua : agents) {
                    // the connection's responses so far: this request's is the last
                    String raw = f.exchange(lc, "GET / HTTP/1.1\r\nHost: a\r\nUser-Agent: " + ua + "\r\n\r\n", ++n);
                    Responses.Response response = Responses.split(raw).get(n - 1);
                    boolean msie = (RequestHeaders.browsers(ua) & 1) != 0;
                    assertEquals(msie ? 200 : 302, response.status(), ua);
                    assertEquals(msie, response.body().contains("<meta http-equiv=\"Refresh\""), ua);
                }
            }
        }
        assertFalse(f.log().contains("[alert]"), f.log());
    }
}
