package jinx.http.internal.parse;

import java.nio.ByteBuffer;

import jinx.kernel.Rc;

import static jinx.http.internal.parse.UriChars.CR;
import static jinx.http.internal.parse.UriChars.LF;
import static jinx.http.internal.parse.UriChars.at;
import static jinx.http.internal.parse.UriChars.base;

/**
 * A header line: nginx's {@code ngx_http_parse_header_line()}, as in current nginx: a NUL anywhere, a control or
 * space in the name and a line that starts with a space or tab (obsolete line folding) are invalid; a lone CR
 * must be followed by LF; a bare LF ends a line; spaces around the value are not
 * part of it, tabs are (as in released nginx).
 */
final class HeaderLineParser {

    /** nginx's {@code sw_*} states, in its order (the ordinal is {@link HttpParseState#state}). */
    private enum State {
        START,
        NAME,
        SPACE_BEFORE_VALUE,
        VALUE,
        SPACE_AFTER_VALUE,
        IGNORE_LINE,
        ALMOST_DONE,
        HEADER_ALMOST_DONE
    }

    private static final State[] STATES = State.values();

    /** nginx's {@code lowcase[]}: letters lower-cased, digits and '-' kept, every other byte 0. */
    static final byte[] LOWCASE = new byte[256];

    static {
        LOWCASE['-'] = '-';
        for (int c = '0'; c <= '9'; c++) {
            LOWCASE[c] = (byte) c;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            LOWCASE[c] = (byte) c;
            LOWCASE[c - 0x20] = (byte) c;
        }
    }

    private HeaderLineParser() {
    }

    /** nginx's {@code ngx_hash(key, c)}: {@code key * 31 + c}, in 64 bits. */
    private static long hash(long key, int c) {
        return key * 31 + c;
    }

    /**
     * Parses one header line, nginx's {@code ngx_http_parse_header_line()}.
     *
     * @param r the state
     * @param b the buffer
     * @param allowUnderscores {@code underscores_in_headers}
     * @return see {@link HttpParser#parseHeaderLine}
     */
    static int parse(HttpParseState r, ByteBuffer b, boolean allowUnderscores) {
        r.valueHashEnd = HttpParseState.NONE;
        if (r.state == State.START.ordinal()) {
            int rc = PlainHeaderLine.parse(r, b, base(b));
            if (rc != PlainHeaderLine.NOT_PLAIN) {
                return rc;
            }
        }
        return machine(r, b, allowUnderscores);
    }

