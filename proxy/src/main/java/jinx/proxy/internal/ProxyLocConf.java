package jinx.proxy.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.http.spi.ComplexValue;
import jinx.kernel.TempPath;
import jinx.kernel.spi.Conf;
import jinx.proxy.upstream.UpstreamSsl;

/**
 * The proxy module's location conf: nginx's {@code ngx_http_proxy_loc_conf_t} with its
 * {@code ngx_http_upstream_conf_t}. Unset fields carry {@link Conf#UNSET} until merged.
 */
final class ProxyLocConf {

    /** {@code proxy_next_upstream} bits, nginx's {@code NGX_HTTP_UPSTREAM_FT_*}. */
    static final int FT_ERROR = 0x2;
    static final int FT_TIMEOUT = 0x4;
    static final int FT_INVALID_HEADER = 0x8;
    static final int FT_HTTP_500 = 0x10;
    static final int FT_HTTP_502 = 0x20;
    static final int FT_HTTP_503 = 0x40;
    static final int FT_HTTP_504 = 0x80;
    static final int FT_HTTP_403 = 0x100;
    static final int FT_HTTP_404 = 0x200;
    static final int FT_HTTP_429 = 0x400;
    static final int FT_NON_IDEMPOTENT = 0x4000;
    static final int FT_NOLIVE = 0x40000000;
    static final int FT_OFF = 0x80000000;

    /** A header line's value is {@link HeaderLine#value}. */
    static final int VALUE = 0;
    /** A header line's value is {@code $proxy_host}. */
    static final int PROXY_HOST = 1;
    /** A header line's value is the body's length ({@code $proxy_internal_body_length}), or no line. */
    static final int BODY_LENGTH = 2;
    /** A header line's value is {@code chunked} for a streamed chunked body ({@code $proxy_internal_chunked}). */
    static final int CHUNKED = 3;

    /** One header line to send: a name and a value, empty values not sent (nginx's proxy headers). */
    record HeaderLine(String name, String lowcase, ComplexValue value, int kind) {
    }

