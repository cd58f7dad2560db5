package jinx.http.internal.variables;

import java.util.concurrent.ThreadLocalRandom;

import jinx.http.HttpRequest;
import jinx.http.internal.request.CoreRequest;
import jinx.kernel.ConfException;

import static jinx.http.spi.HttpConfig.VAR_NOCACHEABLE;

/**
 * Core variables of {@code ngx_http_variables.c} beyond {@link CoreVariables}: {@code $request_id} (16 random
 * bytes in hex, fixed for the request), {@code $connection_time} (seconds since the connection was accepted, with
 * milliseconds) and {@code $request_completion} ({@code OK} once the response was completely produced).
 */
final class RequestVariables {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private RequestVariables() {
    }

    /**
     * Adds the variables.
     *
     * @param to where they go
     * @throws ConfException when one is added already
     */
    static void register(CoreVariables.Adder to) throws ConfException {
        to.add("request_id", (r, n) -> requestId(), 0);
        to.add("connection_time", (r, n) -> connectionTime(r), VAR_NOCACHEABLE);
        to.add("request_completion", (r, n) -> r instanceof CoreRequest cr && cr.requestComplete ? "OK" : "",
            0);
    }

    /** nginx's {@code ngx_http_variable_request_id()}: 16 random bytes, {@code %32xV}. */
    static String requestId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long a = random.nextLong();
        long b = random.nextLong();
        char[] id = new char[32];
        for (int i = 0; i < 16; i++) {
            id[i] = HEX[(int) (a >>> (60 - 4 * i)) & 0xf];
            id[16 + i] = HEX[(int) (b >>> (60 - 4 * i)) & 0xf];
        }
        return new String(id);
    }

    /** nginx's {@code ngx_http_variable_connection_time()}: {@code "%T.%03M"} of now less the accept time. */
    static String connectionTime(HttpRequest r) {
        if (!(r instanceof CoreRequest cr)) {
            return null;
        }
        // the loop's milliseconds wrap: the difference of two of them does not
        long ms = Math.max(0, r.loop().currentMsec() - cr.httpConnection().startMsec());
        long frac = ms % 1000;
        return ms / 1000 + "." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + frac;
    }
}
