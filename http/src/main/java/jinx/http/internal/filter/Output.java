package jinx.http.internal.filter;

import jinx.kernel.BufChain;

/**
 * A request's output state, kept by the write filter in its request context: nginx's {@code r->out},
 * {@code r->limit_rate}, {@code r->limit_rate_after} and {@code r->header_size}.
 */
public final class Output {

    /** The buffers not sent yet (nginx's {@code r->out}), or null. */
    BufChain out;
    /** The last link of {@link #out}. */
    BufChain outTail;
    /** {@code limit_rate} in bytes per second, 0 for none; -1 until the first write takes the location's. */
    long limitRate = -1;
    /** {@code limit_rate_after}; -1 until the first limited write takes the location's. */
    long limitRateAfter = -1;
    /** The size of the status line and headers sent (nginx's {@code r->header_size}). */
    long headerSize;

    Output() {
    }

    /** Makes the state as new, for a reused request object. */
    void reset() {
        out = null;
        outTail = null;
        limitRate = -1;
        limitRateAfter = -1;
        headerSize = 0;
    }

    /**
     * Returns the size of the status line and headers: nginx's {@code r->header_size}, for
     * {@code $body_bytes_sent}.
     *
     * @return bytes, 0 before the header is made
     */
    public long headerSize() {
        return headerSize;
    }

    /**
     * Returns the response's rate limit (nginx's {@code r->limit_rate}, {@code $limit_rate}).
     *
     * @return bytes per second, 0 for none, -1 when the location's is not taken yet
     */
    public long limitRate() {
        return limitRate;
    }

    /**
     * Sets the response's rate limit ({@code set $limit_rate}).
     *
     * @param bytesPerSecond bytes per second, 0 for none
     */
    public void limitRate(long bytesPerSecond) {
        limitRate = bytesPerSecond;
    }

    /**
     * Tells whether output is waiting to be sent.
     *
     * @return true when the write filter holds buffers
     */
    public boolean pending() {
        return out != null;
    }
}
