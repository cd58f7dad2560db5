package jinx.kernel.internal.core;

import java.util.List;

/**
 * The fixed order of the built-in modules, nginx's {@code auto/modules}: a built-in module that is present
 * stands where this list puts it, whatever the order of discovery; other modules are placed by their
 * {@code after} and {@code before} names. The list is execution order: phase handlers of one phase and filters
 * run top to bottom (nginx's list runs filters bottom to top; Jinx states every order in the direction it runs).
 */
public final class BuiltinOrder {

    /** The built-in modules' names in order. */
    public static final List<String> NAMES = List.of(
        "core",
        "errlog",
        "conf",
        "events",
        "event_core",
        "epoll",
        "poll",
        "http",
        "http_core",
        // mirror's PRECONTENT handler runs before try_files, as in nginx, where it stands later in the list
        "http_mirror",
        "http_request",
        "http_variables",
        "http_ssl",
        "http_log",
        "http_realip",
        "http_limit_req",
        "http_limit_conn",
        "http_rewrite",
        "http_access",
        "http_auth_basic",
        "http_auth_request",
        "http_geo",
        "http_map",
        "http_split_clients",
        "http_referer",
        "http_secure_link",
        "http_browser",
        "http_random_index",
        "http_index",
        "http_autoindex",
        "http_gzip_static",
        "http_empty_gif",
        "http_static",
        "http_upstream",
        "http_proxy",
        // filters, in execution order: the response passes them top to bottom
        "http_not_modified_filter",
        "http_headers_filter",
        "http_userid_filter",
        "http_gunzip_filter",
        "http_addition_filter",
        "http_sub_filter",
        "http_charset_filter",
        "http_ssi_filter",
        "http_postpone_filter",
        "http_gzip_filter",
        "http_range_filter",
        "http_chunked_filter",
        "http_header_filter",
        "http_write_filter",
        // the stream modules (src/stream), in nginx's order: handlers of one phase run top to bottom
        "stream",
        "stream_core",
        "stream_log",
        "stream_proxy",
        "stream_upstream",
        "stream_ssl",
        "stream_realip",
        "stream_limit_conn",
        "stream_access",
        "stream_geo",
        "stream_map",
        "stream_split_clients",
        "stream_return",
        "stream_set",
        "stream_ssl_preread",
        "stream_pass");

    private BuiltinOrder() {
    }
}
