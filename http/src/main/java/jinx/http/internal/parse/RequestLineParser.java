package jinx.http.internal.parse;

import java.nio.ByteBuffer;

import jinx.http.HttpRequest;
import jinx.kernel.Rc;

import static jinx.http.internal.parse.HttpParseState.NONE;
import static jinx.http.internal.parse.UriChars.CR;
import static jinx.http.internal.parse.UriChars.LF;
import static jinx.http.internal.parse.UriChars.at;
import static jinx.http.internal.parse.UriChars.base;
import static jinx.http.internal.parse.UriChars.usual;

/**
 * The request line: nginx's {@code ngx_http_parse_request_line()}, state for state, as in current nginx: a space
 * (never a tab) separates the pieces, controls and spaces inside the URI are refused (since 1.21.1), CONNECT's
 * authority form is parsed (and left to the request code to refuse), and {@code HTTP/2.0} or a major version
 * above 1 is a version error.
 */
final class RequestLineParser {

    /** nginx's {@code sw_*} states, in its order (the ordinal is {@link HttpParseState#state}). */
    private enum State {
        START,
        METHOD,
        SPACES_BEFORE_URI,
        SCHEMA,
        SCHEMA_SLASH,
        SCHEMA_SLASH_SLASH,
        SPACES_BEFORE_HOST,
        HOST_START,
        HOST,
        HOST_END,
        HOST_IP_LITERAL,
        PORT,
        AFTER_SLASH_IN_URI,
        CHECK_URI,
        URI,
        HTTP_09,
        HTTP_H,
        HTTP_HT,
        HTTP_HTT,
        HTTP_HTTP,
        FIRST_MAJOR_DIGIT,
        MAJOR_DIGIT,
        FIRST_MINOR_DIGIT,
        MINOR_DIGIT,
        SPACES_AFTER_DIGIT,
        ALMOST_DONE
    }

    private static final State[] STATES = State.values();

    private RequestLineParser() {
    }

    /**
     * Parses the request line, nginx's {@code ngx_http_parse_request_line()}.
     *
     * @param r the state
     * @param b the buffer
     * @return see {@link HttpParser#parseRequestLine}
     */
    static int parse(HttpParseState r, ByteBuffer b) {
        if (r.state == State.START.ordinal()) {
            int rc = PlainRequestLine.parse(r, b, base(b));
            if (rc != PlainRequestLine.NOT_PLAIN) {
                return rc;
            }
        }
        return machine(r, b);
    }

