package jinx.http.internal.parse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import jinx.http.HttpRequest;

import static jinx.http.internal.parse.UriChars.at;

/**
 * The request methods nginx knows by name ({@code sw_method} of {@code ngx_http_parse_request_line()}), and the
 * bytes a method may hold.
 */
final class Methods {

    /** The methods, with their bits below; nginx compares them by length, then byte for byte. */
    private static final String[] NAMES = {
        "GET", "PUT", "POST", "COPY", "MOVE", "LOCK", "HEAD", "MKCOL", "PATCH", "TRACE", "DELETE", "UNLOCK",
        "OPTIONS", "CONNECT", "PROPFIND", "PROPPATCH",
    };
    private static final int[] BITS = {
        HttpRequest.GET, HttpRequest.PUT, HttpRequest.POST, HttpRequest.COPY, HttpRequest.MOVE, HttpRequest.LOCK,
        HttpRequest.HEAD, HttpRequest.MKCOL, HttpRequest.PATCH, HttpRequest.TRACE, HttpRequest.DELETE,
        HttpRequest.UNLOCK, HttpRequest.OPTIONS, HttpRequest.CONNECT, HttpRequest.PROPFIND, HttpRequest.PROPPATCH,
    };

    /** The names' bytes: compared without a {@code String}'s coder checks on every request. */
    private static final byte[][] BYTES = new byte[NAMES.length][];

    static {
        for (int i = 0; i < NAMES.length; i++) {
            BYTES[i] = NAMES[i].getBytes(StandardCharsets.US_ASCII);
        }
    }

    private Methods() {
    }

    /**
     * Tells whether a byte may be part of a method: upper-case letters, {@code _} and {@code -}.
     *
     * @param ch the byte
     * @return true when it may
     */
    static boolean methodChar(int ch) {
        return (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '-';
    }

    /**
     * Returns the bit of the method in the buffer.
     *
     * @param b the buffer
     * @param m the method's first byte
     * @param len its length
     * @return its bit, {@link HttpRequest#GET} ..., or {@link HttpRequest#UNKNOWN}
     */
    static int bit(ByteBuffer b, int m, int len) {
        for (int i = 0; i < BYTES.length; i++) {
            if (BYTES[i].length == len && equals(b, m, BYTES[i])) {
                return BITS[i];
            }
        }
        return HttpRequest.UNKNOWN;
    }

    /**
     * Returns the name of a method's bit: the bytes {@link #bit} matched, so the request's own method name.
     *
     * @param bit a bit {@link #bit} returned
     * @return the name, or null for {@link HttpRequest#UNKNOWN}
     */
    static String name(int bit) {
        for (int i = 0; i < BITS.length; i++) {
            if (BITS[i] == bit) {
                return NAMES[i];
            }
        }
        return null;
    }

    private static boolean equals(ByteBuffer b, int m, byte[] name) {
        for (int i = 0; i < name.length; i++) {
            if (at(b, m + i) != name[i]) {
                return false;
            }
        }
        return true;
    }
}
