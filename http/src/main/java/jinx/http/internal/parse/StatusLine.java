package jinx.http.internal.parse;

/**
 * An upstream's status line as {@link HttpParser#parseStatusLine} finds it: nginx's {@code ngx_http_status_t}.
 * Positions index the buffer parsed; {@link HttpParseState#NONE} when not set. {@link #reset()} it before each
 * response, as nginx's proxy zeroes its {@code status}.
 */
public final class StatusLine {

    /** {@code major * 1000 + minor}, set when the line is done. */
    public int httpVersion;
    /** The status code. */
    public int code;
    /** How many digits of the code were read. */
    public int count;
    /** The first digit of the code: the status line's text starts there ({@code $upstream_status} and kin). */
    public int start = HttpParseState.NONE;
    /** The end of the line, before its CR or LF. */
    public int end = HttpParseState.NONE;

    /**
     * Returns to a fresh status line's values.
     */
    public void reset() {
        httpVersion = 0;
        code = 0;
        count = 0;
        start = HttpParseState.NONE;
        end = HttpParseState.NONE;
    }
}
