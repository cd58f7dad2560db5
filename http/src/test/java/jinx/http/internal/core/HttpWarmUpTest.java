package jinx.http.internal.core;

import java.nio.charset.StandardCharsets;
import java.util.List;

import jinx.kernel.Listening;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.spi.WarmUpExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What HTTP offers a worker's warm-up: requests to the default server's own locations only, and where a response
 * ends.
 */
class HttpWarmUpTest {

    @RegisterExtension
    final HttpConfFixture fx = HttpConfFixture.inTempDir();

    private static List<String> requestLines(List<WarmUpExchange> exchanges) {
        return exchanges.stream()
            .map(e -> new String(e.request(), StandardCharsets.ISO_8859_1))
            .map(t -> t.substring(0, t.indexOf("\r\n")) + (t.contains("If-None-Match: *") ? " INM"
                : t.contains("If-Modified-Since: ") ? " IMS" : ""))
            .toList();
    }

    @Test
    void requestsTheDefaultServersPlainLocationsThreeWays() throws Exception {
        KernelCycle c = fx.build("http {\n server {\n  listen 127.0.0.1:8080;\n  server_name example.org www.example.org;\n"
            + "  location / { }\n  location = /exact { }\n  location ~ \\.php$ { }\n  location @named { }\n"
            + "  location \"/a b\" { }\n }\n server {\n  listen 127.0.0.1:8080;\n  server_name other;\n"
            + "  location /other { }\n }\n}\n");
        List<WarmUpExchange> ex = HttpWarmUp.exchanges(c.listening().get(0));
        assertEquals(List.of(
            "GET / HTTP/1.1", "GET / HTTP/1.1 INM", "GET / HTTP/1.1 IMS",
            "GET /a%20b HTTP/1.1", "GET /a%20b HTTP/1.1 INM", "GET /a%20b HTTP/1.1 IMS",
            "GET /exact HTTP/1.1", "GET /exact HTTP/1.1 INM", "GET /exact HTTP/1.1 IMS"), requestLines(ex));
        String first = new String(ex.get(0).request(), StandardCharsets.ISO_8859_1);
        assertTrue(first.contains("\r\nHost: example.org\r\n") && first.endsWith("\r\n\r\n"), first);
    }

    @Test
    void skipsALocationWithAModulesContentHandler() throws Exception {
        KernelCycle c = fx.build("http {\n server {\n  listen 127.0.0.1:8080;\n  location /app { }\n"
            + "  location /files { }\n }\n}\n");
        Listening ls = c.listening().get(0);
        ListeningServers servers = (ListeningServers) ls.servers;
        HttpCoreLocConf app = find(servers.addrs().get(0).defaultServer().locConf().staticLocations, "/app");
        app.handler = r -> 200;
        assertEquals(List.of("GET /files HTTP/1.1", "GET /files HTTP/1.1 INM", "GET /files HTTP/1.1 IMS"),
            requestLines(HttpWarmUp.exchanges(ls)));
    }

    @Test
    void offersNothingForASocketOfAnotherProtocol() {
        Listening ls = new Listening(jinx.kernel.os.SockAddr.parse("127.0.0.1:9"));
        assertEquals(List.of(), HttpWarmUp.exchanges(ls));
    }

    private static HttpCoreLocConf find(LocationTree node, String name) {
        if (node == null) {
            return null;
        }
        for (HttpCoreLocConf c : new HttpCoreLocConf[] {node.exact, node.inclusive}) {
            if (c != null && c.name.equals(name)) {
                return c;
            }
        }
        HttpCoreLocConf found = find(node.left, name);
        found = found != null ? found : find(node.tree, name);
        return found != null ? found : find(node.right, name);
    }

    private static int length(String response) {
        byte[] b = response.getBytes(StandardCharsets.ISO_8859_1);
        return HttpWarmUp.responseLength(b, b.length);
    }

    @Test
    void aResponseEndsAfterItsContentLength() {
        String head = "HTTP/1.1 200 OK\r\nServer: jinx\r\ncontent-length: 6\r\n\r\n";
        assertEquals(head.length() + 6, length(head));
        assertEquals(head.length() + 6, length(head + "hel"));
    }

    @Test
    void anIncompleteHeadIsNotYetAnAnswer() {
        assertEquals(-1, length("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n"));
        assertEquals(-1, length(""));
    }

    @Test
    void aResponseWithoutBodyEndsWithItsHead() {
        for (String status : List.of("304 Not Modified", "204 No Content", "100 Continue")) {
            String head = "HTTP/1.1 " + status + "\r\nContent-Length: 10\r\n\r\n";
            assertEquals(head.length(), length(head), status);
        }
    }

    @Test
    void withoutALengthTheResponseEndsWithTheConnection() {
        assertEquals(Integer.MAX_VALUE, length("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"));
        assertEquals(Integer.MAX_VALUE, length("HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n"));
        assertEquals(Integer.MAX_VALUE, length("SSH-2.0-OpenSSH\r\n\r\n"));
    }
}
