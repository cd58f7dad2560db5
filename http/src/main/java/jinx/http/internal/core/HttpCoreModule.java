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

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("variables_hash_max_size", M, Arity.TAKE1, MAIN,
            Slots.number((HttpCoreMainConf c, int v) -> c.variablesHashMaxSize = v)),
        Directive.of("variables_hash_bucket_size", M, Arity.TAKE1, MAIN,
            Slots.number((HttpCoreMainConf c, int v) -> c.variablesHashBucketSize = v)),
        Directive.of("server_names_hash_max_size", M, Arity.TAKE1, MAIN,
            Slots.number((HttpCoreMainConf c, int v) -> c.serverNamesHashMaxSize = v)),
        Directive.of("server_names_hash_bucket_size", M, Arity.TAKE1, MAIN,
            Slots.number((HttpCoreMainConf c, int v) -> c.serverNamesHashBucketSize = v)),
        Directive.of("server", M, Arity.BLOCK | Arity.NOARGS, CoreBlocks::server).multi(),
        srvSize("connection_pool_size", (c, v) -> c.connectionPoolSize = v),
        srvSize("request_pool_size", (c, v) -> c.requestPoolSize = v),
        Directive.of("client_header_timeout", MS, Arity.TAKE1, SRV,
            Slots.msec((HttpCoreSrvConf c, long v) -> c.clientHeaderTimeout = v)),
        srvSize("client_header_buffer_size", (c, v) -> c.clientHeaderBufferSize = v),
        Directive.of("large_client_header_buffers", MS, Arity.TAKE2, SRV, CoreDirectives::largeBuffers),
        srvFlag("ignore_invalid_headers", (c, v) -> c.ignoreInvalidHeaders = v),
        srvFlag("merge_slashes", (c, v) -> c.mergeSlashes = v),
        srvFlag("underscores_in_headers", (c, v) -> c.underscoresInHeaders = v),
        Directive.of("location", SL, Arity.BLOCK | Arity.TAKE12, CoreBlocks::location).multi(),
        Directive.of("listen", S, Arity.ONE_MORE, SRV, ListenDirective::listen).multi(),
        Directive.of("server_name", S, Arity.ONE_MORE, SRV, CoreDirectives::serverName).multi(),
        locNumber("types_hash_max_size", (c, v) -> c.typesHashMaxSize = v),
        locNumber("types_hash_bucket_size", (c, v) -> c.typesHashBucketSize = v),
        Directive.of("types", MSL, Arity.BLOCK | Arity.NOARGS, LOC, CoreBlocks::types).multi(),
        Directive.of("default_type", MSL, Arity.TAKE1, LOC,
            Slots.str((HttpCoreLocConf c, String v) -> c.defaultType = v)),
        Directive.of("root", MSLI, Arity.TAKE1, LOC, CoreDirectives::root),
        Directive.of("alias", L, Arity.TAKE1, LOC, CoreDirectives::root),
        Directive.of("limit_except", L, Arity.BLOCK | Arity.ONE_MORE, LOC, CoreBlocks::limitExcept),
        Directive.of("client_max_body_size", MSL, Arity.TAKE1, LOC,
            Slots.offset((HttpCoreLocConf c, long v) -> c.clientMaxBodySize = v)),
        locSize("client_body_buffer_size", (c, v) -> c.clientBodyBufferSize = v),
        locMsec("client_body_timeout", (c, v) -> c.clientBodyTimeout = v),
        Directive.of("client_body_temp_path", MSL, Arity.TAKE1234, LOC, CoreDirectives::clientBodyTempPath),
        Directive.of("client_body_in_file_only", MSL, Arity.TAKE1, LOC,
            Slots.oneOf(Map.of("off", HttpCoreLocConf.BODY_FILE_OFF, "on", HttpCoreLocConf.BODY_FILE_ON,
                "clean", HttpCoreLocConf.BODY_FILE_CLEAN),
                (HttpCoreLocConf c, Integer v) -> c.clientBodyInFileOnly = v)),
        locFlag("client_body_in_single_buffer", MSL, (c, v) -> c.clientBodyInSingleBuffer = v),
        locFlag("sendfile", MSLI, (c, v) -> c.sendfile = v),
        locSize("sendfile_max_chunk", (c, v) -> c.sendfileMaxChunk = v),
        locSize("subrequest_output_buffer_size", (c, v) -> c.subrequestOutputBufferSize = v),
        Directive.of("aio", MSL, Arity.TAKE1, LOC, CoreDirectives::aio),
        locFlag("aio_write", MSL, (c, v) -> c.aioWrite = v),
        locSize("read_ahead", (c, v) -> c.readAhead = v),
        Directive.of("directio", MSL, Arity.TAKE1, LOC, CoreDirectives::directio),
        Directive.of("directio_alignment", MSL, Arity.TAKE1, LOC,
            Slots.offset((HttpCoreLocConf c, long v) -> c.directioAlignment = v)),
        locFlag("tcp_nopush", MSL, (c, v) -> c.tcpNopush = v),
        locFlag("tcp_nodelay", MSL, (c, v) -> c.tcpNodelay = v),
        locMsec("send_timeout", (c, v) -> c.sendTimeout = v),
        Directive.of("send_lowat", MSL, Arity.TAKE1, LOC, CoreDirectives::sendLowat),
        locSize("postpone_output", (c, v) -> c.postponeOutput = v),
        Directive.of("limit_rate", MSLI, Arity.TAKE1, LOC,
            Slots.size((HttpCoreLocConf c, long v) -> c.limitRate = v)),
        Directive.of("limit_rate_after", MSLI, Arity.TAKE1, LOC,
            Slots.size((HttpCoreLocConf c, long v) -> c.limitRateAfter = v)),
        locMsec("keepalive_time", (c, v) -> c.keepaliveTime = v),
        Directive.of("keepalive_timeout", MSL, Arity.TAKE12, LOC, CoreDirectives::keepaliveTimeout),
        locNumber("keepalive_requests", (c, v) -> c.keepaliveRequests = v),
        Directive.of("keepalive_disable", MSL, Arity.TAKE12, LOC,
            Slots.bitmask(Map.of("none", HttpCoreLocConf.KEEPALIVE_DISABLE_NONE,
                "msie6", HttpCoreLocConf.KEEPALIVE_DISABLE_MSIE6,
                "safari", HttpCoreLocConf.KEEPALIVE_DISABLE_SAFARI),
                (HttpCoreLocConf c, int v) -> c.keepaliveDisable = v)),
        Directive.of("satisfy", MSL, Arity.TAKE1, LOC,
            Slots.oneOf(Map.of("all", HttpCoreLocConf.SATISFY_ALL, "any", HttpCoreLocConf.SATISFY_ANY),
                (HttpCoreLocConf c, Integer v) -> c.satisfy = v)),
        locMsec("auth_delay", (c, v) -> c.authDelay = v),
        Directive.of("internal", L, Arity.NOARGS, LOC, (cf, c) -> c.internal = 1),
        Directive.of("lingering_close", MSL, Arity.TAKE1, LOC,
            Slots.oneOf(Map.of("off", HttpCoreLocConf.LINGERING_OFF, "on", HttpCoreLocConf.LINGERING_ON,
                "always", HttpCoreLocConf.LINGERING_ALWAYS),
                (HttpCoreLocConf c, Integer v) -> c.lingeringClose = v)),
        locMsec("lingering_time", (c, v) -> c.lingeringTime = v),
        locMsec("lingering_timeout", (c, v) -> c.lingeringTimeout = v),
        locFlag("reset_timedout_connection", MSL, (c, v) -> c.resetTimedoutConnection = v),
        locFlag("absolute_redirect", MSL, (c, v) -> c.absoluteRedirect = v),
        locFlag("server_name_in_redirect", MSL, (c, v) -> c.serverNameInRedirect = v),
        locFlag("port_in_redirect", MSL, (c, v) -> c.portInRedirect = v),
        locFlag("msie_padding", MSL, (c, v) -> c.msiePadding = v),
        locFlag("msie_refresh", MSL, (c, v) -> c.msieRefresh = v),
        locFlag("log_not_found", MSL, (c, v) -> c.logNotFound = v),
        locFlag("log_subrequest", MSL, (c, v) -> c.logSubrequest = v),
        locFlag("recursive_error_pages", MSL, (c, v) -> c.recursiveErrorPages = v),
        Directive.of("server_tokens", MSL, Arity.TAKE1, LOC,
            Slots.oneOf(Map.of("off", HttpCoreLocConf.SERVER_TOKENS_OFF, "on", HttpCoreLocConf.SERVER_TOKENS_ON,
                "build", HttpCoreLocConf.SERVER_TOKENS_BUILD),
                (HttpCoreLocConf c, Integer v) -> c.serverTokens = v)),
        Directive.of("if_modified_since", MSL, Arity.TAKE1, LOC,
            Slots.oneOf(Map.of("off", HttpCoreLocConf.IMS_OFF, "exact", HttpCoreLocConf.IMS_EXACT,
                "before", HttpCoreLocConf.IMS_BEFORE),
                (HttpCoreLocConf c, Integer v) -> c.ifModifiedSince = v)),
        locNumber("max_ranges", (c, v) -> c.maxRanges = v),
        locFlag("chunked_transfer_encoding", MSL, (c, v) -> c.chunkedTransferEncoding = v),
        locFlag("etag", MSL, (c, v) -> c.etag = v),
        Directive.of("error_page", MSLI, Arity.TWO_MORE, LOC, CoreDirectives::errorPage).multi(),
        Directive.of("try_files", SL, Arity.TWO_MORE, LOC, CoreDirectives::tryFiles),
        Directive.of("post_action", MSLI, Arity.TAKE1, LOC,
            Slots.str((HttpCoreLocConf c, String v) -> c.postAction = v)),
        Directive.of("error_log", MSL, Arity.ONE_MORE, LOC, CoreDirectives::errorLog).multi(),
        Directive.of("open_file_cache", MSL, Arity.TAKE12, LOC, CoreDirectives::openFileCache),
        Directive.of("open_file_cache_valid", MSL, Arity.TAKE1, LOC,
            Slots.sec((HttpCoreLocConf c, long v) -> c.openFileCacheValid = v)),
        locNumber("open_file_cache_min_uses", (c, v) -> c.openFileCacheMinUses = v),
        locFlag("open_file_cache_errors", MSL, (c, v) -> c.openFileCacheErrors = v),
        locFlag("open_file_cache_events", MSL, (c, v) -> c.openFileCacheEvents = v),
        locFlag("gzip_vary", MSL, (c, v) -> c.gzipVary = v),
        Directive.of("gzip_http_version", MSL, Arity.TAKE1, LOC,
            Slots.oneOf(Map.of("1.0", HttpRequest.VERSION_10, "1.1", HttpRequest.VERSION_11),
                (HttpCoreLocConf c, Integer v) -> c.gzipHttpVersion = v)),
        Directive.of("gzip_proxied", MSL, Arity.ONE_MORE, LOC, CoreDirectives.gzipProxied()),
        Directive.of("gzip_disable", MSL, Arity.ONE_MORE, LOC, CoreDirectives::gzipDisable).multi());

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
    static HttpCoreSrvConf srvConf(Object[] srvConfs) {
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
