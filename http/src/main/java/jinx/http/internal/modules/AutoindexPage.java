package jinx.http.internal.modules;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

import jinx.http.internal.log.LogEscape;
import jinx.http.internal.variables.TimeFormats;

/**
 * The listings of {@code autoindex}: nginx's {@code ngx_http_autoindex_html()}, {@code ngx_http_autoindex_json()}
 * and {@code ngx_http_autoindex_xml()}, byte for byte. Names hold one byte per char; without a {@code charset}
 * module a name's length is its length in bytes, as nginx counts it without {@code charset utf-8}.
 */
final class AutoindexPage {

    /** nginx's {@code NGX_HTTP_AUTOINDEX_NAME_LEN}. */
    private static final int NAME_LEN = 50;
    private static final String[] MONTHS = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private AutoindexPage() {
    }

    /**
     * A directory entry: nginx's {@code ngx_http_autoindex_entry_t}.
     *
     * @param name the name, one byte per char
     * @param dir a directory (through a link)
     * @param file a regular file (through a link)
     * @param mtime the modification time, seconds since the epoch
     * @param size the size in bytes
     */
    record Entry(String name, boolean dir, boolean file, long mtime, long size) implements Comparable<Entry> {

        /** nginx's {@code ngx_http_autoindex_cmp_entries()}: directories first, then by bytes. */
        @Override
        public int compareTo(Entry o) {
            if (dir != o.dir) {
                return dir ? -1 : 1;
            }
            return name.compareTo(o.name);
        }
    }

    /**
     * The HTML listing.
     *
     * @param uri the request's URI
     * @param entries the sorted entries
     * @param exactSize {@code autoindex_exact_size}
     * @param gmtoff the offset to add to times, in seconds ({@code autoindex_localtime}), else 0
     * @return the page
     */
    static String html(String uri, List<Entry> entries, boolean exactSize, long gmtoff) {
        String euri = escapeHtml(uri);
        StringBuilder b = new StringBuilder(256 + entries.size() * 120);
        b.append("<html>\r\n<head><title>Index of ").append(euri).append("</title></head>\r\n")
            .append("<body>\r\n<h1>Index of ").append(euri).append("</h1>")
            .append("<hr><pre><a href=\"../\">../</a>\r\n");
        for (Entry e : entries) {
            b.append("<a href=\"");
            escapeUriComponent(b, e.name);
            if (e.dir) {
                b.append('/');
            }
            b.append("\">");
            int len = e.name.length();
            if (len > NAME_LEN) {
                b.append(escapeHtml(e.name.substring(0, NAME_LEN - 3))).append("..&gt;</a>");
            } else {
                b.append(escapeHtml(e.name));
                if (e.dir && NAME_LEN - len > 0) {
                    b.append('/');
                    len++;
                }
                b.append("</a>");
                b.append(" ".repeat(Math.max(0, NAME_LEN - len)));
            }
            b.append(' ');
            LocalDateTime t = LocalDateTime.ofEpochSecond(e.mtime + gmtoff, 0, ZoneOffset.UTC);
            pad2(b, t.getDayOfMonth()).append('-').append(MONTHS[t.getMonthValue() - 1]).append('-')
                .append(t.getYear()).append(' ');
            pad2(b, t.getHour()).append(':');
            pad2(b, t.getMinute()).append(' ');
            size(b, e, exactSize);
            b.append("\r\n");
        }
        return b.append("</pre><hr></body>\r\n</html>\r\n").toString();
    }

    private static void size(StringBuilder b, Entry e, boolean exact) {
        if (exact) {
            b.append(e.dir ? "                  -" : pad(Long.toString(e.size), 19));
            return;
        }
        if (e.dir) {
            b.append("      -");
            return;
        }
        long length = e.size;
        long size;
        char scale;
        if (length > 1024L * 1024 * 1024 - 1) {
            size = length / (1024L * 1024 * 1024) + (length % (1024L * 1024 * 1024) > 1024L * 1024 * 1024 / 2 - 1
                ? 1 : 0);
            scale = 'G';
        } else if (length > 1024 * 1024 - 1) {
            size = length / (1024 * 1024) + (length % (1024 * 1024) > 1024 * 1024 / 2 - 1 ? 1 : 0);
            scale = 'M';
        } else if (length > 9999) {
            size = length / 1024 + (length % 1024 > 511 ? 1 : 0);
            scale = 'K';
        } else {
            b.append(' ').append(pad(Long.toString(length), 6));
            return;
        }
        b.append(pad(Long.toString(size), 6)).append(scale);
    }

    /**
     * The JSON listing, or the JSONP one with a callback.
     *
     * @param entries the sorted entries
     * @param callback the callback's name, or null
     * @return the text
     */
    static String json(List<Entry> entries, String callback) {
        StringBuilder b = new StringBuilder(64 + entries.size() * 100);
        if (callback != null) {
            b.append("/* callback */\r\n").append(callback).append('(');
        }
        b.append('[');
        for (Entry e : entries) {
            b.append("\r\n{ \"name\":\"");
            LogEscape.escapeJson(b, e.name);
            b.append("\", \"type\":\"").append(type(e)).append("\", \"mtime\":\"")
                .append(TimeFormats.http(e.mtime));
            if (e.file) {
                b.append("\", \"size\":").append(e.size);
            } else {
                b.append('"');
            }
            b.append(" },");
        }
        if (!entries.isEmpty()) {
            b.setLength(b.length() - 1);
        }
        b.append("\r\n]");
        if (callback != null) {
            b.append(");");
        }
        return b.toString();
    }

    /**
     * The XML listing.
     *
     * @param entries the sorted entries
     * @return the text
     */
    static String xml(List<Entry> entries) {
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\r\n<list>\r\n");
        for (Entry e : entries) {
            String type = type(e);
            LocalDateTime t = LocalDateTime.ofEpochSecond(e.mtime, 0, ZoneOffset.UTC);
            b.append('<').append(type).append(" mtime=\"").append(pad(Integer.toString(t.getYear()), 4)).append('-');
            pad2(b, t.getMonthValue()).append('-');
            pad2(b, t.getDayOfMonth()).append('T');
            pad2(b, t.getHour()).append(':');
            pad2(b, t.getMinute()).append(':');
            pad2(b, t.getSecond()).append('Z');
            if (e.file) {
                b.append("\" size=\"").append(e.size);
            }
            b.append("\">").append(escapeHtml(e.name)).append("</").append(type).append(">\r\n");
        }
        return b.append("</list>\r\n").toString();
    }

    private static String type(Entry e) {
        return e.dir ? "directory" : e.file ? "file" : "other";
    }

    private static StringBuilder pad2(StringBuilder b, int v) {
        return b.append(v < 10 ? "0" : "").append(v);
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }

    /** nginx's {@code ngx_escape_html()}: {@code < > & "}. */
    static String escapeHtml(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String r = switch (c) {
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '&' -> "&amp;";
                case '"' -> "&quot;";
                default -> null;
            };
            if (r != null && b == null) {
                b = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (b != null) {
                if (r != null) {
                    b.append(r);
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? s : b.toString();
    }

    /** nginx's {@code ngx_escape_uri(NGX_ESCAPE_URI_COMPONENT)}: all but letters, digits and {@code -._~}. */
    static void escapeUriComponent(StringBuilder b, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-'
                || c == '.' || c == '_' || c == '~';
            if (plain) {
                b.append(c);
            } else {
                b.append('%').append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
            }
        }
    }
}