    /**
     * The state machine alone, for every line {@link PlainRequestLine} leaves to it (and for the test that
     * compares the two).
     *
     * @param r the state
     * @param b the buffer
     * @return see {@link HttpParser#parseRequestLine}
     */
    @SuppressWarnings("fallthrough")
    static int machine(HttpParseState r, ByteBuffer b) {
        State state = STATES[r.state];
        int last = b.limit();
        int p = b.position();
        long base = base(b);

        for (; p < last; p++) {
            int ch = at(b, base, p);
            int c;

            switch (state) {

            case START:
                r.requestStart = p;
                if (ch == CR || ch == LF) {
                    break;
                }
                if (!Methods.methodChar(ch)) {
                    return HttpParser.PARSE_INVALID_METHOD;
                }
                state = State.METHOD;
                break;

            case METHOD:
                if (ch == ' ') {
                    r.methodEnd = p - 1;
                    r.method = Methods.bit(b, r.requestStart, p - r.requestStart);
                    // CONNECT is followed by the authority, host:port
                    state = r.method == HttpRequest.CONNECT ? State.SPACES_BEFORE_HOST : State.SPACES_BEFORE_URI;
                    break;
                }
                if (!Methods.methodChar(ch)) {
                    return HttpParser.PARSE_INVALID_METHOD;
                }
                break;

            case SPACES_BEFORE_URI:
                if (ch == '/') {
                    r.uriStart = p;
                    state = State.AFTER_SLASH_IN_URI;
                    break;
                }
                c = ch | 0x20;
                if (c >= 'a' && c <= 'z') {
                    r.schemaStart = p;
                    state = State.SCHEMA;
                    break;
                }
                if (ch != ' ') {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                break;

            case SCHEMA:
                c = ch | 0x20;
                if ((c >= 'a' && c <= 'z') || (ch >= '0' && ch <= '9') || ch == '+' || ch == '-' || ch == '.') {
                    break;
                }
                if (ch != ':') {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                r.schemaEnd = p;
                state = State.SCHEMA_SLASH;
                break;

            case SCHEMA_SLASH:
                if (ch != '/') {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                state = State.SCHEMA_SLASH_SLASH;
                break;

            case SCHEMA_SLASH_SLASH:
                if (ch != '/') {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                state = State.HOST_START;
                break;

            case SPACES_BEFORE_HOST:
                if (ch == ' ') {
                    break;
                }
                // fall through

            case HOST_START:
                r.hostStart = p;
                if (ch == '[') {
                    state = State.HOST_IP_LITERAL;
                    break;
                }
                state = State.HOST;
                // fall through

            case HOST:
                c = ch | 0x20;
                if ((c >= 'a' && c <= 'z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '-') {
                    break;
                }
                // fall through

            case HOST_END:
                if (ch == ':') {
                    r.portStart = p + 1;
                    state = State.PORT;
                    break;
                }
                r.hostEnd = p;
                if (r.method == HttpRequest.CONNECT) {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                state = afterAuthority(r, ch, p);
                if (state == null) {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                break;

            case HOST_IP_LITERAL:
                if (!UriChars.ipLiteralChar(ch)) {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                if (ch == ']') {
                    state = State.HOST_END;
                }
                break;

            case PORT:
                if (ch >= '0' && ch <= '9') {
                    break;
                }
                r.hostEnd = p;
                r.portEnd = p;
                if (r.method == HttpRequest.CONNECT) {
                    if (ch == ' ') {
                        state = State.HTTP_09;
                        break;
                    }
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                state = afterAuthority(r, ch, p);
                if (state == null) {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                break;

            // check "/.", "//", "%" in URI
            case AFTER_SLASH_IN_URI:
                if (usual(ch)) {
                    state = State.CHECK_URI;
                    break;
                }
                switch (ch) {
                case ' ':
                    r.uriEnd = p;
                    state = State.HTTP_09;
                    break;
                case CR:
                    r.uriEnd = p;
                    r.httpMinor = 9;
                    state = State.ALMOST_DONE;
                    break;
                case LF:
                    r.uriEnd = p;
                    r.httpMinor = 9;
                    return done(r, b, p);
                case '.':
                case '/':
                case '#':
                    r.complexUri = true;
                    state = State.URI;
                    break;
                case '%':
                    r.quotedUri = true;
                    state = State.URI;
                    break;
                case '?':
                    r.argsStart = p + 1;
                    state = State.URI;
                    break;
                case '+':
                    r.plusInUri = true;
                    break;
                default:
                    if (ch < 0x20 || ch == 0x7f) {
                        return HttpParser.PARSE_INVALID_REQUEST;
                    }
                    state = State.CHECK_URI;
                    break;
                }
                break;

            // check "/", "%" in URI
            case CHECK_URI:
                if (usual(ch)) {
                    break;
                }
                switch (ch) {
                case '/':
                    r.uriExt = NONE;
                    state = State.AFTER_SLASH_IN_URI;
                    break;
                case '.':
                    r.uriExt = p + 1;
                    break;
                case ' ':
                    r.uriEnd = p;
                    state = State.HTTP_09;
                    break;
                case CR:
                    r.uriEnd = p;
                    r.httpMinor = 9;
                    state = State.ALMOST_DONE;
                    break;
                case LF:
                    r.uriEnd = p;
                    r.httpMinor = 9;
                    return done(r, b, p);
                case '%':
                    r.quotedUri = true;
                    state = State.URI;
                    break;
                case '?':
                    r.argsStart = p + 1;
                    state = State.URI;
                    break;
                case '#':
                    r.complexUri = true;
                    state = State.URI;
                    break;
                case '+':
                    r.plusInUri = true;
                    break;
                default:
                    if (ch < 0x20 || ch == 0x7f) {
                        return HttpParser.PARSE_INVALID_REQUEST;
                    }
                    break;
                }
                break;

            case URI:
                if (usual(ch)) {
                    break;
                }
                switch (ch) {
                case ' ':
                    r.uriEnd = p;
                    state = State.HTTP_09;
                    break;
                case CR:
                    r.uriEnd = p;
                    r.httpMinor = 9;
                    state = State.ALMOST_DONE;
                    break;
                case LF:
                    r.uriEnd = p;
                    r.httpMinor = 9;
                    return done(r, b, p);
                case '#':
                    r.complexUri = true;
                    break;
                default:
                    if (ch < 0x20 || ch == 0x7f) {
                        return HttpParser.PARSE_INVALID_REQUEST;
                    }
                    break;
                }
                break;

            // space+ after URI
            case HTTP_09:
                switch (ch) {
                case ' ':
                    break;
                case CR:
                    r.httpMinor = 9;
                    state = State.ALMOST_DONE;
                    break;
                case LF:
                    r.httpMinor = 9;
                    return done(r, b, p);
                case 'H':
                    r.httpProtocolStart = p;
                    state = State.HTTP_H;
                    break;
                default:
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                break;

            case HTTP_H:
                if (ch != 'T') {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                state = State.HTTP_HT;
                break;

            case HTTP_HT:
                if (ch != 'T') {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                state = State.HTTP_HTT;
                break;

            case HTTP_HTT:
                if (ch != 'P') {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                state = State.HTTP_HTTP;
                break;

            case HTTP_HTTP:
                if (ch != '/') {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                if (r.method == HttpRequest.CONNECT) {
                    // nginx: use the single "/" of the protocol as CONNECT's URI, to keep the pointers valid
                    r.uriStart = p;
                    r.uriEnd = p + 1;
                }
                state = State.FIRST_MAJOR_DIGIT;
                break;

            // first digit of major HTTP version
            case FIRST_MAJOR_DIGIT:
                if (ch < '1' || ch > '9') {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                r.httpMajor = ch - '0';
                if (r.httpMajor > 1) {
                    return HttpParser.PARSE_INVALID_VERSION;
                }
                state = State.MAJOR_DIGIT;
                break;

            // major HTTP version or dot
            case MAJOR_DIGIT:
                if (ch == '.') {
                    state = State.FIRST_MINOR_DIGIT;
                    break;
                }
                if (ch < '0' || ch > '9') {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                r.httpMajor = r.httpMajor * 10 + (ch - '0');
                if (r.httpMajor > 1) {
                    return HttpParser.PARSE_INVALID_VERSION;
                }
                break;

            // first digit of minor HTTP version
            case FIRST_MINOR_DIGIT:
                if (ch < '0' || ch > '9') {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                r.httpMinor = ch - '0';
                state = State.MINOR_DIGIT;
                break;

            // minor HTTP version or end of request line
            case MINOR_DIGIT:
                if (ch == CR) {
                    state = State.ALMOST_DONE;
                    break;
                }
                if (ch == LF) {
                    return done(r, b, p);
                }
                if (ch == ' ') {
                    state = State.SPACES_AFTER_DIGIT;
                    break;
                }
                if (ch < '0' || ch > '9') {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                if (r.httpMinor > 99) {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                r.httpMinor = r.httpMinor * 10 + (ch - '0');
                break;

            case SPACES_AFTER_DIGIT:
                switch (ch) {
                case ' ':
                    break;
                case CR:
                    state = State.ALMOST_DONE;
                    break;
                case LF:
                    return done(r, b, p);
                default:
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                break;

            // end of request line
            case ALMOST_DONE:
                r.requestEnd = p - 1;
                if (ch != LF) {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                return done(r, b, p);

            default:
                throw new IllegalStateException(state.name());
            }
        }

        b.position(p);
        r.state = state.ordinal();
        return Rc.AGAIN;
    }

    /** nginx's {@code done:} label: {@code p} is the LF's index. */
    static int done(HttpParseState r, ByteBuffer b, int p) {
        b.position(p + 1);
        if (r.requestEnd == NONE) {
            r.requestEnd = p;
        }
        r.httpVersion = r.httpMajor * 1000 + r.httpMinor;
        r.state = State.START.ordinal();
        if (r.httpVersion == HttpRequest.VERSION_9 && r.method != HttpRequest.GET) {
            return HttpParser.PARSE_INVALID_09_METHOD;
        }
        return Rc.OK;
    }

    /**
     * What follows an absolute-form URI's authority (the shared tail of nginx's {@code sw_host_end} and
     * {@code sw_port}): the path, the arguments of an empty path, or a space that ends a URI with no path.
     *
     * @return the next state, or null for an invalid request
     */
    private static State afterAuthority(HttpParseState r, int ch, int p) {
        switch (ch) {
        case '/':
            r.uriStart = p;
            return State.AFTER_SLASH_IN_URI;
        case '?':
            r.uriStart = p;
            r.argsStart = p + 1;
            r.emptyPathInUri = true;
            return State.URI;
        case ' ':
            // nginx: use the single "/" of "://" as the URI, so the pointers survive a copy to a larger buffer
            r.uriStart = r.schemaEnd + 1;
            r.uriEnd = r.schemaEnd + 2;
            return State.HTTP_09;
        default:
            return null;
        }
    }
}
