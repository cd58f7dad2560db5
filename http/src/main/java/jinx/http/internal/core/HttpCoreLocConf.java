package jinx.http.internal.core;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import jinx.http.spi.ComplexValue;
import jinx.http.spi.PhaseHandler;
import jinx.kernel.ErrorLog;
import jinx.kernel.spi.Conf;

/**
 * The location conf of {@code http_core}: one for {@code http {}}, one per {@code server {}}, one per
 * {@code location {}} (and per {@code limit_except {}} or {@code if {}}). nginx's {@code ngx_http_core_loc_conf_t}.
 *
 * <p>Fields start unset ({@link Conf#UNSET}, {@link Conf#UNSET_LONG}, null); merging fills them from the enclosing
 * context or nginx's default, given on each field. Flags are 0 or 1 after merging. Times are milliseconds unless
 * a field says seconds; sizes are bytes. After the {@code http {}} block is parsed nothing here changes.
 */
public final class HttpCoreLocConf {

    /** {@link #alias} for an {@code alias} in a regex location: the whole URI is replaced. */
    public static final int ALIAS_REGEX = Integer.MAX_VALUE;

    /** {@code satisfy all}. */
    public static final int SATISFY_ALL = 0;
    /** {@code satisfy any}. */
    public static final int SATISFY_ANY = 1;

    /** {@code if_modified_since off}. */
    public static final int IMS_OFF = 0;
    /** {@code if_modified_since exact}. */
    public static final int IMS_EXACT = 1;
    /** {@code if_modified_since before}. */
    public static final int IMS_BEFORE = 2;

    /** {@code client_body_in_file_only off}. */
    public static final int BODY_FILE_OFF = 0;
    /** {@code client_body_in_file_only on}. */
    public static final int BODY_FILE_ON = 1;
    /** {@code client_body_in_file_only clean}. */
    public static final int BODY_FILE_CLEAN = 2;

    /** {@code lingering_close off}. */
    public static final int LINGERING_OFF = 0;
    /** {@code lingering_close on}. */
    public static final int LINGERING_ON = 1;
    /** {@code lingering_close always}. */
    public static final int LINGERING_ALWAYS = 2;

    /** {@code server_tokens off}. */
    public static final int SERVER_TOKENS_OFF = 0;
    /** {@code server_tokens on}. */
    public static final int SERVER_TOKENS_ON = 1;
    /** {@code server_tokens build}. */
    public static final int SERVER_TOKENS_BUILD = 2;

    /** {@code keepalive_disable none}. */
    public static final int KEEPALIVE_DISABLE_NONE = 0x2;
    /** {@code keepalive_disable msie6}. */
    public static final int KEEPALIVE_DISABLE_MSIE6 = 0x4;
    /** {@code keepalive_disable safari}. */
    public static final int KEEPALIVE_DISABLE_SAFARI = 0x8;

    /** {@code directio off}: nginx's {@code NGX_OPEN_FILE_DIRECTIO_OFF}. */
    public static final long DIRECTIO_OFF = Long.MAX_VALUE;

    /** {@code gzip_proxied off}. */
    public static final int GZIP_PROXIED_OFF = 0x0002;
    /** {@code gzip_proxied expired}. */
    public static final int GZIP_PROXIED_EXPIRED = 0x0004;
    /** {@code gzip_proxied no-cache}. */
    public static final int GZIP_PROXIED_NO_CACHE = 0x0008;
    /** {@code gzip_proxied no-store}. */
    public static final int GZIP_PROXIED_NO_STORE = 0x0010;
    /** {@code gzip_proxied private}. */
    public static final int GZIP_PROXIED_PRIVATE = 0x0020;
    /** {@code gzip_proxied no_last_modified}. */
    public static final int GZIP_PROXIED_NO_LM = 0x0040;
    /** {@code gzip_proxied no_etag}. */
    public static final int GZIP_PROXIED_NO_ETAG = 0x0080;
    /** {@code gzip_proxied auth}. */
    public static final int GZIP_PROXIED_AUTH = 0x0100;
    /** {@code gzip_proxied any}. */
    public static final int GZIP_PROXIED_ANY = 0x0200;

    // ---- the location itself -------------------------------------------------------------------------------

