package jinx.http.internal.modules;

/**
 * The escaping the rewrite module needs, from nginx's {@code src/core/ngx_string.c}: {@code ngx_escape_uri()} with
 * {@code NGX_ESCAPE_ARGS} and {@code ngx_unescape_uri()} with {@code NGX_UNESCAPE_REDIRECT}. Strings hold one byte
 * per char.
 */
final class UriEscape {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /** nginx's {@code args} table: space, {@code # % & + ; ?}, the controls and 0x7f up are escaped. */
    private static final int[] ARGS = {
        0xffffffff,
        0x88000869,
        0x00000000,
        0x80000000,
        0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff
    };

    private UriEscape() {
    }

    /**
     * Appends {@code s} escaped as nginx's {@code NGX_ESCAPE_ARGS}.
     *
     * @param to where to append
     * @param s the text
     */
    static void escapeArgs(StringBuilder to, String s) {
        for (int i = 0; i < s.length(); i++) {
            int ch = s.charAt(i) & 0xff;
            if ((ARGS[ch >>> 5] & (1 << (ch & 0x1f))) != 0) {
                to.append('%').append(HEX[ch >>> 4]).append(HEX[ch & 0xf]);
            } else {
                to.append((char) ch);
            }
        }
    }

    /**
     * nginx's {@code ngx_unescape_uri(..., NGX_UNESCAPE_REDIRECT)} over a whole redirect: {@code %XX} is decoded
     * when it gives a printable character above {@code %}, up to the first {@code ?} (plain or decoded); what
     * follows is kept as it is. An invalid escape loses its {@code %} (and its first digit), as in nginx.
     *
     * @param s the redirect
     * @return the unescaped redirect
     */
    static String unescapeRedirect(String s) {
        StringBuilder d = new StringBuilder(s.length());
        int state = 0;
        int decoded = 0;
        int i = 0;
        while (i < s.length()) {
            char ch = s.charAt(i++);
            if (state == 0) {
                if (ch == '?') {
                    d.append(ch);
                    break;
                }
                if (ch == '%') {
                    state = 1;
                } else {
                    d.append(ch);
                }
                continue;
            }
            int digit = hex(ch);
            if (state == 1) {
                if (digit >= 0) {
                    decoded = digit;
                    state = 2;
                } else {
                    // the invalid quoted character
                    state = 0;
                    d.append(ch);
                }
                continue;
            }
            state = 0;
            if (digit < 0) {
                // the invalid quoted character
                continue;
            }
            int c = (decoded << 4) + digit;
            if (ch > '9' && c == '?') {
                d.append('?');
                break;
            }
            if (c > '%' && c < 0x7f) {
                d.append((char) c);
            } else {
                d.append('%').append(s.charAt(i - 2)).append(ch);
            }
        }
        return d.append(s, i, s.length()).toString();
    }

    private static int hex(char ch) {
        if (ch >= '0' && ch <= '9') {
            return ch - '0';
        }
        char c = (char) (ch | 0x20);
        return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    }
}
