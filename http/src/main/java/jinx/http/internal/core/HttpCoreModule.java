package jinx.http.internal.core;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ObjIntConsumer;
import java.util.function.ObjLongConsumer;

import jinx.http.HttpRequest;
import jinx.http.internal.variables.Variables;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code http_core} module: nginx's {@code ngx_http_core_module}, its directives, its confs
 * ({@link HttpCoreMainConf}, {@link HttpCoreSrvConf}, {@link HttpCoreLocConf}) and their defaults and merging.
 * The blocks ({@code server}, {@code location}, {@code limit_except}, {@code types}) are in {@link CoreBlocks},
 * the directives with a handler of their own in {@link CoreDirectives}, merging in {@link CoreMerge}.
 *
 * <p>Not here: {@code resolver}, {@code resolver_timeout} (with the upstream work), {@code disable_symlinks}
 * (may come later), {@code aio on|threads} (refused as on a platform without them).
 */
public final class HttpCoreModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_core";

    private static final Set<Ctx> M = Set.of(HttpCtx.MAIN);
    private static final Set<Ctx> MS = Set.of(HttpCtx.MAIN, HttpCtx.SRV);
    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);
    private static final Set<Ctx> MSLI = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC, HttpCtx.LIF);
    private static final Set<Ctx> S = Set.of(HttpCtx.SRV);
    private static final Set<Ctx> SL = Set.of(HttpCtx.SRV, HttpCtx.LOC);
    private static final Set<Ctx> L = Set.of(HttpCtx.LOC);

    private static final Class<HttpCoreMainConf> MAIN = HttpCoreMainConf.class;
    private static final Class<HttpCoreSrvConf> SRV = HttpCoreSrvConf.class;
    private static final Class<HttpCoreLocConf> LOC = HttpCoreLocConf.class;

    private static final String LISTEN_OPTIONS =
        "[ipv6only=on|off] [reuseport] [so_keepalive=on|off|[keepidle]:[keepintvl]:[keepcnt]]";

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("variables_hash_max_size", M, Arity.TAKE1, MAIN,
            Slots.number((HttpCoreMainConf c, int v) -> c.variablesHashMaxSize = v))
            .syntax("size").defaults("1024").describe("Sets the maximum size of the variables hash table."),
        Directive.of("variables_hash_bucket_size", M, Arity.TAKE1, MAIN,
            Slots.number((HttpCoreMainConf c, int v) -> c.variablesHashBucketSize = v))
            .syntax("size").defaults("64").describe("Sets the bucket size for the variables hash table."),
        Directive.of("server_names_hash_max_size", M, Arity.TAKE1, MAIN,
            Slots.number((HttpCoreMainConf c, int v) -> c.serverNamesHashMaxSize = v))
            .syntax("size").defaults("512").describe("Sets the maximum size of the server names hash tables."),
        Directive.of("server_names_hash_bucket_size", M, Arity.TAKE1, MAIN,
            Slots.number((HttpCoreMainConf c, int v) -> c.serverNamesHashBucketSize = v))
            .syntax("size").defaults("64").describe("Sets the bucket size for the server names hash tables."),
        Directive.of("server", M, Arity.BLOCK | Arity.NOARGS, CoreBlocks::server).multi()
            .syntax("{ ... }").describe("Sets configuration for a virtual server."),
        srvSize("connection_pool_size", (c, v) -> c.connectionPoolSize = v)
            .syntax("size").defaults("512").describe("Allows accurate tuning of per-connection memory "
                + "allocations."),
        srvSize("request_pool_size", (c, v) -> c.requestPoolSize = v)
            .syntax("size").defaults("4k").describe("Allows accurate tuning of per-request memory allocations."),
        Directive.of("client_header_timeout", MS, Arity.TAKE1, SRV,
            Slots.msec((HttpCoreSrvConf c, long v) -> c.clientHeaderTimeout = v))
            .syntax("time").defaults("60s").describe("Defines a timeout for reading client request header."),
        Directive.of("client_header_buffer_size", MS, Arity.TAKE1, SRV,
            CoreDirectives.bufferSize((HttpCoreSrvConf c, long v) -> c.clientHeaderBufferSize = v))
            .syntax("size").defaults("1k").describe("Sets buffer size for reading client request header."),
        Directive.of("large_client_header_buffers", MS, Arity.TAKE2, SRV, CoreDirectives::largeBuffers)
            .syntax("number size").defaults("4 8k").describe("Sets the maximum number and size of buffers used for "
                + "reading large client request header."),
        Directive.of("max_headers", MS, Arity.TAKE1, SRV,
            Slots.number((HttpCoreSrvConf c, int v) -> c.maxHeaders = v))
            .syntax("number").defaults("1000").describe("Sets the maximum number of client request header fields "
                + "allowed."),
        srvFlag("ignore_invalid_headers", (c, v) -> c.ignoreInvalidHeaders = v)
            .syntax("on | off").defaults("on").describe("Controls whether header fields with invalid names should be "
                + "ignored."),
        srvFlag("merge_slashes", (c, v) -> c.mergeSlashes = v)
            .syntax("on | off").defaults("on").describe("Enables or disables compression of two or more adjacent "
                + "slashes in a URI into a single slash."),
        srvFlag("underscores_in_headers", (c, v) -> c.underscoresInHeaders = v)
            .syntax("on | off").defaults("off").describe("Enables or disables the use of underscores in client "
                + "request header fields."),
        Directive.of("location", SL, Arity.BLOCK | Arity.TAKE12, CoreBlocks::location).multi()
            .syntax("[ = | ~ | ~* | ^~ ] uri { ... }", "@name { ... }").describe("Sets configuration depending on a "
                + "request URI."),
        Directive.of("listen", S, Arity.ONE_MORE, SRV, ListenDirective::listen).multi()
            .syntax("address[:port] [default_server] [backlog=number] [rcvbuf=size] [sndbuf=size] [deferred] [bind] "
                    + LISTEN_OPTIONS,
                "port [default_server] [backlog=number] [rcvbuf=size] [sndbuf=size] [deferred] [bind] "
                    + LISTEN_OPTIONS,
                "unix:path [default_server] [backlog=number] [rcvbuf=size] [sndbuf=size] [bind]")
            .defaults("*:80 | *:8000").describe("Sets the address and port for IP, or the path for a UNIX-domain "
                + "socket on which the server will accept requests."),
        Directive.of("server_name", S, Arity.ONE_MORE, SRV, CoreDirectives::serverName).multi()
            .syntax("name ...").defaults("\"\"").describe("Sets names of a virtual server."),
        locNumber("types_hash_max_size", (c, v) -> c.typesHashMaxSize = v)
            .syntax("size").defaults("1024").describe("Sets the maximum size of the types hash tables."),
        locNumber("types_hash_bucket_size", (c, v) -> c.typesHashBucketSize = v)
            .syntax("size").defaults("64").describe("Sets the bucket size for the types hash tables."),
        Directive.of("types", MSL, Arity.BLOCK | Arity.NOARGS, LOC, CoreBlocks::types).multi()
            .syntax("{ ... }").defaults("{ text/html html; image/gif gif; image/jpeg jpg; }")
            .describe("Maps file name extensions to MIME types of responses."),
        Directive.of("default_type", MSL, Arity.TAKE1, LOC,
            Slots.str((HttpCoreLocConf c, String v) -> c.defaultType = v))
            .syntax("mime-type").defaults("text/plain").describe("Defines the default MIME type of a response."),
        Directive.of("root", MSLI, Arity.TAKE1, LOC, CoreDirectives::root)
            .syntax("path").defaults("html").describe("Sets the root directory for requests."),
        Directive.of("alias", L, Arity.TAKE1, LOC, CoreDirectives::root)
            .syntax("path").describe("Defines a replacement for the specified location."),
        Directive.of("limit_except", L, Arity.BLOCK | Arity.ONE_MORE, LOC, CoreBlocks::limitExcept)
            .syntax("method ... { ... }").describe("Limits allowed HTTP methods inside a location."),
        Directive.of("client_max_body_size", MSL, Arity.TAKE1, LOC,
            Slots.offset((HttpCoreLocConf c, long v) -> c.clientMaxBodySize = v))
            .syntax("size").defaults("1m").describe("Sets the maximum allowed size of the client request body."),
        Directive.of("client_body_buffer_size", MSL, Arity.TAKE1, LOC,
            CoreDirectives.bufferSize((HttpCoreLocConf c, long v) -> c.clientBodyBufferSize = v))
            .syntax("size").defaults("8k").describe("Sets buffer size for reading client request body."),
        locMsec("client_body_timeout", (c, v) -> c.clientBodyTimeout = v)
            .syntax("time").defaults("60s").describe("Defines a timeout for reading client request body."),
        Directive.of("client_body_temp_path", MSL, Arity.TAKE1234, LOC, CoreDirectives::clientBodyTempPath)
            .syntax("path [level1 [level2 [level3]]]").defaults("client_body_temp").describe("Defines a directory "
                + "for storing temporary files holding client request bodies."),
        Directive.of("client_body_in_file_only", MSL, Arity.TAKE1, LOC,
            Slots.oneOf(Map.of("off", HttpCoreLocConf.BODY_FILE_OFF, "on", HttpCoreLocConf.BODY_FILE_ON,
                "clean", HttpCoreLocConf.BODY_FILE_CLEAN),
                (HttpCoreLocConf c, Integer v) -> c.clientBodyInFileOnly = v))
            .syntax("on | clean | off").defaults("off").describe("Determines whether the entire client request body "
                + "is saved into a file."),
        locFlag("client_body_in_single_buffer", MSL, (c, v) -> c.clientBodyInSingleBuffer = v)
            .syntax("on | off").defaults("off").describe("Determines whether the entire client request body is saved "
                + "in a single buffer."),
        locFlag("sendfile", MSLI, (c, v) -> c.sendfile = v)
            .syntax("on | off").defaults("off").describe("Enables or disables the use of sendfile()."),
        locSize("sendfile_max_chunk", (c, v) -> c.sendfileMaxChunk = v)
            .syntax("size").defaults("2m").describe("Limits the amount of data that can be transferred in a single "
                + "sendfile() call."),
        locSize("subrequest_output_buffer_size", (c, v) -> c.subrequestOutputBufferSize = v)
            .syntax("size").defaults("4k").describe("Sets the size of the buffer used for storing the response "
                + "body of a subrequest."),
        Directive.of("aio", MSL, Arity.TAKE1, LOC, CoreDirectives::aio)
            .syntax("on | off | threads[=pool]").defaults("off").describe("Enables or disables the use of "
                + "asynchronous file I/O (AIO)."),
        locFlag("aio_write", MSL, (c, v) -> c.aioWrite = v)
            .syntax("on | off").defaults("off").describe("If aio is enabled, specifies whether it is used for "
                + "writing files."),
        locSize("read_ahead", (c, v) -> c.readAhead = v)
            .syntax("size").defaults("0").describe("Sets the amount of pre-reading for the kernel when working with "
                + "file."),
        Directive.of("directio", MSL, Arity.TAKE1, LOC, CoreDirectives::directio)
            .syntax("size | off").defaults("off").describe("Enables the use of the O_DIRECT flag when reading files "
                + "that are larger than or equal to the specified size."),
        Directive.of("directio_alignment", MSL, Arity.TAKE1, LOC,
            Slots.offset((HttpCoreLocConf c, long v) -> c.directioAlignment = v))
            .syntax("size").defaults("512").describe("Sets the alignment for directio."),
        locFlag("tcp_nopush", MSL, (c, v) -> c.tcpNopush = v)
            .syntax("on | off").defaults("off").describe("Enables or disables the use of the TCP_NOPUSH socket "
                + "option on FreeBSD or the TCP_CORK socket option on Linux."),
        locFlag("tcp_nodelay", MSL, (c, v) -> c.tcpNodelay = v)
            .syntax("on | off").defaults("on").describe("Enables or disables the use of the TCP_NODELAY option."),
        locMsec("send_timeout", (c, v) -> c.sendTimeout = v)
            .syntax("time").defaults("60s").describe("Sets a timeout for transmitting a response to the client."),
        Directive.of("send_lowat", MSL, Arity.TAKE1, LOC, CoreDirectives::sendLowat)
            .syntax("size").defaults("0").describe("If set to a non-zero value, tries to minimize the number of send "
                + "operations on client sockets with SO_SNDLOWAT; ignored with a warning on Linux."),
        locSize("postpone_output", (c, v) -> c.postponeOutput = v)
            .syntax("size").defaults("1460").describe("If possible, the transmission of client data will be "
                + "postponed until at least size bytes of data are ready to send."),
        Directive.of("limit_rate", MSLI, Arity.TAKE1, LOC,
            Slots.size((HttpCoreLocConf c, long v) -> c.limitRate = v))
            .syntax("rate").defaults("0").describe("Limits the rate of response transmission to a client."),
        Directive.of("limit_rate_after", MSLI, Arity.TAKE1, LOC,
            Slots.size((HttpCoreLocConf c, long v) -> c.limitRateAfter = v))
            .syntax("size").defaults("0").describe("Sets the initial amount after which the further transmission of "
                + "a response to a client will be rate limited."),
        locMsec("keepalive_time", (c, v) -> c.keepaliveTime = v)
            .syntax("time").defaults("1h").describe("Limits the maximum time during which requests can be processed "
                + "through one keep-alive connection."),
        Directive.of("keepalive_timeout", MSL, Arity.TAKE12, LOC, CoreDirectives::keepaliveTimeout)
            .syntax("timeout [header_timeout]").defaults("75s").describe("Sets a timeout during which a keep-alive "
                + "client connection will stay open on the server side, and optionally the value of the Keep-Alive: "
                + "timeout=time response header field."),
        locNumber("keepalive_requests", (c, v) -> c.keepaliveRequests = v)
            .syntax("number").defaults("1000").describe("Sets the maximum number of requests that can be served "
                + "through one keep-alive connection."),
        Directive.of("keepalive_disable", MSL, Arity.TAKE12, LOC,
            Slots.bitmask(Map.of("none", HttpCoreLocConf.KEEPALIVE_DISABLE_NONE,
                "msie6", HttpCoreLocConf.KEEPALIVE_DISABLE_MSIE6,
                "safari", HttpCoreLocConf.KEEPALIVE_DISABLE_SAFARI),
                (HttpCoreLocConf c, int v) -> c.keepaliveDisable = v))
            .syntax("none | browser ...").defaults("msie6").describe("Disables keep-alive connections with "
                + "misbehaving browsers."),
        Directive.of("satisfy", MSL, Arity.TAKE1, LOC,
            Slots.oneOf(Map.of("all", HttpCoreLocConf.SATISFY_ALL, "any", HttpCoreLocConf.SATISFY_ANY),
                (HttpCoreLocConf c, Integer v) -> c.satisfy = v))
            .syntax("all | any").defaults("all").describe("Allows access if all (all) or at least one (any) of the "
                + "access modules allow access."),
        locMsec("auth_delay", (c, v) -> c.authDelay = v)
            .syntax("time").defaults("0s").describe("Delays processing of unauthorized requests with 401 response "
                + "code to prevent timing attacks."),
        Directive.of("internal", L, Arity.NOARGS, LOC, (cf, c) -> c.internal = 1)
            .syntax("").describe("Specifies that a given location can only be used for internal requests."),
        Directive.of("lingering_close", MSL, Arity.TAKE1, LOC,
            Slots.oneOf(Map.of("off", HttpCoreLocConf.LINGERING_OFF, "on", HttpCoreLocConf.LINGERING_ON,
                "always", HttpCoreLocConf.LINGERING_ALWAYS),
                (HttpCoreLocConf c, Integer v) -> c.lingeringClose = v))
            .syntax("off | on | always").defaults("on").describe("Controls how client connections are closed."),
        locMsec("lingering_time", (c, v) -> c.lingeringTime = v)
            .syntax("time").defaults("30s").describe("When lingering_close is in effect, specifies the maximum time "
                + "during which additional data coming from a client is read and ignored."),
        locMsec("lingering_timeout", (c, v) -> c.lingeringTimeout = v)
            .syntax("time").defaults("5s").describe("When lingering_close is in effect, specifies the maximum "
                + "waiting time for more client data to arrive."),
        locFlag("reset_timedout_connection", MSL, (c, v) -> c.resetTimedoutConnection = v)
            .syntax("on | off").defaults("off").describe("Enables or disables resetting timed out connections and "
                + "connections closed with the non-standard code 444."),
        locFlag("absolute_redirect", MSL, (c, v) -> c.absoluteRedirect = v)
            .syntax("on | off").defaults("on").describe("If disabled, redirects issued by jinx will be relative."),
        locFlag("server_name_in_redirect", MSL, (c, v) -> c.serverNameInRedirect = v)
            .syntax("on | off").defaults("off").describe("Enables or disables the use of the primary server name, "
                + "specified by the server_name directive, in absolute redirects issued by jinx."),
        locFlag("port_in_redirect", MSL, (c, v) -> c.portInRedirect = v)
            .syntax("on | off").defaults("on").describe("Enables or disables specifying the port in absolute "
                + "redirects issued by jinx."),
        locFlag("msie_padding", MSL, (c, v) -> c.msiePadding = v)
            .syntax("on | off").defaults("on").describe("Enables or disables adding comments to responses for MSIE "
                + "clients with status greater than 400 to increase the response size to 512 bytes."),
        locFlag("msie_refresh", MSL, (c, v) -> c.msieRefresh = v)
            .syntax("on | off").defaults("off").describe("Enables or disables issuing refreshes instead of redirects "
                + "for MSIE clients."),
        locFlag("log_not_found", MSL, (c, v) -> c.logNotFound = v)
            .syntax("on | off").defaults("on").describe("Enables or disables logging of errors about not found files "
                + "into error_log."),
        locFlag("log_subrequest", MSL, (c, v) -> c.logSubrequest = v)
            .syntax("on | off").defaults("off").describe("Enables or disables logging of subrequests into access_log."),
        locFlag("recursive_error_pages", MSL, (c, v) -> c.recursiveErrorPages = v)
            .syntax("on | off").defaults("off").describe("Enables or disables doing several redirects using the "
                + "error_page directive."),
        Directive.of("server_tokens", MSL, Arity.TAKE1, LOC,
            Slots.oneOf(Map.of("off", HttpCoreLocConf.SERVER_TOKENS_OFF, "on", HttpCoreLocConf.SERVER_TOKENS_ON,
                "build", HttpCoreLocConf.SERVER_TOKENS_BUILD),
                (HttpCoreLocConf c, Integer v) -> c.serverTokens = v))
            .syntax("on | off | build").defaults("on").describe("Enables or disables emitting the jinx version on "
                + "error pages and in the Server response header field."),
        Directive.of("if_modified_since", MSL, Arity.TAKE1, LOC,
            Slots.oneOf(Map.of("off", HttpCoreLocConf.IMS_OFF, "exact", HttpCoreLocConf.IMS_EXACT,
                "before", HttpCoreLocConf.IMS_BEFORE),
                (HttpCoreLocConf c, Integer v) -> c.ifModifiedSince = v))
            .syntax("off | exact | before").defaults("exact").describe("Specifies how to compare modification time "
                + "of a response with the time in the If-Modified-Since request header field."),
        locNumber("max_ranges", (c, v) -> c.maxRanges = v)
            .syntax("number").describe("Limits the maximum allowed number of ranges in byte-range requests."),
        locFlag("chunked_transfer_encoding", MSL, (c, v) -> c.chunkedTransferEncoding = v)
            .syntax("on | off").defaults("on").describe("Allows disabling chunked transfer encoding in HTTP/1.1."),
        locFlag("etag", MSL, (c, v) -> c.etag = v)
            .syntax("on | off").defaults("on").describe("Enables or disables automatic generation of the ETag "
                + "response header field for static resources."),
        Directive.of("error_page", MSLI, Arity.TWO_MORE, LOC, CoreDirectives::errorPage).multi()
            .syntax("code ... [=[response]] uri").describe("Defines the URI that will be shown for the specified "
                + "errors."),
        Directive.of("try_files", SL, Arity.TWO_MORE, LOC, CoreDirectives::tryFiles)
            .syntax("file ... uri", "file ... =code").describe("Checks the existence of files in the specified order "
                + "and uses the first found file for request processing; otherwise, makes an internal redirect to "
                + "the last parameter."),
        Directive.of("post_action", MSLI, Arity.TAKE1, LOC,
            Slots.str((HttpCoreLocConf c, String v) -> c.postAction = v))
            .syntax("uri").describe("Defines a URI that gets a subrequest once the response is sent (undocumented in "
                + "nginx)."),
        Directive.of("error_log", MSL, Arity.ONE_MORE, LOC, CoreDirectives::errorLog).multi()
            .syntax("file [level]").defaults("logs/error.log error").describe("Configures logging for the http, "
                + "server or location level: the file (or stderr) and the minimum severity level."),
        Directive.of("open_file_cache", MSL, Arity.TAKE12, LOC, CoreDirectives::openFileCache)
            .syntax("off", "max=N [inactive=time]").defaults("off").describe("Configures a cache that can store open "
                + "file descriptors, their sizes and modification times, directory existence and file lookup errors."),
        Directive.of("open_file_cache_valid", MSL, Arity.TAKE1, LOC,
            Slots.sec((HttpCoreLocConf c, long v) -> c.openFileCacheValid = v))
            .syntax("time").defaults("60s").describe("Sets a time after which open_file_cache elements should be "
                + "validated."),
        locNumber("open_file_cache_min_uses", (c, v) -> c.openFileCacheMinUses = v)
            .syntax("number").defaults("1").describe("Sets the minimum number of file accesses during the inactive "
                + "period of open_file_cache for a file descriptor to remain open in the cache."),
        locFlag("open_file_cache_errors", MSL, (c, v) -> c.openFileCacheErrors = v)
            .syntax("on | off").defaults("off").describe("Enables or disables caching of file lookup errors by "
                + "open_file_cache."),
        locFlag("open_file_cache_events", MSL, (c, v) -> c.openFileCacheEvents = v)
            .syntax("on | off").defaults("off").describe("Enables or disables kernel events to validate "
                + "open_file_cache elements (undocumented in nginx)."),
        locFlag("gzip_vary", MSL, (c, v) -> c.gzipVary = v)
            .syntax("on | off").defaults("off").describe("Enables or disables inserting the Vary: Accept-Encoding "
                + "response header field if gzip, gzip_static or gunzip are active."),
        Directive.of("gzip_http_version", MSL, Arity.TAKE1, LOC,
            Slots.oneOf(Map.of("1.0", HttpRequest.VERSION_10, "1.1", HttpRequest.VERSION_11),
                (HttpCoreLocConf c, Integer v) -> c.gzipHttpVersion = v))
            .syntax("1.0 | 1.1").defaults("1.1").describe("Sets the minimum HTTP version of a request required to "
                + "compress a response."),
        Directive.of("gzip_proxied", MSL, Arity.ONE_MORE, LOC, CoreDirectives.gzipProxied())
            .syntax("off | expired | no-cache | no-store | private | no_last_modified | no_etag | auth | any ...")
            .defaults("off").describe("Enables or disables gzipping of responses for proxied requests depending on "
                + "the request and response."),
        Directive.of("gzip_disable", MSL, Arity.ONE_MORE, LOC, CoreDirectives::gzipDisable).multi()
            .syntax("regex ...").describe("Disables gzipping of responses for requests with User-Agent header fields "
                + "matching any of the specified regular expressions."));

    /**
     * The module; the kernel makes one per cycle.
     */
    public HttpCoreModule() {
    }

    private static Directive<HttpCoreSrvConf> srvSize(String name, ObjLongConsumer<HttpCoreSrvConf> set) {
        return Directive.of(name, MS, Arity.TAKE1, SRV, Slots.size(set));
    }

    private static Directive<HttpCoreSrvConf> srvFlag(String name, ObjIntConsumer<HttpCoreSrvConf> set) {
        return Directive.of(name, MS, Arity.FLAG, SRV, Slots.flag((HttpCoreSrvConf c, boolean on) ->
            set.accept(c, on ? 1 : 0)));
    }

    private static Directive<HttpCoreLocConf> locFlag(String name, Set<Ctx> where,
                                                      ObjIntConsumer<HttpCoreLocConf> set) {
        return Directive.of(name, where, Arity.FLAG, LOC, Slots.flag((HttpCoreLocConf c, boolean on) ->
            set.accept(c, on ? 1 : 0)));
    }

    private static Directive<HttpCoreLocConf> locSize(String name, ObjLongConsumer<HttpCoreLocConf> set) {
        return Directive.of(name, MSL, Arity.TAKE1, LOC, Slots.size(set));
    }

    private static Directive<HttpCoreLocConf> locMsec(String name, ObjLongConsumer<HttpCoreLocConf> set) {
        return Directive.of(name, MSL, Arity.TAKE1, LOC, Slots.msec(set));
    }

    private static Directive<HttpCoreLocConf> locNumber(String name, ObjIntConsumer<HttpCoreLocConf> set) {
        return Directive.of(name, MSL, Arity.TAKE1, LOC, Slots.number(set));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return HttpCtx.HTTP;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
    }

    @Override
    public List<Directive<?>> directives() {
        return DIRECTIVES;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public Object createMainConf() {
        return new HttpCoreMainConf();
    }

    @Override
    public void initMainConf(Object conf) {
        CoreMerge.initMainConf((HttpCoreMainConf) conf);
    }

    @Override
    public Object createSrvConf() {
        return new HttpCoreSrvConf();
    }

    @Override
    public void mergeSrvConf(Object parent, Object child) throws ConfException {
        CoreMerge.mergeSrvConf((HttpCoreSrvConf) parent, (HttpCoreSrvConf) child);
    }

    @Override
    public Object createLocConf() {
        return new HttpCoreLocConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) throws ConfException {
        CoreMerge.mergeLocConf((HttpCoreLocConf) parent, (HttpCoreLocConf) child);
    }

    // ---- helpers for the other parts of the core and for other modules ----------------------------------------

    /**
     * Returns {@code http_core}'s location conf among a block's module confs.
     *
     * @param ctx the block's confs
     * @return the location conf
     */
    public static HttpCoreLocConf locConf(HttpConfCtx ctx) {
        return locConf(ctx.locConf);
    }

    /**
     * Returns {@code http_core}'s location conf among module location confs (the only one of its class).
     *
     * @param locConfs the module location confs of a block
     * @return the location conf
     * @throws IllegalStateException when there is none
     */
    public static HttpCoreLocConf locConf(Object[] locConfs) {
        for (Object o : locConfs) {
            if (o instanceof HttpCoreLocConf c) {
                return c;
            }
        }
        throw new IllegalStateException("no " + NAME + " location conf");
    }

    /**
     * Returns {@code http_core}'s server conf among module server confs.
     *
     * @param srvConfs the module server confs of a block
     * @return the server conf
     */
    public static HttpCoreSrvConf srvConf(Object[] srvConfs) {
        for (Object o : srvConfs) {
            if (o instanceof HttpCoreSrvConf c) {
                return c;
            }
        }
        throw new IllegalStateException("no " + NAME + " server conf");
    }

    /** The variables of a cycle's block: the {@code http_variables} module's, or a registry of its own. */
    static Variables newVariables(Cycle cycle) {
        return cycle.module("http_variables") != null ? Variables.of(cycle) : new Variables();
    }

    /**
     * Returns the variable registry of the {@code http {}} block a directive stands in.
     *
     * @param cf the directive's context
     * @return the registry
     */
    public static Variables variables(ConfContext cf) {
        return HttpScope.of(cf).block().core().variables;
    }

    /**
     * Compiles a regex of the configuration as nginx's {@code ngx_http_regex_compile()} does: its named groups
     * become variables ({@code (?<name>...)} makes {@code $name}, read through {@link Captures.Holder}), and the
     * block's {@link HttpCoreMainConf#ncaptures} grows to its group count. For {@code location ~}, {@code if},
     * {@code map}, {@code rewrite}, {@code server_name ~} ...
     *
     * @param cf the directive's context
     * @param source the regex as written
     * @param caseless true for a case-insensitive regex
     * @return the regex
     * @throws ConfException for a regex Java refuses or cannot run
     */
    public static HttpRegex compileRegex(ConfContext cf, String source, boolean caseless) throws ConfException {
        HttpRegex re = HttpRegex.compile(source, caseless);
        HttpCoreMainConf cmcf = HttpScope.of(cf).block().core();
        cmcf.ncaptures = Math.max(cmcf.ncaptures, re.captureCount());
        List<String> names = re.names();
        for (int g = 0; g < names.size(); g++) {
            String name = names.get(g);
            if (name == null) {
                continue;
            }
            cmcf.variables.add(name, (r, n) -> r instanceof Captures.Holder h ? h.captures().group(name) : null,
                HttpConfig.VAR_CHANGEABLE | HttpConfig.VAR_NOCACHEABLE);
            re.variables[g] = cmcf.variables.index(cf, name);
        }
        return re;
    }

    /**
     * Makes the confs of a block that is a location without a name of its own inside the current block, as
     * {@code if {}} does (nginx's {@code ngx_http_rewrite_if()}: new location confs for every module, the
     * {@code http_core} one marked {@code noname}, named as the enclosing location, and added to its locations so
     * that it is merged with them; it is not part of the location tree). The caller parses the block with
     * {@code cf.parseBlock(HttpScope.of(cf).nested(HttpCtx.LIF, ctx))} ({@link HttpCtx#SIF} in a server) and
     * points requests at {@code ctx.locConf} when the condition holds.
     *
     * @param cf the directive's context
     * @return the new block's confs
     */
    public static HttpConfCtx nonameLocation(ConfContext cf) {
        HttpScope parent = HttpScope.of(cf);
        HttpConfCtx pctx = parent.confs();
        HttpConfCtx ctx = new HttpConfCtx(pctx.mainConf, pctx.srvConf, parent.block().createLocConfs());
        HttpCoreLocConf pclcf = locConf(pctx);
        HttpCoreLocConf clcf = locConf(ctx);
        clcf.name = pclcf.name;
        clcf.noname = true;
        clcf.file = cf.file();
        clcf.line = cf.line();
        LocationBuilder.add(pclcf, clcf, cf.file(), cf.line());
        return ctx;
    }

    /** The names of {@code server_name}'s {@code $hostname}: the machine's name, lower case. */
    static String hostname() {
        try {
            String h = new String(Files.readAllBytes(Path.of("/proc/sys/kernel/hostname")),
                StandardCharsets.ISO_8859_1).trim();
            if (!h.isEmpty()) {
                return CoreDirectives.lowerAscii(h);
            }
        } catch (IOException | RuntimeException e) {
            // fall back to Java's idea of it
        }
        try {
            return CoreDirectives.lowerAscii(InetAddress.getLocalHost().getHostName());
        } catch (IOException e) {
            return "localhost";
        }
    }
}
