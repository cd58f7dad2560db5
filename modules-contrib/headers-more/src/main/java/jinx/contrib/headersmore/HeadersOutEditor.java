package jinx.contrib.headersmore;

import java.util.Locale;

import jinx.http.HeadersOut;
import jinx.http.HttpHeaders;

/**
 * Sets and clears one header of a response, the built-in ones in their own fields:
 * {@code ngx_http_headers_more_set_header_in()}'s table for the output headers.
 */
final class HeadersOutEditor {

    private HeadersOutEditor() {
    }

    /**
     * Sets {@code name} to {@code value}, replacing every line of that name; an empty value clears.
     *
     * @param h the response headers
     * @param name the name
     * @param value the value
     */
    static void set(HeadersOut h, String name, String value) {
        if (value.isEmpty()) {
            clear(h, name);
            return;
        }
        String lc = name.toLowerCase(Locale.ROOT);
        switch (lc) {
            case "content-type" -> {
                h.contentType = value;
                h.charset = null;
            }
            case "content-length" -> {
                try {
                    h.contentLengthN = Long.parseLong(value.trim());
                } catch (NumberFormatException e) {
                    // nginx's headers-more leaves an invalid length as it was
                }
            }
            case "server" -> h.server = new HttpHeaders.Entry(name, value);
            case "last-modified" -> {
                h.lastModifiedTime = -1;
                replace(h, name, value);
            }
            default -> replace(h, name, value);
        }
        repoint(h);
    }

    /**
     * Clears {@code name}, or every header whose name starts with it when it ends with {@code *}.
     *
     * @param h the response headers
     * @param name the name, perhaps with a trailing {@code *}
     */
    static void clear(HeadersOut h, String name) {
        String lc = name.toLowerCase(Locale.ROOT);
        boolean wildcard = lc.endsWith("*");
        String prefix = wildcard ? lc.substring(0, lc.length() - 1) : lc;
        if (matches("content-type", prefix, wildcard)) {
            h.contentType = null;
            h.charset = null;
        }
        if (matches("content-length", prefix, wildcard)) {
            h.contentLengthN = -1;
        }
        if (matches("last-modified", prefix, wildcard)) {
            h.lastModifiedTime = -1;
        }
        if (matches("server", prefix, wildcard)) {
            HttpHeaders.Entry none = new HttpHeaders.Entry("Server", "");
            none.removed = true;
            h.server = none;
        }
        if (matches("location", prefix, wildcard) && h.location != null) {
            h.location.removed = true;
        }
        for (HttpHeaders.Entry e : h.headers.entries()) {
            if (matches(e.lowcaseName, prefix, wildcard)) {
                e.removed = true;
            }
        }
        repoint(h);
    }

    private static boolean matches(String lowcaseName, String prefix, boolean wildcard) {
        return wildcard ? lowcaseName.startsWith(prefix) : lowcaseName.equals(prefix);
    }

    private static void replace(HeadersOut h, String name, String value) {
        if (name.equalsIgnoreCase("location") && h.location != null) {
            h.location.removed = true;
        }
        h.headers.remove(name);
        HttpHeaders.Entry e = h.headers.add(name, value);
        if (name.equalsIgnoreCase("location")) {
            h.location = e;
        }
    }

    /** The fields that point at lines follow the lines: a removed line's field points at its successor or null. */
    private static void repoint(HeadersOut h) {
        h.etag = current(h, h.etag, "etag");
        h.contentEncoding = current(h, h.contentEncoding, "content-encoding");
        h.acceptRanges = current(h, h.acceptRanges, "accept-ranges");
        h.contentRange = current(h, h.contentRange, "content-range");
        h.expires = current(h, h.expires, "expires");
        h.cacheControl = current(h, h.cacheControl, "cache-control");
        h.wwwAuthenticate = current(h, h.wwwAuthenticate, "www-authenticate");
        if (h.location != null && h.location.removed) {
            h.location = h.headers.entry("location");
        }
    }

    private static HttpHeaders.Entry current(HeadersOut h, HttpHeaders.Entry field, String lowcaseName) {
        if (field != null && !field.removed) {
            return field;
        }
        return h.headers.entry(lowcaseName);
    }
}