    /**
     * The location's name without its modifier ({@code /images/}, the regex source, {@code @fallback}); the empty
     * string for the confs of {@code http {}} and {@code server {}}.
     */
    public String name = "";
    /** {@link #name} escaped as a URI (nginx's {@code escaped_name}), for the auto redirect's Location. */
    public String escapedName = "";
    /** The regex of a {@code ~} or {@code ~*} location, or null. */
    public HttpRegex regex;
    /** {@code location = ...}. */
    public boolean exactMatch;
    /** {@code location ^~ ...}: a prefix match that skips the regexes. */
    public boolean noregex;
    /** {@code location @name}. */
    public boolean named;
    /** A location without a name of its own: {@code limit_except {}} and {@code if {}}. */
    public boolean noname;
    /** The conf of a {@code limit_except {}} block. */
    public boolean lmtExcpt;
    /**
     * Redirect {@code /dir} to {@code /dir/} with 301 when this prefix location ends with a slash (nginx's
     * {@code auto_redirect}): set by modules such as {@code proxy_pass} while the location is parsed.
     */
    public boolean autoRedirect;

    /** Every HTTP module's location conf of this block, by module index (nginx's {@code clcf->loc_conf}). */
    public Object[] locConf;

    /** The prefix and exact locations inside this one, as a tree; null without (nginx's {@code static_locations}). */
    public LocationTree staticLocations;
    /** The regex locations inside this one, in the order written; null without. */
    public HttpCoreLocConf[] regexLocations;
    /** The locations as declared inside this block, before {@link LocationBuilder} sorts them; parse time only. */
    List<LocationBuilder.Entry> locations;

    /**
     * {@code limit_except}: the methods that are limited, as {@code HttpRequest} method bits (every method but
     * those named, and HEAD with GET); 0 without.
     */
    public int limitExcept;
    /** The module location confs of the {@code limit_except {}} block, used for the methods limited. */
    public Object[] limitExceptLocConf;

    /**
     * The content handler of this location (nginx's {@code clcf->handler}): set by modules such as
     * {@code proxy_pass} or {@code stub_status} while the location is parsed; it replaces the CONTENT handlers.
     */
    public PhaseHandler handler;

    /** The cycle's prefix with a trailing slash, for the defaults {@code html} and {@code client_body_temp}. */
    String cyclePrefix;

    /** The file the location is written in, for messages; null for {@code http} and {@code server}. */
    public String file;
    /** The line of the location, for messages. */
    public int line;

    // ---- files -----------------------------------------------------------------------------------------------

    /**
     * {@code root} or {@code alias}: the path as written, made absolute against the prefix unless it starts with a
     * variable, a trailing slash of a {@code root} removed; default {@code <prefix>/html}.
     */
    public String root;
    /** {@link #root} compiled when it has variables, else null. */
    public ComplexValue rootValue;
    /**
     * 0 for {@code root}; for {@code alias}, the length of the location's name to replace in the URI, or
     * {@link #ALIAS_REGEX} in a regex location (the alias, with its captures, is the whole path).
     */
    public int alias;
    /** {@code post_action}, or null. */
    public String postAction;
    /** {@code try_files}, or null. */
    public List<TryFile> tryFiles;
    /** {@code error_page}s in order, or null. */
    public List<ErrorPage> errorPages;
    /** {@code internal}: 1 when only internal requests may use the location; default 0. */
    public int internal = Conf.UNSET;

    // ---- types -----------------------------------------------------------------------------------------------

    /**
     * {@code types}: lower-case extension to content type; after merging, nginx's default (html, gif, jpg) unless
     * a {@code types {}} stands here or above. Unmodifiable after merging.
     */
    public Map<String, String> types;
    /** {@code default_type}; default {@code text/plain}. */
    public String defaultType;
    /** {@code types_hash_max_size}: accepted for compatibility; default 1024. */
    public int typesHashMaxSize = Conf.UNSET;
    /** {@code types_hash_bucket_size}: accepted for compatibility; default 64. */
    public int typesHashBucketSize = Conf.UNSET;

    // ---- the request body ------------------------------------------------------------------------------------