    /**
     * The state machine alone, for every line {@link PlainHeaderLine} leaves to it (and for the test that compares
     * the two).
     *
     * @param r the state
     * @param b the buffer
     * @param allowUnderscores {@code underscores_in_headers}
     * @return see {@link HttpParser#parseHeaderLine}
     */
    static int machine(HttpParseState r, ByteBuffer b, boolean allowUnderscores) {
        State state = STATES[r.state];
        long hash = r.headerHash;
        int i = r.lowcaseIndex;
        int last = b.limit();
        int p = b.position();
        long base = base(b);

        for (; p < last; p++) {
            int ch = at(b, base, p);
            int c;

            switch (state) {

            // first char
            case START:
                r.headerNameStart = p;
                r.invalidHeader = false;
                if (ch == CR) {
                    r.headerEnd = p;
                    state = State.HEADER_ALMOST_DONE;
                    break;
                }
                if (ch == LF) {
                    r.headerEnd = p;
                    return headerDone(r, b, p);
                }
                state = State.NAME;
                c = LOWCASE[ch];
                if (c != 0) {
                    hash = hash(0, c);
                    r.lowcaseHeader[0] = (byte) c;
                    i = 1;
                    break;
                }
                if (ch == '_') {
                    if (allowUnderscores) {
                        hash = hash(0, ch);
                        r.lowcaseHeader[0] = (byte) ch;
                        i = 1;
                    } else {
                        hash = 0;
                        i = 0;
                        r.invalidHeader = true;
                    }
                    break;
                }
                if (ch <= 0x20 || ch == 0x7f || ch == ':') {
                    r.headerEnd = p;
                    return HttpParser.PARSE_INVALID_HEADER;
                }
                hash = 0;
                i = 0;
                r.invalidHeader = true;
                break;

            // header name
            case NAME:
                c = LOWCASE[ch];
                if (c != 0) {
                    hash = hash(hash, c);
                    r.lowcaseHeader[i++] = (byte) c;
                    i &= HttpParser.LC_HEADER_LEN - 1;
                    break;
                }
                if (ch == '_') {
                    if (allowUnderscores) {
                        hash = hash(hash, ch);
                        r.lowcaseHeader[i++] = (byte) ch;
                        i &= HttpParser.LC_HEADER_LEN - 1;
                    } else {
                        r.invalidHeader = true;
                    }
                    break;
                }
                if (ch == ':') {
                    r.headerNameEnd = p;
                    state = State.SPACE_BEFORE_VALUE;
                    break;
                }
                if (ch == CR || ch == LF) {
                    // a name without a colon: nginx takes it as a header with an empty value
                    r.headerNameEnd = p;
                    r.headerStart = p;
                    r.headerEnd = p;
                    if (ch == LF) {
                        return done(r, b, p, hash, i);
                    }
                    state = State.ALMOST_DONE;
                    break;
                }
                // IIS may send the duplicate "HTTP/1.1 ..." lines
                if (ch == '/' && r.upstream && p - r.headerNameStart == 4 && isHttp(b, r.headerNameStart)) {
                    state = State.IGNORE_LINE;
                    break;
                }
                if (ch <= 0x20 || ch == 0x7f) {
                    r.headerEnd = p;
                    return HttpParser.PARSE_INVALID_HEADER;
                }
                r.invalidHeader = true;
                break;

            // space* before header value: SP only, as released nginx does (Debian's 1.22, 1.27.2 in nginx issue
            // #187); a tab starts the value, so "Transfer-Encoding:\tchunked" is not chunked there and must not be
            // here: a difference in framing is a smuggling hole behind another proxy (issue #36)
            case SPACE_BEFORE_VALUE:
                switch (ch) {
                case ' ':
                    break;
                case CR:
                    r.headerStart = p;
                    r.headerEnd = p;
                    state = State.ALMOST_DONE;
                    break;
                case LF:
                    r.headerStart = p;
                    r.headerEnd = p;
                    return done(r, b, p, hash, i);
                case '\0':
                    r.headerEnd = p;
                    return HttpParser.PARSE_INVALID_HEADER;
                default:
                    r.headerStart = p;
                    state = State.VALUE;
                    break;
                }
                break;

            // header value
            case VALUE:
                switch (ch) {
                case ' ':
                    r.headerEnd = p;
                    state = State.SPACE_AFTER_VALUE;
                    break;
                case CR:
                    r.headerEnd = p;
                    state = State.ALMOST_DONE;
                    break;
                case LF:
                    r.headerEnd = p;
                    return done(r, b, p, hash, i);
                case '\0':
                    r.headerEnd = p;
                    return HttpParser.PARSE_INVALID_HEADER;
                default:
                    break;
                }
                break;

            // space* before end of header line
            case SPACE_AFTER_VALUE:
                switch (ch) {
                case ' ':
                    break;
                case CR:
                    state = State.ALMOST_DONE;
                    break;
                case LF:
                    return done(r, b, p, hash, i);
                case '\0':
                    r.headerEnd = p;
                    return HttpParser.PARSE_INVALID_HEADER;
                default:
                    state = State.VALUE;
                    break;
                }
                break;

            // ignore header line
            case IGNORE_LINE:
                if (ch == LF) {
                    state = State.START;
                }
                break;

            // end of header line: CRs may repeat, anything but LF after them is invalid (no CR inside a value)
            case ALMOST_DONE:
                if (ch == LF) {
                    return done(r, b, p, hash, i);
                }
                if (ch != CR) {
                    return HttpParser.PARSE_INVALID_HEADER;
                }
                break;

            // end of header
            case HEADER_ALMOST_DONE:
                if (ch != LF) {
                    return HttpParser.PARSE_INVALID_HEADER;
                }
                return headerDone(r, b, p);

            default:
                throw new IllegalStateException(state.name());
            }
        }

        b.position(p);
        r.state = state.ordinal();
        r.headerHash = hash;
        r.lowcaseIndex = i;
        return Rc.AGAIN;
    }

    /** nginx's {@code done:} label: {@code p} is the LF's index. */
    static int done(HttpParseState r, ByteBuffer b, int p, long hash, int i) {
        b.position(p + 1);
        r.state = State.START.ordinal();
        r.headerHash = hash;
        r.lowcaseIndex = i;
        return Rc.OK;
    }

    /** nginx's {@code header_done:} label: {@code p} is the LF's index. */
    static int headerDone(HttpParseState r, ByteBuffer b, int p) {
        b.position(p + 1);
        r.state = State.START.ordinal();
        return HttpParser.PARSE_HEADER_DONE;
    }

    private static boolean isHttp(ByteBuffer b, int p) {
        return at(b, p) == 'H' && at(b, p + 1) == 'T' && at(b, p + 2) == 'T' && at(b, p + 3) == 'P';
    }
}
