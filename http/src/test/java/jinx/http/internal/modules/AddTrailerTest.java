package jinx.http.internal.modules;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.LocalConnection;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code add_trailer}: the trailers after the last chunk, {@code always} for other statuses, empty values left
 * out, none over HTTP/1.0, and nginx's error for a bad third parameter.
 */
class AddTrailerTest {

    private EngineFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private String raw(String request) throws Exception {
        try (LocalConnection lc = f.connect()) {
            lc.send(request);
            f.turnUntil(5000, () -> {
                try {
                    return lc.closedByServer();
                } catch (java.io.IOException e) {
                    return true;
                }
            });
            return lc.received();
        }
    }

    @Test
    @Timeout(30)
    void trailersFollowTheLastChunk() throws Exception {
        f = EngineFixture.modules("server { listen 127.0.0.1:8080; location / { add_trailer X-Uri $uri; "
            + "add_trailer X-Empty ''; add_trailer X-Always yes always; return 200 'body'; } "
            + "location /404 { add_trailer X-Uri $uri; add_trailer X-Always yes always; return 404 'gone'; } }");
        String r = raw("GET /a HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        assertTrue(r.contains("Transfer-Encoding: chunked\r\n"), r);
        assertTrue(r.endsWith("\r\n\r\n4\r\nbody\r\n0\r\nX-Uri: /a\r\nX-Always: yes\r\n\r\n"), r);
        r = raw("GET /404 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        assertTrue(r.endsWith("\r\n\r\n4\r\ngone\r\n0\r\nX-Always: yes\r\n\r\n"), r);
        r = raw("GET /a HTTP/1.0\r\n\r\n");
        assertTrue(r.endsWith("\r\n\r\nbody") && !r.contains("X-Uri"), r);
    }

    @Test
    void badParameter() {
        Exception e = assertThrows(Exception.class, () -> EngineFixture.modules("server { listen 127.0.0.1:8080; "
            + "location / { add_trailer X-A 1 sometimes; } }").close());
        assertTrue(e.getMessage().contains("invalid parameter \"sometimes\""), e.getMessage());
    }
}
