package jinx.http.internal.parse;

import java.nio.ByteBuffer;

import jinx.kernel.Rc;

import static jinx.http.internal.parse.HttpParseState.NONE;
import static jinx.http.internal.parse.UriChars.at;
import static jinx.http.internal.parse.UriChars.usual;

/**
 * A URI given on its own rather than in a request line (HTTP/2's {@code :path}, a subrequest's URI): nginx's
 * {@code ngx_http_parse_uri()}, which sets the same flags as the request-line parser and refuses controls,
 * spaces and DEL.
 */
final class UriParser {

    /** nginx's {@code sw_*} states, in its order. */
    private enum State {
        START,
        AFTER_SLASH_IN_URI,
        CHECK_URI,
        URI
    }

    private UriParser() {
    }

    /**
     * nginx's {@code ngx_http_parse_uri()} over {@code uriStart..uriEnd}.
     *
     * @return see {@link HttpParser#parseUri}
     */
    static int parse(HttpParseState r, ByteBuffer b) {
        State state = State.START;

        for (int p = r.uriStart; p != r.uriEnd; p++) {
            int ch = at(b, p);

            switch (state) {

            case START:
                if (ch != '/') {
                    return Rc.ERROR;
                }
                state = State.AFTER_SLASH_IN_URI;
                break;

            // check "/.", "//", "%" in URI
            case AFTER_SLASH_IN_URI:
                if (usual(ch)) {
                    state = State.CHECK_URI;
                    break;
                }
                switch (ch) {
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
                    if (ch <= 0x20 || ch == 0x7f) {
                        return Rc.ERROR;
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
                    if (ch <= 0x20 || ch == 0x7f) {
                        return Rc.ERROR;
                    }
                    break;
                }
                break;

            case URI:
                if (usual(ch)) {
                    break;
                }
                if (ch == '#') {
                    r.complexUri = true;
                    break;
                }
                if (ch <= 0x20 || ch == 0x7f) {
                    return Rc.ERROR;
                }
                break;

            default:
                throw new IllegalStateException(state.name());
            }
        }

        return Rc.OK;
    }
}
