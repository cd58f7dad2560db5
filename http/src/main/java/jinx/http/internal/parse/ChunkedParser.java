package jinx.http.internal.parse;

import java.nio.ByteBuffer;

import jinx.kernel.Rc;

import static jinx.http.internal.parse.UriChars.CR;
import static jinx.http.internal.parse.UriChars.LF;
import static jinx.http.internal.parse.UriChars.at;

/**
 * A chunked body: nginx's {@code ngx_http_parse_chunked()}, as in current nginx, which is stricter than older
 * releases such as 1.22: every line ends in CRLF (a bare LF is an error), a chunk size that would not fit in an
 * {@code off_t} ({@link Long#MAX_VALUE}) is an error, and trailer lines are skipped unless they are to be kept.
 */
final class ChunkedParser {

    /** nginx's {@code sw_*} states, in its order (the ordinal is {@link ChunkedState#state}). */
    private enum State {
        CHUNK_START,
        CHUNK_SIZE,
        CHUNK_EXTENSION,
        CHUNK_EXTENSION_ALMOST_DONE,
        CHUNK_DATA,
        AFTER_DATA,
        AFTER_DATA_ALMOST_DONE,
        LAST_CHUNK_EXTENSION,
        LAST_CHUNK_EXTENSION_ALMOST_DONE,
        TRAILER,
        TRAILER_ALMOST_DONE,
        TRAILER_HEADER,
        TRAILER_HEADER_ALMOST_DONE
    }

    private static final State[] STATES = State.values();

    /** nginx's {@code NGX_MAX_OFF_T_VALUE}. */
    private static final long MAX_OFF_T_VALUE = Long.MAX_VALUE;

    private ChunkedParser() {
    }

    /**
     * nginx's {@code ngx_http_parse_chunked()}.
     *
     * @return see {@link HttpParser#parseChunked(ChunkedState, ByteBuffer, boolean)}
     */
    static int parse(ChunkedState ctx, ByteBuffer b, boolean keepTrailers) {
        State state = STATES[ctx.state];
        if (state == State.CHUNK_DATA && ctx.size == 0) {
            state = State.AFTER_DATA;
        }

        int rc = Rc.AGAIN;
        int last = b.limit();
        int pos = b.position();

        scan:
        for (; pos < last; pos++) {
            int ch = at(b, pos);
            int c;

            switch (state) {

            case CHUNK_START:
                c = hex(ch);
                if (c < 0) {
                    return Rc.ERROR;
                }
                state = State.CHUNK_SIZE;
                ctx.size = c;
                break;

            case CHUNK_SIZE:
                if (ctx.size > MAX_OFF_T_VALUE / 16) {
                    return Rc.ERROR;
                }
                c = hex(ch);
                if (c >= 0) {
                    ctx.size = ctx.size * 16 + c;
                    break;
                }
                if (ch == CR) {
                    state = ctx.size == 0 ? State.LAST_CHUNK_EXTENSION_ALMOST_DONE : State.CHUNK_EXTENSION_ALMOST_DONE;
                    break;
                }
                if (ch == ';' || ch == ' ' || ch == '\t') {
                    state = ctx.size == 0 ? State.LAST_CHUNK_EXTENSION : State.CHUNK_EXTENSION;
                    break;
                }
                return Rc.ERROR;

            case CHUNK_EXTENSION:
                if (ch == CR) {
                    state = State.CHUNK_EXTENSION_ALMOST_DONE;
                } else if (ch == LF) {
                    return Rc.ERROR;
                }
                break;

            case CHUNK_EXTENSION_ALMOST_DONE:
                if (ch != LF) {
                    return Rc.ERROR;
                }
                state = State.CHUNK_DATA;
                break;

            case CHUNK_DATA:
                rc = Rc.OK;
                break scan;

            case AFTER_DATA:
                if (ch != CR) {
                    return Rc.ERROR;
                }
                state = State.AFTER_DATA_ALMOST_DONE;
                break;

            case AFTER_DATA_ALMOST_DONE:
                if (ch != LF) {
                    return Rc.ERROR;
                }
                state = State.CHUNK_START;
                break;

            case LAST_CHUNK_EXTENSION:
                if (ch == CR) {
                    state = State.LAST_CHUNK_EXTENSION_ALMOST_DONE;
                } else if (ch == LF) {
                    return Rc.ERROR;
                }
                break;

            case LAST_CHUNK_EXTENSION_ALMOST_DONE:
                if (ch != LF) {
                    return Rc.ERROR;
                }
                if (keepTrailers) {
                    return done(ctx, b, pos);
                }
                state = State.TRAILER;
                break;

            case TRAILER:
                if (ch == CR) {
                    state = State.TRAILER_ALMOST_DONE;
                } else if (ch == LF) {
                    return Rc.ERROR;
                } else {
                    state = State.TRAILER_HEADER;
                }
                break;

            case TRAILER_ALMOST_DONE:
                if (ch != LF) {
                    return Rc.ERROR;
                }
                return done(ctx, b, pos);

            case TRAILER_HEADER:
                if (ch == CR) {
                    state = State.TRAILER_HEADER_ALMOST_DONE;
                } else if (ch == LF) {
                    return Rc.ERROR;
                }
                break;

            case TRAILER_HEADER_ALMOST_DONE:
                if (ch != LF) {
                    return Rc.ERROR;
                }
                state = State.TRAILER;
                break;

            default:
                throw new IllegalStateException(state.name());
            }
        }

        // nginx's data: label
        ctx.state = state.ordinal();
        b.position(pos);

        if (ctx.size > MAX_OFF_T_VALUE - 5) {
            return Rc.ERROR;
        }
        ctx.length = length(state, ctx.size);
        return rc;
    }

