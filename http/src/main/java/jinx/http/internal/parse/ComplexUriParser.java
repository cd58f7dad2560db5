package jinx.http.internal.parse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import jinx.kernel.Rc;

import static jinx.http.internal.parse.HttpParseState.NONE;
import static jinx.http.internal.parse.UriChars.usual;

/**
 * Decoding and normalising the path of a URI: nginx's {@code ngx_http_parse_complex_uri()} (current nginx, which
 * refuses a decoded NUL, keeps a decoded {@code %}, {@code #} or {@code ?} as a plain byte, and refuses a
 * {@code ..} that climbs above the root), and the URI half of {@code ngx_http_process_request_uri()} of
 * {@code ngx_http_request.c} that calls it. The Win32 branches ({@code \} as {@code /}, trailing dots) are left
 * out, as on Unix.
 */
final class ComplexUriParser {

    /** nginx's {@code sw_*} states, in its order. */
    private enum State {
        USUAL,
        SLASH,
        DOT,
        DOT_DOT,
        QUOTED,
        QUOTED_SECOND
    }

    /** How the scan ended: ran to the end of the URI, met {@code #} (nginx's {@code done:}) or {@code ?}. */
    private static final int END = 0;
    private static final int FRAGMENT = 1;
    private static final int ARGS = 2;

    private ComplexUriParser() {
    }

    /**
     * nginx's {@code ngx_http_process_request_uri()}, without its logging and finalizing: sets {@code uri},
     * {@code unparsedUri}, {@code validUnparsedUri}, {@code args} and {@code exten} from the parsed request line.
     *
     * @return see {@link HttpParser#processRequestUri}
     */
    static int processRequestUri(HttpParseState r, ByteBuffer b, boolean mergeSlashes) {
        if (r.complexUri || r.quotedUri || r.emptyPathInUri) {
            int rc = parse(r, b, mergeSlashes);
            if (rc != Rc.OK) {
                r.uri = "";
                return rc;
            }
        } else {
            r.uri = HttpParser.string(b, r.uriStart, r.argsStart != NONE ? r.argsStart - 1 : r.uriEnd);
        }

        r.unparsedUri = HttpParser.string(b, r.uriStart, r.uriEnd);
        r.validUnparsedUri = !r.emptyPathInUri;

        if (r.uriExt != NONE) {
            r.exten = HttpParser.string(b, r.uriExt, r.argsStart != NONE ? r.argsStart - 1 : r.uriEnd);
        }
        if (r.argsStart != NONE && r.uriEnd > r.argsStart) {
            r.args = HttpParser.string(b, r.argsStart, r.uriEnd);
        }
        return Rc.OK;
    }

