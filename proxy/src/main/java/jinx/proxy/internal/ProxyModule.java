package jinx.proxy.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import jinx.http.HttpRequest;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.http.spi.HttpModule;
import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.TempPath;
import jinx.kernel.TlsClient;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;
import jinx.proxy.upstream.LocalAddress;
import jinx.proxy.upstream.Resolver;
import jinx.proxy.upstream.Upstream;
import jinx.proxy.upstream.UpstreamSsl;

/**
 * The {@code http_proxy} module: nginx's {@code ngx_http_proxy_module.c}. {@code proxy_pass} makes the location's
 * content handler pass each request to an upstream ({@link ProxyRequest}); the other directives shape the request
 * sent, the response passed back and the timeouts, retries and buffers in between. Written on the exported API
 * of {@code jinx.http} and {@code jinx.kernel} only, as a third party would write it.
 */
public final class ProxyModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_proxy";

    private static final Set<Ctx> LOC = Set.of(HttpCtx.LOC, HttpCtx.LIF);
    private static final Set<Ctx> ANY = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);

    private static final Map<String, Integer> NEXT_UPSTREAM = Map.ofEntries(
        Map.entry("error", ProxyLocConf.FT_ERROR),
        Map.entry("timeout", ProxyLocConf.FT_TIMEOUT),
        Map.entry("invalid_header", ProxyLocConf.FT_INVALID_HEADER),
        Map.entry("http_500", ProxyLocConf.FT_HTTP_500),
        Map.entry("http_502", ProxyLocConf.FT_HTTP_502),
        Map.entry("http_503", ProxyLocConf.FT_HTTP_503),
        Map.entry("http_504", ProxyLocConf.FT_HTTP_504),
        Map.entry("http_403", ProxyLocConf.FT_HTTP_403),
        Map.entry("http_404", ProxyLocConf.FT_HTTP_404),
        Map.entry("http_429", ProxyLocConf.FT_HTTP_429),
        Map.entry("non_idempotent", ProxyLocConf.FT_NON_IDEMPOTENT),
        Map.entry("off", ProxyLocConf.FT_OFF));

    private static final Map<String, Integer> IGNORE_HEADERS = Map.of(
        "X-Accel-Redirect", ProxyAccel.IGN_XA_REDIRECT,
        "X-Accel-Expires", ProxyAccel.IGN_XA_EXPIRES,
        "X-Accel-Limit-Rate", ProxyAccel.IGN_XA_LIMIT_RATE,
        "X-Accel-Buffering", ProxyAccel.IGN_XA_BUFFERING,
        "X-Accel-Charset", ProxyAccel.IGN_XA_CHARSET,
        "Expires", ProxyAccel.IGN_EXPIRES,
        "Cache-Control", ProxyAccel.IGN_CACHE_CONTROL,
        "Set-Cookie", ProxyAccel.IGN_SET_COOKIE,
        "Vary", ProxyAccel.IGN_VARY);

    private final List<Directive<?>> directives = List.of(
        Directive.of("proxy_pass", LOC, Arity.TAKE1, ProxyLocConf.class, this::proxyPass)
            .syntax("URL").describe("Sets the protocol and address of a proxied server and an optional URI."),
        Directive.of("health_check", Set.of(HttpCtx.LOC), Arity.ANY, ProxyLocConf.class, HttpHealthChecks::directive).multi()
            .syntax("[interval=time] [fails=number] [passes=number] [uri=uri] [port=number] [match=name] "
                + "[mandatory]")
            .describe("Probes the servers of the upstream this location proxies to (it needs a zone) every "
                + "interval; a server failing fails probes in a row gets no requests until it passes passes."),
        Directive.of("proxy_set_header", ANY, Arity.TAKE2, ProxyLocConf.class, ProxyModule::setHeader).multi()
            .syntax("field value").defaults("Host $proxy_host; Connection close")
            .describe("Redefines or appends a field of the request header passed to the proxied server."),
        Directive.of("proxy_hide_header", ANY, Arity.TAKE1, ProxyLocConf.class,
                (cf, c) -> (c.hideHeaders = ProxyLocConf.list(c.hideHeaders)).add(lower(cf.arg(1)))).multi()
            .syntax("field").describe("Hides a field of the proxied server's response header from the client."),
        Directive.of("proxy_pass_header", ANY, Arity.TAKE1, ProxyLocConf.class,
                (cf, c) -> (c.passHeaders = ProxyLocConf.list(c.passHeaders)).add(lower(cf.arg(1)))).multi()
            .syntax("field").describe("Passes a header field that is hidden by default (Date, Server, X-Accel-...)."),
        Directive.of("proxy_http_version", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.oneOf(Map.of("1.0", HttpRequest.VERSION_10, "1.1", HttpRequest.VERSION_11),
                    (ProxyLocConf c, Integer v) -> c.httpVersion = v))
            .syntax("1.0 | 1.1").defaults("1.0").describe("Sets the HTTP protocol version for proxying."),
        Directive.of("proxy_method", ANY, Arity.TAKE1, ProxyLocConf.class,
                (cf, c) -> c.method = HttpDirectives.compile(cf, cf.arg(1)))
            .syntax("method").describe("Specifies the HTTP method to use in requests forwarded to the proxied server."),
        Directive.of("resolver", ANY, Arity.ONE_MORE, ProxyLocConf.class,
                (cf, c) -> c.resolver = Resolver.create(cf.args().subList(1, cf.args().size())))
            .syntax("address ... [valid=time] [ipv4=on|off] [ipv6=on|off] [status_zone=zone]")
            .describe("Configures name servers used to resolve names of upstream servers into addresses."),
        Directive.of("resolver_timeout", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.msec((ProxyLocConf c, long v) -> c.resolverTimeout = v))
            .syntax("time").defaults("30s").describe("Sets a timeout for name resolution."),
        Directive.of("proxy_connect_timeout", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.msec((ProxyLocConf c, long v) -> c.connectTimeout = v))
            .syntax("time").defaults("60s").describe("Defines a timeout for establishing a connection."),
        Directive.of("proxy_send_timeout", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.msec((ProxyLocConf c, long v) -> c.sendTimeout = v))
            .syntax("time").defaults("60s").describe("Sets a timeout between two writes of the request."),
        Directive.of("proxy_read_timeout", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.msec((ProxyLocConf c, long v) -> c.readTimeout = v))
            .syntax("time").defaults("60s").describe("Defines a timeout between two reads of the response."),
        Directive.of("proxy_buffering", ANY, Arity.FLAG, ProxyLocConf.class,
                Slots.flag((ProxyLocConf c, boolean on) -> c.buffering = on ? 1 : 0))
            .syntax("on | off").defaults("on").describe("Enables or disables buffering of responses."),
        Directive.of("proxy_buffer_size", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.size((ProxyLocConf c, long v) -> c.bufferSize = v))
            .syntax("size").defaults("4k|8k").describe("Sets the size of the buffer for the response header."),
        Directive.of("proxy_buffers", ANY, Arity.TAKE2, ProxyLocConf.class, ProxyModule::buffers)
            .syntax("number size").defaults("8 4k|8k")
            .describe("Sets the number and size of the buffers for the response of one connection."),
        Directive.of("proxy_pass_request_headers", ANY, Arity.FLAG, ProxyLocConf.class,
                Slots.flag((ProxyLocConf c, boolean on) -> c.passRequestHeaders = on ? 1 : 0))
            .syntax("on | off").defaults("on").describe("Passes the client's header fields to the proxied server."),
        Directive.of("proxy_request_buffering", ANY, Arity.FLAG, ProxyLocConf.class,
                Slots.flag((ProxyLocConf c, boolean on) -> c.requestBuffering = on ? 1 : 0))
            .syntax("on | off").defaults("on")
            .describe("Reads the whole client body before proxying (on), or passes it on as it comes (off)."),
        Directive.of("proxy_pass_request_body", ANY, Arity.FLAG, ProxyLocConf.class,
                Slots.flag((ProxyLocConf c, boolean on) -> c.passRequestBody = on ? 1 : 0))
            .syntax("on | off").defaults("on").describe("Passes the client's request body to the proxied server."),
        Directive.of("proxy_next_upstream", ANY, Arity.ONE_MORE, ProxyLocConf.class,
                Slots.bitmask(NEXT_UPSTREAM, (ProxyLocConf c, int v) -> c.nextUpstream = v))
            .syntax("error | timeout | invalid_header | http_500 | http_502 | http_503 | http_504 | http_403 | "
                + "http_404 | http_429 | non_idempotent | off ...").defaults("error timeout")
            .describe("Specifies in which cases a request is passed to the next server."),
        Directive.of("proxy_next_upstream_tries", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.number((ProxyLocConf c, int v) -> c.nextUpstreamTries = v))
            .syntax("number").defaults("0").describe("Limits the number of tries for passing a request on."),
        Directive.of("proxy_next_upstream_timeout", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.msec((ProxyLocConf c, long v) -> c.nextUpstreamTimeout = v))
            .syntax("time").defaults("0").describe("Limits the time during which a request can be passed on."),
        Directive.of("proxy_socket_keepalive", ANY, Arity.FLAG, ProxyLocConf.class,
                Slots.flag((ProxyLocConf c, boolean on) -> c.socketKeepalive = on ? 1 : 0))
            .syntax("on | off").defaults("off").describe("Sets SO_KEEPALIVE on connections to the proxied server."),
        Directive.of("proxy_intercept_errors", ANY, Arity.FLAG, ProxyLocConf.class,
                Slots.flag((ProxyLocConf c, boolean on) -> c.interceptErrors = on ? 1 : 0))
            .syntax("on | off").defaults("off")
            .describe("Passes responses with codes 300 and up to error_page rather than to the client."),
        Directive.of("proxy_ignore_headers", ANY, Arity.ONE_MORE, ProxyLocConf.class,
                Slots.bitmask(IGNORE_HEADERS, (ProxyLocConf c, int v) -> c.ignoreHeaders = v))
            .syntax("field ...")
            .describe("Disables processing of the named response header fields (X-Accel-*, Expires, ...)."),
        Directive.of("proxy_cookie_domain", ANY, Arity.TAKE12, ProxyLocConf.class, ProxyCookieConf::domain).multi()
            .syntax("off", "domain replacement").defaults("off")
            .describe("Sets the text to change in the domain attribute of the Set-Cookie header fields."),
        Directive.of("proxy_cookie_path", ANY, Arity.TAKE12, ProxyLocConf.class, ProxyCookieConf::path).multi()
            .syntax("off", "path replacement").defaults("off")
            .describe("Sets the text to change in the path attribute of the Set-Cookie header fields."),
        Directive.of("proxy_cookie_flags", ANY, Arity.ONE_MORE, ProxyLocConf.class, ProxyCookieConf::flags).multi()
            .syntax("off | cookie [flag ...]").defaults("off")
            .describe("Sets one or more flags for the cookie (secure, httponly, samesite=..., and their no forms)."),
        Directive.of("proxy_busy_buffers_size", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.size((ProxyLocConf c, long v) -> c.busyBuffersSizeConf = v))
            .syntax("size").defaults("8k|16k")
            .describe("Limits the size of buffers that can be busy sending a response while it is not fully read."),
        Directive.of("proxy_temp_path", ANY, Arity.TAKE1234, ProxyLocConf.class, ProxyModule::tempPath)
            .syntax("path [level1 [level2 [level3]]]").defaults("proxy_temp")
            .describe("Sets the directory of the temporary files a buffered response is written to."),
        Directive.of("proxy_max_temp_file_size", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.size((ProxyLocConf c, long v) -> c.maxTempFileSizeConf = v))
            .syntax("size").defaults("1024m")
            .describe("Limits the temporary file of one response; 0 reads the upstream only as fast as the client."),
        Directive.of("proxy_temp_file_write_size", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.size((ProxyLocConf c, long v) -> c.tempFileWriteSizeConf = v))
            .syntax("size").defaults("8k|16k")
            .describe("Limits the data written to a temporary file at a time."),
        Directive.of("proxy_limit_rate", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.size((ProxyLocConf c, long v) -> c.limitRate = v))
            .syntax("rate").defaults("0")
            .describe("Limits the speed of reading the response from the proxied server, in bytes per second."),
        Directive.of("proxy_ignore_client_abort", ANY, Arity.FLAG, ProxyLocConf.class,
                Slots.flag((ProxyLocConf c, boolean on) -> c.ignoreClientAbort = on ? 1 : 0))
            .syntax("on | off").defaults("off")
            .describe("Whether the proxied request goes on when the client closes the connection first."),
        Directive.of("proxy_headers_hash_max_size", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.size((ProxyLocConf c, long v) -> c.headersHashMaxSize = v))
            .syntax("size").defaults("512")
            .describe("Sizes nginx's header hash table; accepted and kept: Java's tables need no sizing."),
        Directive.of("proxy_headers_hash_bucket_size", ANY, Arity.TAKE1, ProxyLocConf.class,
                Slots.size((ProxyLocConf c, long v) -> c.headersHashBucketSize = v))
            .syntax("size").defaults("64")
            .describe("Sizes nginx's header hash buckets; accepted and kept: Java's tables need no sizing."),
        Directive.of("proxy_set_body", ANY, Arity.TAKE1, ProxyLocConf.class,
                (cf, c) -> c.body = HttpDirectives.compile(cf, cf.arg(1)))
            .syntax("value").describe("Sets the request body passed to the proxied server, in place of the client's."),
        Directive.of("proxy_bind", ANY, Arity.TAKE12, ProxyLocConf.class, ProxyModule::bind)
            .syntax("address [transparent] | off")
            .describe("Makes connections to the proxied server originate from the local address given."),
        Directive.of("proxy_redirect", ANY, Arity.TAKE12, ProxyLocConf.class, ProxyModule::redirect).multi()
            .syntax("default", "off", "redirect replacement").defaults("default")
            .describe("Sets the text to change in the Location and Refresh fields of a proxied response."));

    private int ctxIndex = -1;
    private ProxyVariables variables;
    /** The cycle being configured, which creates the temporary files' paths. */
    private Cycle cycle;
    /** nginx's {@code NGX_HTTP_PROXY_TEMP_PATH}: {@code proxy_temp} under the prefix, levels 1:2. */
    private TempPath defaultTempPath;

    /** Instantiated by the kernel, once per configuration. */
    public ProxyModule() {
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
        return ApiVersion.CURRENT;
    }

    @Override
    public List<Directive<?>> directives() {
        List<Directive<?>> all = new ArrayList<>(directives);
        all.addAll(UpstreamSsl.directives(ANY, ProxyLocConf.class, c -> c.ssl,
            (cf, c) -> c.ssl.name = HttpDirectives.compile(cf, cf.arg(1))));
        return all;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public Object createLocConf() {
        return new ProxyLocConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) throws ConfException {
        ProxyLocConf conf = (ProxyLocConf) child;
        ProxyMerge.merge((ProxyLocConf) parent, conf, defaultTempPath);
        // nginx's ngx_conf_merge_path_value(): the path in force, the default too, is made by the master
        cycle.addPath(conf.tempPath);
    }

    @Override
    public void preconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cycle = cf.cycle();
        defaultTempPath = new TempPath(cycle.prefix().resolve("proxy_temp"), new int[] {1, 2});
        variables = new ProxyVariables(ctxIndex);
        variables.register(cf);
    }

    private int handler(HttpRequest r) {
        ProxyLocConf plcf = (ProxyLocConf) r.locConf(ctxIndex);
        ProxyPass pass = plcf.pass;
        Upstream upstream;
        if (plcf.passValue != null) {
            ProxyEval.Target t = ProxyEval.eval(r, plcf);
            if (t.status() != 0) {
                return t.status();
            }
            pass = t.pass();
            upstream = t.upstream();
        } else {
            upstream = pass.reference().resolved;
        }
        ProxyRequest p = new ProxyRequest(r, plcf, pass, upstream);
        r.ctx(ctxIndex, p);
        r.keptCtx(ctxIndex, p);
        return p.handle();
    }

    private void proxyPass(ConfContext cf, ProxyLocConf conf) throws ConfException {
        if (conf.pass != null || conf.passValue != null) {
            throw new ConfException("\"proxy_pass\" directive is duplicate");
        }
        String url = cf.arg(1);
        conf.ssl.provider = TlsClient.provider(cf.cycle());
        if (url.indexOf('$') >= 0) {
            conf.passValue = HttpDirectives.compile(cf, url);
            conf.umcf = UpstreamModule.mainConf(cf);
            // nginx with SSL makes a client context for a URL of variables, which may be https://
            conf.ssl.needed = conf.ssl.provider != null;
            HttpDirectives.contentHandler(cf, this::handler);
            return;
        }
        HttpDirectives.Location loc = HttpDirectives.location(cf);
        ProxyPass pass = ProxyPass.parse(url, loc.name(), cf.file(), cf.line(), UpstreamModule.mainConf(cf),
            conf.ssl.provider != null);
        conf.ssl.needed = pass.ssl();
        if (pass.uri() != null && (loc.regex() || loc.named() || loc.noname())) {
            throw new ConfException("\"proxy_pass\" cannot have URI part in location given by regular expression, "
                + "or inside named location, or inside \"if\" statement, or inside \"limit_except\" block");
        }
        conf.pass = pass;
        HttpDirectives.contentHandler(cf, this::handler);
    }

    private static void setHeader(ConfContext cf, ProxyLocConf conf) throws ConfException {
        if (conf.setHeaders == null) {
            conf.setHeaders = new ArrayList<>();
        }
        String name = cf.arg(1);
        conf.setHeaders.add(new ProxyLocConf.HeaderLine(name, lower(name), HttpDirectives.compile(cf, cf.arg(2)),
            ProxyLocConf.VALUE));
    }

    /** nginx's {@code ngx_conf_set_path_slot}. */
    private static void tempPath(ConfContext cf, ProxyLocConf conf) throws ConfException {
        if (conf.tempPath != null) {
            throw new ConfException("\"proxy_temp_path\" directive is duplicate");
        }
        conf.tempPath = TempPath.parse(cf);
        cf.cycle().addPath(conf.tempPath);
    }

    /** nginx's {@code ngx_http_upstream_bind_set_slot()}. */
    private static void bind(ConfContext cf, ProxyLocConf conf) throws ConfException {
        if (conf.bindSet) {
            throw new ConfException("\"proxy_bind\" directive is duplicate");
        }
        conf.bindSet = true;
        Boolean transparent = LocalAddress.checkBind(cf.args());
        if (transparent != null) {
            conf.bindTransparent = transparent;
            conf.bind = HttpDirectives.compile(cf, cf.arg(1));
        }
    }

    private static void buffers(ConfContext cf, ProxyLocConf conf) throws ConfException {
        int n;
        try {
            n = Integer.parseInt(cf.arg(1));
        } catch (NumberFormatException e) {
            n = 0;
        }
        long size = ConfValues.parseSize(cf.arg(2));
        if (n <= 0 || size <= 0 || size > Integer.MAX_VALUE) {
            throw new ConfException("invalid value \"" + (n <= 0 ? cf.arg(1) : cf.arg(2)) + "\" in \""
                + cf.name() + "\" directive");
        }
        conf.buffersNum = n;
        conf.buffersSize = size;
    }

    private static void redirect(ConfContext cf, ProxyLocConf conf) throws ConfException {
        List<String> args = cf.args();
        if (conf.redirects == null) {
            conf.redirects = new ArrayList<>();
        }
        if (args.size() == 2) {
            String v = args.get(1);
            if (v.equals("off")) {
                conf.redirects.clear();
                conf.redirectDefault = false;
                return;
            }
            if (!v.equals("default")) {
                throw new ConfException("invalid parameter \"" + v + "\"");
            }
            conf.redirectDefault = true;
            return;
        }
        String from = args.get(1);
        String to = args.get(2);
        if (from.startsWith("~")) {
            boolean caseless = from.startsWith("~*");
            String re = from.substring(caseless ? 2 : 1);
            try {
                Pattern pattern = Pattern.compile(re, caseless ? Pattern.CASE_INSENSITIVE : 0);
                conf.redirects.add(new ProxyLocConf.Redirect(re, Values.fixed(to), true, pattern, caseless));
            } catch (PatternSyntaxException e) {
                throw new ConfException("pcre2_compile() failed: " + e.getDescription() + " in \"" + re + "\"");
            }
            return;
        }
        conf.redirects.add(new ProxyLocConf.Redirect(from, HttpDirectives.compile(cf, to), false, null, false));
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
