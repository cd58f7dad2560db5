package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreModule;
import jinx.http.internal.core.HttpRegex;
import jinx.http.internal.core.HttpScope;
import jinx.http.internal.core.ServerName;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.http.spi.HttpModule;
import jinx.kernel.ConfException;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code http_referer} module, nginx's {@code ngx_http_referer_module.c}: {@code valid_referers} lists the
 * {@code Referer} values a location accepts (host names with wildcards and an optional URI prefix, {@code ~}
 * regexes, {@code none}, {@code blocked}, {@code server_names}) and {@code $invalid_referer} is {@code "1"} for a
 * request whose {@code Referer} is not among them, empty otherwise. A {@code ~} regex is matched against what follows
 * the scheme, a regex server name of {@code server_names} against the lower-cased host alone, as in nginx 1.22. The variable exists only once a
 * {@code valid_referers} is written, as in nginx. {@code referer_hash_max_size} and
 * {@code referer_hash_bucket_size} are taken and checked as numbers; the names live in Java hash maps that need no
 * sizing, so they change nothing.
 */
public final class RefererModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_referer";

    private static final Set<Ctx> SL = Set.of(HttpCtx.SRV, HttpCtx.LOC);
    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);
    /** A host without a URI part: nginx's {@code NGX_HTTP_REFERER_NO_URI_PART}. */
    private static final String NO_URI_PART = "";
    private static final int UNSET = -1;
    /** The longest host nginx looks up (its {@code buf[256]}). */
    private static final int MAX_HOST = 256;

    /** The location conf: nginx's {@code ngx_http_referer_conf_t}. */
    static final class RefererConf {
        HostKeys<String> keys;
        List<HttpRegex> regex;
        boolean regexSet;
        /** The regexes of {@code server_names}, matched against the host alone. */
        List<HttpRegex> serverNameRegex;
        boolean serverNameRegexSet;
        int noReferer = UNSET;
        int blockedReferer = UNSET;
        int hashMaxSize = UNSET;
        int hashBucketSize = UNSET;
    }

    private final List<Directive<?>> directives = List.of(
        Directive.of("valid_referers", SL, Arity.ONE_MORE, RefererConf.class, this::validReferers).multi()
            .syntax("none | blocked | server_names | string ...").describe("Specifies the \"Referer\" request "
                + "header field values that will cause the embedded $invalid_referer variable to be set to an "
                + "empty string."),
        Directive.of("referer_hash_max_size", MSL, Arity.TAKE1, RefererConf.class,
            Slots.number((c, v) -> c.hashMaxSize = v))
            .syntax("size").describe("Sets the maximum size of the valid referers hash tables."),
        Directive.of("referer_hash_bucket_size", MSL, Arity.TAKE1, RefererConf.class,
            Slots.number((c, v) -> c.hashBucketSize = v))
            .syntax("size").describe("Sets the bucket size for the valid referers hash tables."));

    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public RefererModule() {
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
        return directives;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public void preconfiguration(HttpConfig cf) {
        ctxIndex = cf.ctxIndex(this);
    }

    @Override
    public Object createLocConf() {
        return new RefererConf();
    }

    /** nginx's {@code ngx_http_referer_merge_conf()}. */
    @Override
    public void mergeLocConf(Object parent, Object child) throws ConfException {
        RefererConf prev = (RefererConf) parent;
        RefererConf conf = (RefererConf) child;
        if (conf.hashMaxSize == UNSET) {
            conf.hashMaxSize = prev.hashMaxSize == UNSET ? 2048 : prev.hashMaxSize;
        }
        if (conf.hashBucketSize == UNSET) {
            conf.hashBucketSize = prev.hashBucketSize == UNSET ? 64 : prev.hashBucketSize;
        }
        if (!conf.regexSet) {
            conf.regex = prev.regex;
            conf.regexSet = prev.regexSet;
        }
        if (!conf.serverNameRegexSet) {
            conf.serverNameRegex = prev.serverNameRegex;
            conf.serverNameRegexSet = prev.serverNameRegexSet;
        }
        if (conf.keys == null) {
            conf.keys = prev.keys;
            conf.noReferer = conf.noReferer == UNSET ? Math.max(prev.noReferer, 0) : conf.noReferer;
            conf.blockedReferer = conf.blockedReferer == UNSET ? Math.max(prev.blockedReferer, 0)
                : conf.blockedReferer;
            return;
        }
        // nginx counts host names only: a regex alone does not make "none" or "blocked" meaningful
        if ((conf.noReferer == 1 || conf.blockedReferer == 1) && conf.keys.isEmpty()) {
            throw new ConfException("the \"none\" or \"blocked\" referers are specified in the \"valid_referers\" "
                + "directive without any valid referer");
        }
        conf.noReferer = Math.max(conf.noReferer, 0);
        conf.blockedReferer = Math.max(conf.blockedReferer, 0);
    }

    /** nginx's {@code ngx_http_valid_referers()}. */
    private void validReferers(ConfContext cf, RefererConf rlcf) throws ConfException {
        HttpDirectives.addVariable(cf, "invalid_referer", this::variable, HttpConfig.VAR_CHANGEABLE);
        if (rlcf.keys == null) {
            rlcf.keys = new HostKeys<>();
        }
        for (int i = 1; i < cf.args().size(); i++) {
            String value = cf.arg(i);
            if (value.isEmpty()) {
                throw new ConfException("invalid referer \"" + value + "\"");
            }
            if (value.equals("none")) {
                rlcf.noReferer = 1;
            } else if (value.equals("blocked")) {
                rlcf.blockedReferer = 1;
            } else if (value.equals("server_names")) {
                serverNames(cf, rlcf);
            } else if (value.charAt(0) == '~') {
                if (value.length() == 1) {
                    throw new ConfException("empty regex in \"" + value + "\"");
                }
                addRegex(rlcf, HttpCoreModule.compileRegex(cf, value.substring(1), true));
            } else {
                int slash = value.indexOf('/');
                addReferer(rlcf, slash < 0 ? value : value.substring(0, slash),
                    slash < 0 ? NO_URI_PART : value.substring(slash));
            }
        }
    }

    private static void serverNames(ConfContext cf, RefererConf rlcf) throws ConfException {
        for (ServerName sn : HttpCoreModule.srvConf(HttpScope.of(cf).confs().srvConf).serverNames) {
            if (sn.regex() != null) {
                if (!rlcf.serverNameRegexSet) {
                    rlcf.serverNameRegex = new ArrayList<>();
                    rlcf.serverNameRegexSet = true;
                }
                rlcf.serverNameRegex.add(sn.regex());
            } else {
                addReferer(rlcf, sn.name(), NO_URI_PART);
            }
        }
    }

    private static void addRegex(RefererConf rlcf, HttpRegex re) {
        if (!rlcf.regexSet) {
            rlcf.regex = new ArrayList<>();
            rlcf.regexSet = true;
        }
        rlcf.regex.add(re);
    }

    /** nginx's {@code ngx_http_add_referer()}. */
    private static void addReferer(RefererConf rlcf, String host, String uri) throws ConfException {
        int rc = rlcf.keys.add(host, uri, true);
        if (rc == HostKeys.INVALID) {
            throw new ConfException("invalid hostname or wildcard \"" + host + "\"");
        }
        if (rc == HostKeys.CONFLICT) {
            throw new ConfException("conflicting parameter \"" + host + "\"");
        }
    }

    /** nginx's {@code ngx_http_referer_variable()}: "1" for an invalid referer, "" for a valid one. */
    private String variable(HttpRequest r, String unused) {
        RefererConf rlcf = (RefererConf) r.locConf(ctxIndex);
        int rc = check(rlcf, r.headersIn.referer == null ? null : r.headersIn.referer.value);
        if (rc == Rc.ERROR) {
            return null;
        }
        return rc == Rc.OK ? "" : "1";
    }

    /**
     * Checks a {@code Referer}.
     *
     * @param rlcf the location's conf
     * @param ref the header's value, or null without one
     * @return {@link Rc#OK} when valid, {@link Rc#DECLINED} when invalid, {@link Rc#ERROR} when a regex failed
     */
    static int check(RefererConf rlcf, String ref) {
        if ((rlcf.keys == null || rlcf.keys.isEmpty()) && rlcf.regex == null && rlcf.serverNameRegex == null) {
            return Rc.OK;
        }
        if (ref == null) {
            return rlcf.noReferer == 1 ? Rc.OK : Rc.DECLINED;
        }
        int len = ref.length();
        int start = -1;
        if (len >= "http://i.ru".length()) {
            if (ref.regionMatches(true, 0, "http://", 0, 7)) {
                start = 7;
            } else if (ref.regionMatches(true, 0, "https://", 0, 8)) {
                start = 8;
            }
        }
        if (start < 0) {
            return rlcf.blockedReferer == 1 ? Rc.OK : Rc.DECLINED;
        }
        int p = start;
        while (p < len && ref.charAt(p) != '/' && ref.charAt(p) != ':') {
            if (p - start + 1 == MAX_HOST) {
                return Rc.DECLINED;
            }
            p++;
        }
        String host = ref.substring(start, p);
        String uri = rlcf.keys == null ? null : rlcf.keys.find(host);
        if (uri != null) {
            while (p < len && ref.charAt(p) != '/') {
                p++;
            }
            return uri.isEmpty() || ref.startsWith(uri, p) ? Rc.OK : Rc.DECLINED;
        }
        int rc = matchAny(rlcf.serverNameRegex, CoreOutput.lowerAscii(host));
        return rc != Rc.DECLINED ? rc : matchAny(rlcf.regex, ref.substring(start));
    }

    /** nginx's {@code ngx_regex_exec_array()}. */
    private static int matchAny(List<HttpRegex> regexes, String subject) {
        if (regexes == null) {
            return Rc.DECLINED;
        }
        for (HttpRegex re : regexes) {
            int rc = re.exec(subject, null);
            if (rc != Rc.DECLINED) {
                return rc;
            }
        }
        return Rc.DECLINED;
    }
}