    /**
     * nginx's {@code ngx_http_parse_complex_uri()}.
     *
     * @return see {@link HttpParser#parseComplexUri}
     */
    @SuppressWarnings("fallthrough")
    static int parse(HttpParseState r, ByteBuffer b, boolean mergeSlashes) {
        int end = r.uriEnd;
        // the decoded path is never longer than the URI, plus the '/' of an empty path
        byte[] u = new byte[end - r.uriStart + 1];
        int w = 0;
        int ext = NONE;
        State state = State.USUAL;
        State quotedState = State.USUAL;
        int decoded = 0;
        int how = END;

        r.uriExt = NONE;
        r.argsStart = NONE;
        if (r.emptyPathInUri) {
            u[w++] = '/';
        }

        int p = r.uriStart;
        // nginx reads one byte ahead, the byte after the URI included (a space, CR or LF, never interpreted)
        int ch = byteAt(b, p++);

        scan:
        while (p <= end) {
            switch (state) {

            case USUAL:
                if (usual(ch)) {
                    u[w++] = (byte) ch;
                    ch = byteAt(b, p++);
                    break;
                }
                switch (ch) {
                case '/':
                    ext = NONE;
                    state = State.SLASH;
                    u[w++] = (byte) ch;
                    break;
                case '%':
                    if (p + 2 <= end) {
                        // an escape of a usual byte, whole in the URI, ends where QUOTED, QUOTED_SECOND and USUAL
                        // would bring it: three turns of the loop in one (a URI of 2,500 escapes took 46-87 us
                        // in memory with the three, 39-46 with one)
                        int hi = hex(byteAt(b, p));
                        int lo = hex(byteAt(b, p + 1));
                        int c = hi << 4 | lo;
                        if ((hi | lo) >= 0 && usual(c)) {
                            r.quotedUri = true;
                            u[w++] = (byte) c;
                            p += 2;
                            break;
                        }
                    }
                    quotedState = state;
                    state = State.QUOTED;
                    break;
                case '?':
                    r.argsStart = p;
                    how = ARGS;
                    break scan;
                case '#':
                    how = FRAGMENT;
                    break scan;
                case '.':
                    ext = w + 1;
                    u[w++] = (byte) ch;
                    break;
                case '+':
                    r.plusInUri = true;
                    // fall through
                default:
                    u[w++] = (byte) ch;
                    break;
                }
                ch = byteAt(b, p++);
                break;

            case SLASH:
                if (usual(ch)) {
                    state = State.USUAL;
                    u[w++] = (byte) ch;
                    ch = byteAt(b, p++);
                    break;
                }
                switch (ch) {
                case '/':
                    if (!mergeSlashes) {
                        u[w++] = (byte) ch;
                    }
                    break;
                case '.':
                    state = State.DOT;
                    u[w++] = (byte) ch;
                    break;
                case '%':
                    quotedState = state;
                    state = State.QUOTED;
                    break;
                case '?':
                    r.argsStart = p;
                    how = ARGS;
                    break scan;
                case '#':
                    how = FRAGMENT;
                    break scan;
                case '+':
                    r.plusInUri = true;
                    // fall through
                default:
                    state = State.USUAL;
                    u[w++] = (byte) ch;
                    break;
                }
                ch = byteAt(b, p++);
                break;

            case DOT:
                if (usual(ch)) {
                    state = State.USUAL;
                    u[w++] = (byte) ch;
                    ch = byteAt(b, p++);
                    break;
                }
                switch (ch) {
                case '/':
                    // "/./": drop the dot, keep the slash written before it
                    state = State.SLASH;
                    w--;
                    break;
                case '.':
                    state = State.DOT_DOT;
                    u[w++] = (byte) ch;
                    break;
                case '%':
                    quotedState = state;
                    state = State.QUOTED;
                    break;
                case '?':
                    w--;
                    r.argsStart = p;
                    how = ARGS;
                    break scan;
                case '#':
                    w--;
                    how = FRAGMENT;
                    break scan;
                case '+':
                    r.plusInUri = true;
                    // fall through
                default:
                    state = State.USUAL;
                    u[w++] = (byte) ch;
                    break;
                }
                ch = byteAt(b, p++);
                break;

            case DOT_DOT:
                if (usual(ch)) {
                    state = State.USUAL;
                    u[w++] = (byte) ch;
                    ch = byteAt(b, p++);
                    break;
                }
                switch (ch) {
                case '/':
                case '?':
                case '#':
                    w = parentSegment(u, w);
                    if (w < 0) {
                        return HttpParser.PARSE_INVALID_REQUEST;
                    }
                    if (ch == '?') {
                        r.argsStart = p;
                        how = ARGS;
                        break scan;
                    }
                    if (ch == '#') {
                        how = FRAGMENT;
                        break scan;
                    }
                    state = State.SLASH;
                    break;
                case '%':
                    quotedState = state;
                    state = State.QUOTED;
                    break;
                case '+':
                    r.plusInUri = true;
                    // fall through
                default:
                    state = State.USUAL;
                    u[w++] = (byte) ch;
                    break;
                }
                ch = byteAt(b, p++);
                break;

            case QUOTED:
                r.quotedUri = true;
                decoded = hex(ch);
                if (decoded < 0) {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
                state = State.QUOTED_SECOND;
                ch = byteAt(b, p++);
                break;

            case QUOTED_SECOND:
                if (ch >= '0' && ch <= '9') {
                    ch = ((decoded << 4) + (ch - '0')) & 0xff;
                    if (ch == '%' || ch == '#') {
                        // a decoded '%' or '#' is a plain byte of the path
                        state = State.USUAL;
                        u[w++] = (byte) ch;
                        ch = byteAt(b, p++);
                        break;
                    }
                    if (ch == '\0') {
                        return HttpParser.PARSE_INVALID_REQUEST;
                    }
                    // run the decoded byte through the state the '%' came in
                    state = quotedState;
                    break;
                }
                int c = ch | 0x20;
                if (c >= 'a' && c <= 'f') {
                    ch = ((decoded << 4) + (c - 'a') + 10) & 0xff;
                    if (ch == '?') {
                        state = State.USUAL;
                        u[w++] = (byte) ch;
                        ch = byteAt(b, p++);
                        break;
                    }
                    if (ch == '+') {
                        r.plusInUri = true;
                    }
                    state = quotedState;
                    break;
                }
                return HttpParser.PARSE_INVALID_REQUEST;

            default:
                throw new IllegalStateException(state.name());
            }
        }

        if (how == END) {
            if (state == State.QUOTED || state == State.QUOTED_SECOND) {
                return HttpParser.PARSE_INVALID_REQUEST;
            }
            if (state == State.DOT) {
                w--;
            } else if (state == State.DOT_DOT) {
                w = parentSegment(u, w);
                if (w < 0) {
                    return HttpParser.PARSE_INVALID_REQUEST;
                }
            }
        } else if (how == ARGS) {
            args(r, b, p);
        }

        r.uri = new String(u, 0, w, StandardCharsets.ISO_8859_1);
        if (ext != NONE) {
            r.exten = new String(u, ext, w - ext, StandardCharsets.ISO_8859_1);
        }
        r.uriExt = NONE;
        return Rc.OK;
    }

    /**
     * nginx's {@code u -= 4} and walk back to the previous '/': drops "/segment/.." to "/".
     *
     * @return the new write index, after that slash; or -1 when the path climbs above the root
     */
    private static int parentSegment(byte[] u, int w) {
        for (int i = w - 4; i >= 0; i--) {
            if (u[i] == '/') {
                return i + 1;
            }
        }
        return -1;
    }

    /** nginx's {@code args:} label: arguments up to a '#', if there is one (else the caller takes them). */
    private static void args(HttpParseState r, ByteBuffer b, int p) {
        for (int i = p; i < r.uriEnd; i++) {
            if (b.get(i) == '#') {
                r.args = HttpParser.string(b, r.argsStart, i);
                r.argsStart = NONE;
                return;
            }
        }
    }

    private static int hex(int ch) {
        if (ch >= '0' && ch <= '9') {
            return ch - '0';
        }
        int c = ch | 0x20;
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    }

    /** The byte at {@code i}, or 0 past the buffer's limit (nginx relies on a byte after the URI). */
    private static int byteAt(ByteBuffer b, int i) {
        return i < b.limit() ? b.get(i) & 0xff : 0;
    }
}
