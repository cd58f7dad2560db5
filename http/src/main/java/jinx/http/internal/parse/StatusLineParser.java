package jinx.http.internal.parse;

import java.nio.ByteBuffer;

import jinx.kernel.Rc;

import static jinx.http.internal.parse.HttpParseState.NONE;
import static jinx.http.internal.parse.UriChars.CR;
import static jinx.http.internal.parse.UriChars.LF;
import static jinx.http.internal.parse.UriChars.at;

/**
 * An upstream's status line: nginx's {@code ngx_http_parse_status_line()}, which answers {@link Rc#ERROR} for
 * anything that is not {@code HTTP/major.minor code [text]} (the proxy then takes the response as HTTP/0.9).
 */
final class StatusLineParser {

    /** nginx's {@code sw_*} states, in its order (the ordinal is {@link HttpParseState#state}). */
    private enum State {
        START,
        H,
        HT,
        HTT,
        HTTP,
        FIRST_MAJOR_DIGIT,
        MAJOR_DIGIT,
        FIRST_MINOR_DIGIT,
        MINOR_DIGIT,
        STATUS,
        SPACE_AFTER_STATUS,
        STATUS_TEXT,
        ALMOST_DONE
    }

    private static final State[] STATES = State.values();

    private StatusLineParser() {
    }

    /**
     * nginx's {@code ngx_http_parse_status_line()}.
     *
     * @return see {@link HttpParser#parseStatusLine}
     */
    static int parse(HttpParseState r, ByteBuffer b, StatusLine status) {
        State state = STATES[r.state];
        int last = b.limit();
        int p = b.position();

        for (; p < last; p++) {
            int ch = at(b, p);

            switch (state) {

            // "HTTP/"
            case START:
                if (ch != 'H') {
                    return Rc.ERROR;
                }
                state = State.H;
                break;

            case H:
                if (ch != 'T') {
                    return Rc.ERROR;
                }
                state = State.HT;
                break;

            case HT:
                if (ch != 'T') {
                    return Rc.ERROR;
                }
                state = State.HTT;
                break;

            case HTT:
                if (ch != 'P') {
                    return Rc.ERROR;
                }
                state = State.HTTP;
                break;

            case HTTP:
                if (ch != '/') {
                    return Rc.ERROR;
                }
                state = State.FIRST_MAJOR_DIGIT;
                break;

            // the first digit of major HTTP version
            case FIRST_MAJOR_DIGIT:
                if (ch < '1' || ch > '9') {
                    return Rc.ERROR;
                }
                r.httpMajor = ch - '0';
                state = State.MAJOR_DIGIT;
                break;

            // the major HTTP version or dot
            case MAJOR_DIGIT:
                if (ch == '.') {
                    state = State.FIRST_MINOR_DIGIT;
                    break;
                }
                if (ch < '0' || ch > '9' || r.httpMajor > 99) {
                    return Rc.ERROR;
                }
                r.httpMajor = r.httpMajor * 10 + (ch - '0');
                break;

            // the first digit of minor HTTP version
            case FIRST_MINOR_DIGIT:
                if (ch < '0' || ch > '9') {
                    return Rc.ERROR;
                }
                r.httpMinor = ch - '0';
                state = State.MINOR_DIGIT;
                break;

            // the minor HTTP version or the end of the request line
            case MINOR_DIGIT:
                if (ch == ' ') {
                    state = State.STATUS;
                    break;
                }
                if (ch < '0' || ch > '9' || r.httpMinor > 99) {
                    return Rc.ERROR;
                }
                r.httpMinor = r.httpMinor * 10 + (ch - '0');
                break;

            // HTTP status code
            case STATUS:
                if (ch == ' ') {
                    break;
                }
                if (ch < '0' || ch > '9') {
                    return Rc.ERROR;
                }
                status.code = status.code * 10 + (ch - '0');
                if (++status.count == 3) {
                    state = State.SPACE_AFTER_STATUS;
                    status.start = p - 2;
                }
                break;

            // space or end of line
            case SPACE_AFTER_STATUS:
                switch (ch) {
                case ' ':
                case '.': // IIS may send 403.1, 403.2, etc
                    state = State.STATUS_TEXT;
                    break;
                case CR:
                    state = State.ALMOST_DONE;
                    break;
                case LF:
                    return done(r, b, p, status);
                default:
                    return Rc.ERROR;
                }
                break;

            // any text until end of line
            case STATUS_TEXT:
                if (ch == CR) {
                    state = State.ALMOST_DONE;
                    break;
                }
                if (ch == LF) {
                    return done(r, b, p, status);
                }
                break;

            // end of status line
            case ALMOST_DONE:
                status.end = p - 1;
                if (ch != LF) {
                    return Rc.ERROR;
                }
                return done(r, b, p, status);

            default:
                throw new IllegalStateException(state.name());
            }
        }

        b.position(p);
        r.state = state.ordinal();
        return Rc.AGAIN;
    }

    /** nginx's {@code done:} label. */
    private static int done(HttpParseState r, ByteBuffer b, int p, StatusLine status) {
        b.position(p + 1);
        if (status.end == NONE) {
            status.end = p;
        }
        status.httpVersion = r.httpMajor * 1000 + r.httpMinor;
        r.state = State.START.ordinal();
        return Rc.OK;
    }
}
