package jinx.http.internal.parse;

import java.nio.ByteBuffer;

import jinx.kernel.os.NativeMemory;

/**
 * The byte classes the URI parsers share: nginx's {@code usual[]} bitmap of {@code ngx_http_parse.c}, and the
 * byte constants.
 */
final class UriChars {

    /** Carriage return. */
    static final int CR = '\r';
    /** Line feed. */
    static final int LF = '\n';

    /*
     * Bytes that need no second look in a URI: all but the controls, space, '#', '%', '+', '.', '/', '?' and DEL;
     * every byte from 0x80 up is usual. nginx's usual[] for Unix (on Win32 the backslash is not usual).
     */
    private static final int[] USUAL = {
        0x00000000, // 0000 0000 0000 0000  0000 0000 0000 0000
        0x7fff37d6, // ?>=< ;:98 7654 3210  /.-, +*)( '&%$ #"!
        0xffffffff, // _^]\ [ZYX WVUT SRQP  ONML KJIH GFED CBA@
        0x7fffffff, //  ~}| {zyx wvut srqp  onml kjih gfed cba`
        0xffffffff,
        0xffffffff,
        0xffffffff,
        0xffffffff,
    };

    private UriChars() {
    }

    /**
     * Tells whether a byte is in nginx's {@code usual[]}.
     *
     * @param ch the byte, 0 to 255 (a char above 255 counts as usual)
     * @return true when usual
     */
    static boolean usual(int ch) {
        return ch > 0xff || (USUAL[ch >> 5] & (1 << (ch & 0x1f))) != 0;
    }

    /**
     * Reads an unsigned byte at an absolute index.
     *
     * @param b the buffer
     * @param i the index
     * @return the byte, 0 to 255
     */
    static int at(ByteBuffer b, int i) {
        return b.get(i) & 0xff;
    }

    /**
     * Reads an unsigned byte where the parsers read it: a direct buffer (the loop's header buffers) at its address,
     * since {@code ByteBuffer.get(int)} checks the index and the buffer's scope on every byte and the parsers keep
     * the index below the limit themselves; a heap buffer through {@code get}.
     *
     * @param b the buffer
     * @param base {@link #base(ByteBuffer)} of the buffer
     * @param i the index, below the limit
     * @return the byte, 0 to 255
     */
    static int at(ByteBuffer b, long base, int i) {
        return base != 0 ? NativeMemory.getByte(base + i) & 0xff : b.get(i) & 0xff;
    }

    /**
     * The address {@link #at(ByteBuffer, long, int)} reads a direct buffer at, 0 for a heap buffer.
     *
     * @param b the buffer
     * @return the address or 0
     */
    static long base(ByteBuffer b) {
        return b.isDirect() ? NativeMemory.address(b) : 0;
    }

    /**
     * Lower-cases an ASCII letter, nginx's {@code ngx_tolower()}.
     *
     * @param c the byte
     * @return the byte, lower-cased if it was A to Z
     */
    static int lower(int c) {
        return c >= 'A' && c <= 'Z' ? c | 0x20 : c;
    }

    /**
     * Tells whether nginx's {@code sw_host_ip_literal} accepts a byte inside {@code [...]}: ALPHA, DIGIT,
     * {@code :}, {@code ]}, unreserved and sub-delims (RFC 3986's IP-literal, loosely).
     *
     * @param ch the byte
     * @return true when accepted
     */
    static boolean ipLiteralChar(int ch) {
        int c = ch | 0x20;
        if ((ch >= '0' && ch <= '9') || (c >= 'a' && c <= 'z')) {
            return true;
        }
        switch (ch) {
        case ':': case ']':
        case '-': case '.': case '_': case '~':
        case '!': case '$': case '&': case '\'': case '(': case ')': case '*': case '+': case ',': case ';': case '=':
            return true;
        default:
            return false;
        }
    }
}