    /** {@code proxy_pass}, or null. */
    ProxyPass pass;
    /** {@code proxy_ssl_*} and the client context. */
    final UpstreamSsl<ComplexValue> ssl = new UpstreamSsl<>();
    /** {@code proxy_pass} with variables, evaluated per request ({@link ProxyEval}), or null. */
    jinx.http.spi.ComplexValue passValue;
    /** The upstream module's conf, where {@link #passValue} finds groups by name. */
    UpstreamMainConf umcf;
    /** {@code proxy_set_header} lines as written here. */
    List<HeaderLine> setHeaders;
    /** The lines sent: this location's and inherited {@code proxy_set_header}s, then nginx's defaults. */
    List<HeaderLine> headers;
    /** Lower-case names of {@link #headers}: the client's lines of these names are not passed on. */
    Set<String> headerNames;
    /** {@code proxy_hide_header}, lower case. */
    List<String> hideHeaders;
    /** {@code proxy_pass_header}, lower case. */
    List<String> passHeaders;
    /** The response header lines not passed to the client, lower case (merged). */
    Set<String> hidden;
    /** {@code proxy_http_version}: 1000 or 1001. */
    int httpVersion = Conf.UNSET;
    /** {@code proxy_method}, or null. */
    ComplexValue method;
    /** {@code proxy_connect_timeout}, ms. */
    long connectTimeout = Conf.UNSET_LONG;
    /** {@code resolver} (nginx's core location conf), or null: none, and a name cannot be looked up. */
    jinx.proxy.upstream.Resolver resolver;
    /** {@code resolver_timeout}, 30 s by default. */
    long resolverTimeout = Conf.UNSET_LONG;
    /** {@code proxy_send_timeout}, ms. */
    long sendTimeout = Conf.UNSET_LONG;
    /** {@code proxy_read_timeout}, ms. */
    long readTimeout = Conf.UNSET_LONG;
    /** {@code proxy_buffering}. */
    int buffering = Conf.UNSET;
    /** {@code proxy_buffer_size}. */
    long bufferSize = Conf.UNSET_LONG;
    /** {@code proxy_buffers}: how many. */
    int buffersNum = Conf.UNSET;
    /** {@code proxy_buffers}: each's size. */
    long buffersSize = Conf.UNSET_LONG;
    /** {@code proxy_busy_buffers_size} as written here or inherited (nginx's {@code busy_buffers_size_conf}). */
    long busyBuffersSizeConf = Conf.UNSET_LONG;
    /** The busy buffers' size in force: {@link #busyBuffersSizeConf}, else twice the larger buffer. */
    long busyBuffersSize;
    /** {@code proxy_temp_path}; the default ({@code proxy_temp} under the prefix, levels 1:2) once merged. */
    TempPath tempPath;
    /** {@code proxy_max_temp_file_size} as written here or inherited; 0 disables temporary files. */
    long maxTempFileSizeConf = Conf.UNSET_LONG;
    /** The temporary file's bound in force: {@link #maxTempFileSizeConf}, else 1024m. */
    long maxTempFileSize;
    /** {@code proxy_temp_file_write_size} as written here or inherited. */
    long tempFileWriteSizeConf = Conf.UNSET_LONG;
    /** What one write to the temporary file takes at most: {@link #tempFileWriteSizeConf}, else two buffers. */
    long tempFileWriteSize;
    /** {@code proxy_limit_rate}, bytes per second, 0 for none. */
    long limitRate = Conf.UNSET_LONG;
    /** {@code proxy_ignore_client_abort}. */
    int ignoreClientAbort = Conf.UNSET;
    /** {@code proxy_headers_hash_max_size}, kept for {@code -T}: Java's tables need no sizing. */
    long headersHashMaxSize = Conf.UNSET_LONG;
    /** {@code proxy_headers_hash_bucket_size}, kept as {@link #headersHashMaxSize}. */
    long headersHashBucketSize = Conf.UNSET_LONG;
    /** {@code proxy_set_body}, or null. */
    ComplexValue body;
    /** {@code proxy_bind}: null while unset or {@code off}. */
    ComplexValue bind;
    /** {@code proxy_bind} was written (possibly {@code off}). */
    boolean bindSet;
    /** {@code proxy_bind ... transparent}. */
    boolean bindTransparent;
    /** {@code proxy_request_buffering}. */
    int requestBuffering = Conf.UNSET;
    /** {@code proxy_pass_request_headers}. */
    int passRequestHeaders = Conf.UNSET;
    /** {@code proxy_pass_request_body}. */
    int passRequestBody = Conf.UNSET;
    /** {@code proxy_intercept_errors}. */
    int interceptErrors = Conf.UNSET;
    /** {@code proxy_ignore_headers}: {@link ProxyAccel}'s {@code IGN_*} bits. */
    int ignoreHeaders = Conf.UNSET;
    /** {@code proxy_next_upstream} bits. */
    int nextUpstream = Conf.UNSET;
    /** {@code proxy_next_upstream_tries}, 0 for no limit. */
    int nextUpstreamTries = Conf.UNSET;
    /** {@code proxy_next_upstream_timeout}, ms, 0 for no limit. */
    long nextUpstreamTimeout = Conf.UNSET_LONG;
    /** {@code proxy_socket_keepalive}. */
    int socketKeepalive = Conf.UNSET;
    /** {@code proxy_cookie_domain}: null while unset, empty for {@code off} (null again once merged). */
    List<ProxyCookies.Rule> cookieDomains;
    /** {@code proxy_cookie_path}, as {@link #cookieDomains}. */
    List<ProxyCookies.Rule> cookiePaths;
    /** {@code proxy_cookie_flags}, as {@link #cookieDomains}. */
    List<ProxyCookies.Flags> cookieFlags;
    /** {@code proxy_redirect}: null while unset, empty for {@code off}. */
    List<Redirect> redirects;
    /** {@code proxy_redirect default} was written (or implied). */
    boolean redirectDefault;

    /** A {@code proxy_redirect} rule: a prefix (or {@code default}'s) and its replacement. */
    record Redirect(String prefix, ComplexValue replacement, boolean regex, java.util.regex.Pattern pattern,
                    boolean caseless) {
    }

    ProxyLocConf() {
    }

    static List<String> list(List<String> l) {
        return l == null ? new ArrayList<>() : l;
    }
}
