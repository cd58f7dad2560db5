package jinx.http.internal.filter;

import jinx.http.HttpRequest;
import jinx.http.internal.request.HttpConnection;
import jinx.kernel.Connection;
import jinx.kernel.LogLevel;

/**
 * Error lines about a request, with nginx's HTTP context ({@code , client: ..., server: ..., request: "..."})
 * when the connection is an HTTP one.
 */
public final class Logs {

    private Logs() {
    }

    /**
     * Logs a line about a request.
     *
     * @param r the request
     * @param level the level
     * @param message the message
     */
    public static void log(HttpRequest r, LogLevel level, String message) {
        Connection c = r.connection();
        if (c.data instanceof HttpConnection hc) {
            hc.log(level, message);
            return;
        }
        r.log().log(level, c.number, message);
    }
}