    /** {@code client_max_body_size}; default 1m; 0 means no limit. */
    public long clientMaxBodySize = Conf.UNSET_LONG;
    /** {@code client_body_buffer_size}; default 8k (two pages). */
    public long clientBodyBufferSize = Conf.UNSET_LONG;
    /** {@code client_body_timeout}; default 60s. */
    public long clientBodyTimeout = Conf.UNSET_LONG;
    /** {@code client_body_temp_path}'s directory; default {@code <prefix>/client_body_temp}. */
    public Path clientBodyTempPath;
    /** {@code client_body_temp_path}'s levels (up to three, each 1 or 2 characters), empty by default. */
    public int[] clientBodyTempLevels;
    /** {@code client_body_in_file_only}: {@link #BODY_FILE_OFF} (default), {@link #BODY_FILE_ON}, {@link #BODY_FILE_CLEAN}. */
    public int clientBodyInFileOnly = Conf.UNSET;
    /** {@code client_body_in_single_buffer}; default 0. */
    public int clientBodyInSingleBuffer = Conf.UNSET;

    // ---- sending ---------------------------------------------------------------------------------------------

    /** {@code sendfile}; default 0. */
    public int sendfile = Conf.UNSET;
    /** {@code sendfile_max_chunk}; default 2m, 0 for no limit. */
    public long sendfileMaxChunk = Conf.UNSET_LONG;
    /** {@code aio}: only {@code off} (0) is supported; default 0. */
    public int aio = Conf.UNSET;
    /** {@code aio_write}; default 0. */
    public int aioWrite = Conf.UNSET;
    /** {@code read_ahead}; default 0. */
    public long readAhead = Conf.UNSET_LONG;
    /** {@code directio}: the size from which files are read with O_DIRECT, {@link #DIRECTIO_OFF} by default. */
    public long directio = Conf.UNSET_LONG;
    /** {@code directio_alignment}; default 512. */
    public long directioAlignment = Conf.UNSET_LONG;
    /** {@code tcp_nopush}; default 0. */
    public int tcpNopush = Conf.UNSET;
    /** {@code tcp_nodelay}; default 1. */
    public int tcpNodelay = Conf.UNSET;
    /** {@code send_timeout}; default 60s. */
    public long sendTimeout = Conf.UNSET_LONG;
    /** {@code send_lowat}; default 0. */
    public long sendLowat = Conf.UNSET_LONG;
    /** {@code postpone_output}; default 1460. */
    public long postponeOutput = Conf.UNSET_LONG;
    /** {@code limit_rate} in bytes per second; default 0 (no limit). */
    public long limitRate = Conf.UNSET_LONG;
    /** {@code limit_rate_after}; default 0. */
    public long limitRateAfter = Conf.UNSET_LONG;
    /** {@code subrequest_output_buffer_size}; default 4k. */
    public long subrequestOutputBufferSize = Conf.UNSET_LONG;
    /** {@code chunked_transfer_encoding}; default 1. */
    public int chunkedTransferEncoding = Conf.UNSET;
    /** {@code etag}; default 1. */
    public int etag = Conf.UNSET;
    /** {@code if_modified_since}: {@link #IMS_OFF}, {@link #IMS_EXACT} (default), {@link #IMS_BEFORE}. */
    public int ifModifiedSince = Conf.UNSET;
    /** {@code max_ranges}; default {@link Integer#MAX_VALUE} (no limit). */
    public int maxRanges = Conf.UNSET;
    /** {@code server_tokens}: {@link #SERVER_TOKENS_ON} (default), {@link #SERVER_TOKENS_OFF}, {@link #SERVER_TOKENS_BUILD}. */
    public int serverTokens = Conf.UNSET;
    /** {@code msie_padding}; default 1. */
    public int msiePadding = Conf.UNSET;
    /** {@code msie_refresh}; default 0. */
    public int msieRefresh = Conf.UNSET;

    // ---- connections -----------------------------------------------------------------------------------------

