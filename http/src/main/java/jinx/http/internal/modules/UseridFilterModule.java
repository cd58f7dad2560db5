package jinx.http.internal.modules;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.http.internal.variables.HeaderVariables;
import jinx.http.internal.variables.RequestFacts;
import jinx.http.spi.HeaderFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code http_userid_filter} module, nginx's {@code ngx_http_userid_filter_module.c}: reads the identifying
 * cookie ({@code $uid_got}) and, with {@code userid on} or {@code v1}, sets one where the client has none (or a
 * {@code userid_mark} it lacks, or {@code $uid_reset} asks), as {@code $uid_set}. The cookie's 16 bytes are made
 * by {@link Uids}; its text is nginx's byte for byte: {@code name=<base64>; expires=...; domain=...; path=...}
 * and the {@code userid_flags}, then {@code P3P} when asked.
 */
public final class UseridFilterModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_userid_filter";

    static final int OFF = 0;
    static final int LOG = 1;
    static final int V1 = 2;
    static final int ON = 3;
    /** nginx's {@code NGX_HTTP_USERID_MAX_EXPIRES}, 31 Dec 2037 23:55:55 GMT. */
    static final long MAX_EXPIRES = 2145916555L;
    private static final String EXPIRES_MAX = "; expires=Thu, 31-Dec-37 23:55:55 GMT";

    static final int FLAG_OFF = 0x1;
    static final int FLAG_SECURE = 0x2;
    static final int FLAG_HTTPONLY = 0x4;
    static final int FLAG_SAMESITE = 0x8;
    static final int FLAG_STRICT = 0x10;
    static final int FLAG_LAX = 0x20;
    static final int FLAG_NONE = 0x40;

    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);
    private static final char UNSET_MARK = '\u00ff';

    /** The location conf: nginx's {@code ngx_http_userid_conf_t}. */
    static final class UseridConf {
        int enable = -1;
        long service = -2;
        String name;
        String domain;
        String path;
        String p3p;
        long expires = -1;
        char mark = UNSET_MARK;
        int flags;
    }

    /** The request's state: nginx's {@code ngx_http_userid_ctx_t}. */
    static final class UseridCtx {
        byte[] got;
        byte[] set;
        String cookie;
        boolean reset;
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("userid", MSL, Arity.TAKE1, UseridConf.class,
            Slots.oneOf(Map.of("off", OFF, "log", LOG, "v1", V1, "on", ON), (c, v) -> c.enable = v))
            .syntax("on | v1 | log | off").defaults("off").describe("Enables or disables setting cookies and logging "
                + "the received cookies."),
        Directive.of("userid_service", MSL, Arity.TAKE1, UseridConf.class, Slots.number((c, v) -> c.service = v))
            .syntax("number").defaults("IP address of the server").describe("If identifiers are issued by multiple "
                + "servers (services), each service should be assigned its own number to ensure that client "
                + "identifiers are unique."),
        Directive.of("userid_name", MSL, Arity.TAKE1, UseridConf.class, Slots.str((c, v) -> c.name = v))
            .syntax("name").defaults("uid").describe("Sets the cookie name."),
        Directive.of("userid_domain", MSL, Arity.TAKE1, UseridConf.class,
            Slots.str((c, v) -> c.domain = v.equals("none") ? "" : "; domain=" + v))
            .syntax("name | none").defaults("none").describe("Defines a domain for which the cookie is set."),
        Directive.of("userid_path", MSL, Arity.TAKE1, UseridConf.class, Slots.str((c, v) -> c.path = "; path=" + v))
            .syntax("path").defaults("/").describe("Defines a path for which the cookie is set."),
        Directive.of("userid_expires", MSL, Arity.TAKE1, UseridConf.class, UseridFilterModule::expires)
            .syntax("time | max | off").defaults("off").describe("Sets a time during which a browser should keep the "
                + "cookie."),
        Directive.of("userid_p3p", MSL, Arity.TAKE1, UseridConf.class,
            Slots.str((c, v) -> c.p3p = v.equals("none") ? "" : v))
            .syntax("string | none").defaults("none").describe("Sets a value for the P3P header field that will be "
                + "sent along with the cookie."),
        Directive.of("userid_flags", MSL, Arity.ONE_MORE, UseridConf.class, Slots.bitmask(Map.of("off", FLAG_OFF,
                "secure", FLAG_SECURE, "httponly", FLAG_HTTPONLY, "samesite=strict", FLAG_SAMESITE | FLAG_STRICT,
                "samesite=lax", FLAG_SAMESITE | FLAG_LAX, "samesite=none", FLAG_SAMESITE | FLAG_NONE),
            (UseridConf c, int v) -> c.flags |= v)).multi()
            .syntax("off | flag ...").defaults("off").describe("If the parameter is not off, defines one or more "
                + "additional flags for the cookie: secure, httponly, samesite=strict, samesite=lax, samesite=none."),
        Directive.of("userid_mark", MSL, Arity.TAKE1, UseridConf.class, UseridFilterModule::mark)
            .syntax("letter | digit | = | off").defaults("off").describe("If the parameter is not off, enables the "
                + "cookie marking mechanism and sets the character used as a mark."));

    private int ctxIndex = -1;
    private int resetIndex = -1;
    /** The worker's identifiers: made again by {@link #initProcess}, as nginx's {@code init_worker}. */
    Uids uids = new Uids(Uids.startValue(0, ProcessHandle.current().pid()));

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public UseridFilterModule() {
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

    /** nginx's {@code ngx_http_userid_init_worker()}. */
    @Override
    public void initProcess(Cycle cycle) {
        uids = new Uids(Uids.startValue(java.time.Instant.now().getNano() / 1000, ProcessHandle.current().pid()));
    }

    /** nginx's {@code ngx_http_userid_add_variables()}. */
    @Override
    public void preconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addVariable("uid_got", this::gotVariable, 0);
        cf.addVariable("uid_set", this::setVariable, 0);
        cf.addVariable("uid_reset", (r, n) -> "", HttpConfig.VAR_CHANGEABLE);
        resetIndex = cf.variableIndex("uid_reset");
    }

    @Override
    public void postconfiguration(HttpConfig cf) {
        cf.addHeaderFilter(this::headerFilter);
    }

    @Override
    public Object createLocConf() {
        return new UseridConf();
    }

    /** nginx's {@code ngx_http_userid_merge_conf()}. */
    @Override
    public void mergeLocConf(Object parent, Object child) {
        UseridConf prev = (UseridConf) parent;
        UseridConf conf = (UseridConf) child;
        conf.enable = conf.enable >= 0 ? conf.enable : prev.enable >= 0 ? prev.enable : OFF;
        conf.flags = conf.flags != 0 ? conf.flags : prev.flags != 0 ? prev.flags : FLAG_OFF;
        conf.name = merge(conf.name, prev.name, "uid");
        conf.domain = merge(conf.domain, prev.domain, "");
        conf.path = merge(conf.path, prev.path, "; path=/");
        conf.p3p = merge(conf.p3p, prev.p3p, "");
        conf.service = conf.service != -2 ? conf.service : prev.service != -2 ? prev.service : -1;
        conf.expires = conf.expires >= 0 ? conf.expires : prev.expires >= 0 ? prev.expires : 0;
        if (conf.mark == UNSET_MARK) {
            conf.mark = prev.mark == UNSET_MARK ? '\0' : prev.mark;
        }
    }

    private static String merge(String value, String prev, String dflt) {
        return value != null ? value : prev != null ? prev : dflt;
    }

    /** nginx's {@code ngx_http_userid_filter()}. */
    private int headerFilter(HttpRequest r, HeaderFilter.Next next) {
        UseridConf conf = (UseridConf) r.locConf(ctxIndex);
        if (r.main() != r || conf.enable < V1) {
            return next.filter(r);
        }
        UseridCtx ctx = getUid(r, conf);
        if (!createUid(r, ctx, conf)) {
            return Rc.ERROR;
        }
        if (ctx.set != null) {
            setCookie(r, ctx, conf);
        }
        return next.filter(r);
    }

    /** nginx's {@code ngx_http_userid_got_variable()}. */
    private String gotVariable(HttpRequest r, String unused) {
        HttpRequest main = r.main();
        UseridConf conf = (UseridConf) main.locConf(ctxIndex);
        if (conf.enable == OFF) {
            return null;
        }
        UseridCtx ctx = getUid(main, conf);
        return ctx.got == null ? null : Uids.text(conf.name, ctx.got);
    }

    /** nginx's {@code ngx_http_userid_set_variable()}. */
    private String setVariable(HttpRequest r, String unused) {
        HttpRequest main = r.main();
        UseridConf conf = (UseridConf) main.locConf(ctxIndex);
        if (conf.enable < V1) {
            return null;
        }
        UseridCtx ctx = getUid(main, conf);
        if (!createUid(main, ctx, conf) || ctx.set == null) {
            return null;
        }
        return Uids.text(conf.name, ctx.set);
    }

    /** nginx's {@code ngx_http_userid_get_uid()}: the cookie, decoded once per request. */
    private UseridCtx getUid(HttpRequest r, UseridConf conf) {
        if (r.ctx(ctxIndex) instanceof UseridCtx ctx) {
            return ctx;
        }
        UseridCtx ctx = new UseridCtx();
        r.ctx(ctxIndex, ctx);
        HttpHeaders.Entry lines = r.headersIn.cookie != null ? r.headersIn.cookie
            : r.headersIn.headers.entry("cookie");
        ctx.cookie = HeaderVariables.cookie(lines, conf.name);
        if (ctx.cookie == null) {
            return ctx;
        }
        if (ctx.cookie.length() < 22) {
            CoreOutput.log(r, LogLevel.ERROR, 0, "client sent too short userid cookie \"" + line(lines, conf.name)
                + "\"");
            return ctx;
        }
        // 22 characters only: a cookie may carry a mark, and many carry garbage for the trailing "=="
        String bytes = HeaderVariables.decodeBase64(ctx.cookie.substring(0, 22));
        if (bytes == null) {
            CoreOutput.log(r, LogLevel.ERROR, 0, "client sent invalid userid cookie \"" + line(lines, conf.name)
                + "\"");
            return ctx;
        }
        byte[] got = new byte[16];
        byte[] decoded = bytes.getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(decoded, 0, got, 0, Math.min(16, decoded.length));
        // nginx treats a zero last word as no cookie
        ctx.got = got[12] == 0 && got[13] == 0 && got[14] == 0 && got[15] == 0 ? null : got;
        return ctx;
    }

    /** The {@code Cookie} line the cookie came from ({@code cookies[n]->value}). */
    private static String line(HttpHeaders.Entry lines, String name) {
        for (HttpHeaders.Entry h = lines; h != null; h = h.next) {
            if (!h.removed && HeaderVariables.cookie(new HttpHeaders.Entry(h.name, h.value), name) != null) {
                return h.value;
            }
        }
        return "";
    }

    /** nginx's {@code ngx_http_userid_create_uid()}; false when the local address is not known. */
    private boolean createUid(HttpRequest r, UseridCtx ctx, UseridConf conf) {
        if (ctx.set != null) {
            return true;
        }
        if (ctx.got != null) {
            String reset = r.variable(resetIndex);
            if (reset == null || reset.isEmpty() || reset.equals("0")) {
                if (conf.mark != '\0' && !(ctx.cookie.length() > 23 && ctx.cookie.charAt(22) == conf.mark
                    && ctx.cookie.charAt(23) == '=')) {
                    ctx.set = ctx.got;
                }
                return true;
            }
            ctx.reset = true;
            if (reset.equals("log")) {
                CoreOutput.log(r, LogLevel.NOTICE, 0, "userid cookie \"" + Uids.text(conf.name, ctx.got)
                    + "\" was reset");
            }
        }
        long now = r.loop().wallMillis() / 1000;
        if (conf.enable == V1) {
            ctx.set = uids.v1(conf.service, now);
            return true;
        }
        byte[] first = conf.service >= 0 ? Uids.network(conf.service) : localAddress(r);
        if (first == null) {
            return false;
        }
        ctx.set = uids.v2(first, now);
        return true;
    }

    /** The local address's four bytes (the last four of an IPv6 one), as nginx reads its sockaddr. */
    private static byte[] localAddress(HttpRequest r) {
        if (!(r instanceof RequestFacts facts)) {
            return null;
        }
        String addr = facts.serverAddr();
        if (addr == null || addr.startsWith("unix:") || addr.isEmpty()
            || Character.digit(addr.charAt(0), 16) < 0 && addr.charAt(0) != ':') {
            return new byte[4];
        }
        try {
            // a numeric address: no name is looked up
            byte[] a = InetAddress.getByName(addr).getAddress();
            byte[] b = new byte[4];
            System.arraycopy(a, a.length - 4, b, 0, 4);
            return b;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** nginx's {@code ngx_http_userid_set_uid()}: the {@code Set-Cookie} line and the {@code P3P} one. */
    private static void setCookie(HttpRequest r, UseridCtx ctx, UseridConf conf) {
        StringBuilder cookie = new StringBuilder(128).append(conf.name).append('=');
        if (ctx.got == null || ctx.reset) {
            cookie.append(Uids.encode(ctx.set));
            if (conf.mark != '\0') {
                cookie.setCharAt(cookie.length() - 2, conf.mark);
            }
        } else {
            cookie.append(ctx.cookie, 0, 22).append(conf.mark).append('=');
        }
        if (conf.expires == MAX_EXPIRES) {
            cookie.append(EXPIRES_MAX);
        } else if (conf.expires != 0) {
            cookie.append("; expires=").append(Uids.cookieTime(r.loop().wallMillis() / 1000 + conf.expires));
        }
        cookie.append(conf.domain).append(conf.path);
        if ((conf.flags & FLAG_SECURE) != 0) {
            cookie.append("; secure");
        }
        if ((conf.flags & FLAG_HTTPONLY) != 0) {
            cookie.append("; httponly");
        }
        if ((conf.flags & FLAG_STRICT) != 0) {
            cookie.append("; samesite=strict");
        }
        if ((conf.flags & FLAG_LAX) != 0) {
            cookie.append("; samesite=lax");
        }
        if ((conf.flags & FLAG_NONE) != 0) {
            cookie.append("; samesite=none");
        }
        r.headersOut.headers.add("Set-Cookie", cookie.toString());
        if (!conf.p3p.isEmpty()) {
            r.headersOut.headers.add("P3P", conf.p3p);
        }
    }

    /** nginx's {@code ngx_http_userid_expires()}. */
    private static void expires(ConfContext cf, UseridConf conf) throws ConfException {
        String v = cf.arg(1);
        if (v.equals("max")) {
            conf.expires = MAX_EXPIRES;
        } else if (v.equals("off")) {
            conf.expires = 0;
        } else {
            long t = ConfValues.parseTime(v, true);
            if (t == -1) {
                throw new ConfException("\"" + cf.name() + "\" directive invalid value");
            }
            conf.expires = t;
        }
    }

    /** nginx's {@code ngx_http_userid_mark()}. */
    private static void mark(ConfContext cf, UseridConf conf) throws ConfException {
        String v = cf.arg(1);
        if (v.equals("off")) {
            conf.mark = '\0';
            return;
        }
        char c = v.length() == 1 ? v.charAt(0) : 0;
        if (!(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '=')) {
            throw new ConfException("\"" + cf.name() + "\" directive value must be \"off\" or a single letter, "
                + "digit or \"=\"");
        }
        conf.mark = c;
    }
}