    /** The fewest bytes still to come in each state, as nginx counts them. */
    private static long length(State state, long size) {
        switch (state) {
        case CHUNK_START:
            return 5; // "0" CRLF CRLF
        case CHUNK_SIZE:
            return size != 0 ? plus(size, 2 + 7) : 2 + 2; // CRLF, then the data and CRLF "0" CRLF CRLF, or CRLF
        case CHUNK_EXTENSION:
            return plus(size, 2 + 7); // CRLF, data, CRLF "0" CRLF CRLF
        case CHUNK_EXTENSION_ALMOST_DONE:
            return plus(size, 1 + 7); // LF, data, CRLF "0" CRLF CRLF
        case CHUNK_DATA:
            return plus(size, 7); // data, CRLF "0" CRLF CRLF
        case AFTER_DATA:
            return 7; // CRLF "0" CRLF CRLF
        case AFTER_DATA_ALMOST_DONE:
            return 6; // LF "0" CRLF CRLF
        case LAST_CHUNK_EXTENSION:
        case TRAILER_HEADER:
            return 4; // CRLF CRLF
        case LAST_CHUNK_EXTENSION_ALMOST_DONE:
        case TRAILER_HEADER_ALMOST_DONE:
            return 3; // LF CRLF
        case TRAILER:
            return 2; // CRLF
        case TRAILER_ALMOST_DONE:
            return 1; // LF
        default:
            throw new IllegalStateException(state.name());
        }
    }

    /**
     * {@code size + n}, held at {@link Long#MAX_VALUE}: nginx lets {@code off_t} overflow here for a size within 9
     * of the maximum (undefined in C); Jinx keeps such a length huge rather than negative.
     */
    private static long plus(long size, int n) {
        return size > MAX_OFF_T_VALUE - n ? MAX_OFF_T_VALUE : size + n;
    }

    /** nginx's {@code done:} label. */
    private static int done(ChunkedState ctx, ByteBuffer b, int pos) {
        ctx.state = State.CHUNK_START.ordinal();
        b.position(pos + 1);
        return Rc.DONE;
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
}
