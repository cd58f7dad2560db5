package jinx.http.it;

import java.io.IOException;

import jinx.http.internal.request.Responses.Response;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the integration tests share: the {@code /alive} location every configuration has, and the check that a
 * server still serves after whatever a test did to it.
 */
final class ItSupport {

    /** A location every test configuration holds, to show the server still serves. */
    static final String ALIVE = "location = /alive { return 200 \"alive\\n\"; }\n";
    /**
     * What an error log line of a server's main thread has after its pid: {@code #} and the thread's id, which is
     * the JVM's to choose, 1 on Java 17 and 3 on Java 25 (the master and the workers run the java on PATH, which
     * is this JVM's in CI: {@code .ci/run}).
     */
    static final String MAIN_TID = "#" + Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("main")).mapToLong(Thread::getId).findFirst().orElse(1);

    private ItSupport() {
    }

    /**
     * Sends one request on a new connection and returns the first final response.
     *
     * @param port the port on 127.0.0.1
     * @param request the raw request
     * @return the response
     * @throws IOException when none comes
     */
    static Response request(int port, String request) throws IOException {
        try (RawClient c = RawClient.connect(port)) {
            return c.send(request).response();
        }
    }

    /**
     * Sends {@code GET path} with {@code Host: host} on a new connection and returns the response.
     *
     * @param port the port on 127.0.0.1
     * @param host the Host header's value
     * @param path the URI
     * @return the response
     * @throws IOException when none comes
     */
    static Response get(int port, String host, String path) throws IOException {
        return request(port, "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
    }

    /**
     * Checks that the server answers {@code GET /alive} on a new connection and logged no alert.
     *
     * @param server the server
     * @throws IOException when it does not answer
     */
    static void assertAlive(JinxServer server) throws IOException {
        Response r = get(server.port(), "localhost", "/alive");
        assertEquals("HTTP/1.1 200 OK", r.statusLine());
        assertEquals("alive\n", r.body());
        server.assertNoAlerts();
    }
}
