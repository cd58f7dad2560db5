package jinx.http.internal.log;

import java.nio.charset.StandardCharsets;

/**
 * How {@code log_format} writes variable values, its {@code escape=} parameter: nginx's
 * {@code ngx_http_log_escape()} ({@code default}), {@code ngx_escape_json()} ({@code json}) or as is
 * ({@code none}). Values hold one byte per char.
 */
public enum LogEscape {

    /** {@code "}, {@code \}, bytes below 0x20 and from 0x7f up as {@code \xHH}; a value not found as {@code -}. */
    DEFAULT,
    /** JSON string escapes; a value not found as nothing. */
    JSON,
    /** No escaping; a value not found as nothing. */
    NONE;

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /**
     * Appends a value.
     *
     * @param b where to append
     * @param value the value, or null when not found
     */
    void append(StringBuilder b, String value) {
        if (value == null) {
            if (this == DEFAULT) {
                b.append('-');
            }
            return;
        }
        switch (this) {
            case DEFAULT -> escapeDefault(b, value);
            case JSON -> escapeJson(b, value);
            default -> b.append(value);
        }
    }

    /**
     * nginx's {@code ngx_http_log_escape()}.
     *
     * @param b where to append
     * @param value the value
     */
    static void escapeDefault(StringBuilder b, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c > 0xff) {
                // not one byte per char: escape the character's UTF-8 bytes, which are all from 0x80 up
                for (byte x : String.valueOf(c).getBytes(StandardCharsets.UTF_8)) {
                    hex(b, x & 0xff);
                }
            } else if (c < 0x20 || c == '"' || c == '\\' || c >= 0x7f) {
                hex(b, c);
            } else {
                b.append(c);
            }
        }
    }

    private static void hex(StringBuilder b, int c) {
        b.append('\\').append('x').append(HEX[c >> 4]).append(HEX[c & 0xf]);
    }

    /**
     * nginx's {@code ngx_escape_json()}: {@code \"}, {@code \\}, {@code \n} {@code \r} {@code \t} {@code \b}
     * {@code \f}, other bytes below 0x20 as <code>&#92;u00XX</code>; the rest as is.
     *
     * @param b where to append
     * @param value the value
     */
    public static void escapeJson(StringBuilder b, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c > 0x1f) {
                if (c == '\\' || c == '"') {
                    b.append('\\');
                }
                b.append(c);
                continue;
            }
            b.append('\\');
            switch (c) {
                case '\n' -> b.append('n');
                case '\r' -> b.append('r');
                case '\t' -> b.append('t');
                case '\b' -> b.append('b');
                case '\f' -> b.append('f');
                default -> b.append("u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
    }
}