    /** {@code keepalive_timeout}; default 75s; 0 disables keep-alive. */
    public long keepaliveTimeout = Conf.UNSET_LONG;
    /** {@code keepalive_timeout}'s second value, the {@code Keep-Alive: timeout=} header, in seconds; default 0 (none). */
    public long keepaliveHeader = Conf.UNSET_LONG;
    /** {@code keepalive_requests}; default 1000. */
    public int keepaliveRequests = Conf.UNSET;
    /** {@code keepalive_time}; default 1h. */
    public long keepaliveTime = Conf.UNSET_LONG;
    /** {@code keepalive_disable}: {@link #KEEPALIVE_DISABLE_MSIE6} (default) ... bits; 0 while unset. */
    public int keepaliveDisable;
    /** {@code lingering_close}: {@link #LINGERING_ON} (default), {@link #LINGERING_OFF}, {@link #LINGERING_ALWAYS}. */
    public int lingeringClose = Conf.UNSET;
    /** {@code lingering_time}; default 30s. */
    public long lingeringTime = Conf.UNSET_LONG;
    /** {@code lingering_timeout}; default 5s. */
    public long lingeringTimeout = Conf.UNSET_LONG;
    /** {@code reset_timedout_connection}; default 0. */
    public int resetTimedoutConnection = Conf.UNSET;
    /** {@code auth_delay}; default 0. */
    public long authDelay = Conf.UNSET_LONG;

    // ---- redirects -------------------------------------------------------------------------------------------

    /** {@code absolute_redirect}; default 1. */
    public int absoluteRedirect = Conf.UNSET;
    /** {@code server_name_in_redirect}; default 0. */
    public int serverNameInRedirect = Conf.UNSET;
    /** {@code port_in_redirect}; default 1. */
    public int portInRedirect = Conf.UNSET;
    /** {@code recursive_error_pages}; default 0. */
    public int recursiveErrorPages = Conf.UNSET;

    // ---- access ----------------------------------------------------------------------------------------------

    /** {@code satisfy}: {@link #SATISFY_ALL} (default) or {@link #SATISFY_ANY}. */
    public int satisfy = Conf.UNSET;

    // ---- logs ------------------------------------------------------------------------------------------------

    /** {@code log_not_found}; default 1. */
    public int logNotFound = Conf.UNSET;
    /** {@code log_subrequest}; default 0. */
    public int logSubrequest = Conf.UNSET;
    /**
     * {@code error_log} at this level, as targets; inherited when null. An empty list stands for the cycle's log.
     */
    public List<ErrorLog.Target> errorLogTargets;
    /**
     * The error log of requests in this location: the log {@link #errorLogTargets} name, opened when the cycle
     * starts ({@code initModule}), or the cycle's own log. Null until then.
     */
    public ErrorLog errorLog;

    // ---- open file cache (parsed; the cache itself may come later) -------------------------------------------

    /** {@code open_file_cache max=}: 0 for {@code off} (default). */
    public int openFileCacheMax = Conf.UNSET;
    /** {@code open_file_cache inactive=} in seconds; default 60. */
    public long openFileCacheInactive = Conf.UNSET_LONG;
    /** {@code open_file_cache_valid} in seconds; default 60. */
    public long openFileCacheValid = Conf.UNSET_LONG;
    /** {@code open_file_cache_min_uses}; default 1. */
    public int openFileCacheMinUses = Conf.UNSET;
    /** {@code open_file_cache_errors}; default 0. */
    public int openFileCacheErrors = Conf.UNSET;
    /** {@code open_file_cache_events}; default 0. */
    public int openFileCacheEvents = Conf.UNSET;

    // ---- gzip (the core's part, for the gzip modules) --------------------------------------------------------

    /** {@code gzip_vary}; default 0. */
    public int gzipVary = Conf.UNSET;
    /** {@code gzip_http_version}: {@code HttpRequest.VERSION_10} or {@code VERSION_11} (default). */
    public int gzipHttpVersion = Conf.UNSET;
    /** {@code gzip_proxied} bits; default {@link #GZIP_PROXIED_OFF}; 0 while unset. */
    public int gzipProxied;
    /** {@code gzip_disable} regexes (case-insensitive, tested on User-Agent), or null. */
    public List<HttpRegex> gzipDisable;
    /** {@code gzip_disable msie6}: 1 or 0 after merging; -1 while unset. */
    public int gzipDisableMsie6 = Conf.UNSET;
    /** {@code gzip_disable degradation}: 1 or 0 after merging; -1 while unset. */
    public int gzipDisableDegradation = Conf.UNSET;

    /**
     * A location conf with nothing set.
     */
    public HttpCoreLocConf() {
    }

    /**
     * Returns the name as nginx prints it in messages: {@code =/x}, {@code /x}, {@code ~ \.php$}, {@code @x},
     * {@code *} for a location without a name.
     *
     * @return the printable name
     */
    public String displayName() {
        if (noname) {
            return "*" + name;
        }
        return exactMatch ? "=" + name : name;
    }
}
