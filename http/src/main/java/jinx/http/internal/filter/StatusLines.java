package jinx.http.internal.filter;

/**
 * nginx's status lines, {@code ngx_http_status_lines[]} of {@code ngx_http_header_filter_module.c} as in current
 * nginx: its own reason phrases ({@code 302 Moved Temporarily}, {@code 405 Not Allowed}, {@code 408 Request
 * Time-out} ...), and none for the codes it leaves out, which are sent as three digits and a space.
 */
public final class StatusLines {

    private static final String[] LINES_2XX = {
        "200 OK",
        "201 Created",
        "202 Accepted",
        null, // 203 Non-Authoritative Information
        "204 No Content",
        null, // 205 Reset Content
        "206 Partial Content",
    };

    private static final String[] LINES_3XX = {
        "301 Moved Permanently",
        "302 Moved Temporarily",
        "303 See Other",
        "304 Not Modified",
        null, // 305 Use Proxy
        null, // 306 unused
        "307 Temporary Redirect",
        "308 Permanent Redirect",
    };

    private static final String[] LINES_4XX = {
        "400 Bad Request",
        "401 Unauthorized",
        "402 Payment Required",
        "403 Forbidden",
        "404 Not Found",
        "405 Not Allowed",
        "406 Not Acceptable",
        null, // 407 Proxy Authentication Required
        "408 Request Time-out",
        "409 Conflict",
        "410 Gone",
        "411 Length Required",
        "412 Precondition Failed",
        "413 Request Entity Too Large",
        "414 Request-URI Too Large",
        "415 Unsupported Media Type",
        "416 Requested Range Not Satisfiable",
        null, // 417 Expectation Failed
        null, // 418 unused
        null, // 419 unused
        null, // 420 unused
        "421 Misdirected Request",
        null, // 422 Unprocessable Entity
        null, // 423 Locked
        null, // 424 Failed Dependency
        null, // 425 unused
        null, // 426 Upgrade Required
        null, // 427 unused
        null, // 428 Precondition Required
        "429 Too Many Requests",
    };

    private static final String[] LINES_5XX = {
        "500 Internal Server Error",
        "501 Not Implemented",
        "502 Bad Gateway",
        "503 Service Temporarily Unavailable",
        "504 Gateway Time-out",
        "505 HTTP Version Not Supported",
        null, // 506 Variant Also Negotiates
        "507 Insufficient Storage",
    };

    private StatusLines() {
    }

    /**
     * Returns nginx's status line for a code, without the protocol: {@code "404 Not Found"}, or the code padded to
     * three digits and a space ({@code "299 "}) for a code nginx has no phrase for.
     *
     * @param status the code
     * @return the status line
     */
    public static String line(int status) {
        String s = phrase(status);
        if (s != null) {
            return s;
        }
        String digits = Integer.toString(status);
        return "000".substring(Math.min(3, digits.length())) + digits + " ";
    }

    /**
     * Returns nginx's status line for a code, or null when nginx's table has none.
     *
     * @param status the code
     * @return {@code "404 Not Found"}, or null
     */
    public static String phrase(int status) {
        if (status >= 200 && status < 200 + LINES_2XX.length) {
            return LINES_2XX[status - 200];
        }
        if (status >= 301 && status < 301 + LINES_3XX.length) {
            return LINES_3XX[status - 301];
        }
        if (status >= 400 && status < 400 + LINES_4XX.length) {
            return LINES_4XX[status - 400];
        }
        if (status >= 500 && status < 500 + LINES_5XX.length) {
            return LINES_5XX[status - 500];
        }
        return null;
    }
}
