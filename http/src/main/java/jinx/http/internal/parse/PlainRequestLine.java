package jinx.http.internal.parse;

import java.nio.ByteBuffer;

import jinx.http.HttpRequest;

import static jinx.http.internal.parse.HttpParseState.NONE;
import static jinx.http.internal.parse.UriChars.CR;
import static jinx.http.internal.parse.UriChars.LF;
import static jinx.http.internal.parse.UriChars.at;
import static jinx.http.internal.parse.UriChars.usual;

/**
 * The request line almost every client sends, in one pass without the state machine: a method, one space, an
 * origin-form URI the state machine would not mark complex or quoted, one space and {@code HTTP/1.0} or
 * {@code HTTP/1.1} ended by CRLF, all in the buffer. It sets exactly what {@link RequestLineParser} sets for such
 * a line; anything else (a second space, {@code %}, {@code //}, {@code /.}, {@code #}, an absolute URI, CONNECT,
 * HTTP/0.9, a bare LF, a line not read whole, an invalid byte) is left to the state machine, which starts over
 * from the same byte: nothing is written before the line is known plain. nginx has no such path; its state
 * machine is C, where one byte's {@code switch} costs a few cycles, and ours pays several times that per byte.
 */
final class PlainRequestLine {

    /** The line is not plain, or not whole: the state machine parses it. */
    static final int NOT_PLAIN = Integer.MIN_VALUE;

    /** {@code "HTTP/1."}: the protocol up to its minor digit. */
    private static final byte[] HTTP_1 = {'H', 'T', 'T', 'P', '/', '1', '.'};

    private PlainRequestLine() {
    }

    /**
     * Parses a plain request line that starts at the buffer's position.
     *
     * @param r the state, at nginx's {@code sw_start}
     * @param b the buffer
     * @param base the direct buffer's address, or 0 for a heap buffer
     * @return {@link jinx.kernel.Rc#OK} as {@link RequestLineParser} returns it (position after the LF), or
     *     {@link #NOT_PLAIN} with nothing changed
     */
    static int parse(HttpParseState r, ByteBuffer b, long base) {
        int start = b.position();
        int last = b.limit();
        int p = start;
        while (p < last && Methods.methodChar(at(b, base, p))) {
            p++;
        }
        if (p == start || p >= last || at(b, base, p) != ' ') {
            return NOT_PLAIN;
        }
        int methodEnd = p - 1;
        int method = Methods.bit(b, start, p - start);
        if (method == HttpRequest.CONNECT) {
            return NOT_PLAIN;
        }
        p++;
        if (p >= last || at(b, base, p) != '/') {
            return NOT_PLAIN;
        }
        int uriStart = p++;
        int uriExt = NONE;
        int argsStart = NONE;
        boolean plus = false;
        // nginx's sw_after_slash_in_uri: a '.' or '/' right after a '/' makes the URI complex
        boolean afterSlash = true;
        for (;; p++) {
            if (p >= last) {
                return NOT_PLAIN;
            }
            int ch = at(b, base, p);
            if (usual(ch)) {
                afterSlash = false;
                continue;
            }
            if (ch == ' ') {
                break;
            }
            if (ch == '/' && !afterSlash) {
                uriExt = NONE;
                afterSlash = true;
            } else if (ch == '.' && !afterSlash) {
                uriExt = p + 1;
            } else if (ch == '+') {
                // sw_after_slash_in_uri and sw_check_uri both stay where they are
                plus = true;
            } else if (ch == '?') {
                argsStart = p + 1;
                p = args(b, base, p + 1, last);
                if (p < 0) {
                    return NOT_PLAIN;
                }
                break;
            } else {
                return NOT_PLAIN;
            }
        }
        int uriEnd = p++;
        // "HTTP/1.x" CR LF
        if (last - p < HTTP_1.length + 3) {
            return NOT_PLAIN;
        }
        for (int i = 0; i < HTTP_1.length; i++) {
            if (at(b, base, p + i) != HTTP_1[i]) {
                return NOT_PLAIN;
            }
        }
        int minor = at(b, base, p + HTTP_1.length) - '0';
        int cr = p + HTTP_1.length + 1;
        if (minor < 0 || minor > 1 || at(b, base, cr) != CR || at(b, base, cr + 1) != LF) {
            return NOT_PLAIN;
        }
        r.requestStart = start;
        r.methodEnd = methodEnd;
        r.method = method;
        r.uriStart = uriStart;
        r.uriEnd = uriEnd;
        r.uriExt = uriExt;
        r.argsStart = argsStart;
        if (plus) {
            r.plusInUri = true;
        }
        r.httpProtocolStart = p;
        r.httpMajor = 1;
        r.httpMinor = minor;
        r.requestEnd = cr;
        return RequestLineParser.done(r, b, cr + 1);
    }

    /**
     * nginx's {@code sw_uri} after a '?': every byte but the controls goes, a space ends the URI.
     *
     * @return the index of the space, or -1 when the line is not plain ('#', a control, the buffer's end)
     */
    private static int args(ByteBuffer b, long base, int p, int last) {
        for (; p < last; p++) {
            int ch = at(b, base, p);
            if (ch == ' ') {
                return p;
            }
            if (ch == '#' || ch < 0x20 || ch == 0x7f) {
                return -1;
            }
        }
        return -1;
    }

}
