package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpConfCtx;
import jinx.http.internal.core.HttpCoreModule;
import jinx.http.internal.core.HttpCoreSrvConf;
import jinx.http.internal.core.HttpRegex;
import jinx.http.internal.core.HttpScope;
import jinx.http.internal.filter.CoreConfs;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.variables.Variables;
import jinx.http.spi.ComplexValue;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.ConfException;
import jinx.kernel.LoadedModule;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code http_rewrite} module, nginx's {@code ngx_http_rewrite_module.c}: {@code rewrite
 * regex replacement [last|break|redirect|permanent]}, {@code return code [text]}, {@code return URL},
 * {@code set $variable value}, {@code break}, {@code if (condition) { ... }} ({@link RewriteIf}), {@code rewrite_log}
 * and {@code uninitialized_variable_warn}. The
 * directives of a {@code server} run in SERVER_REWRITE, those of a location in REWRITE; a location does not inherit
 * its server's (nor its parent's) directives. Each context's directives are compiled into a program of
 * {@link RewriteCode}s run in order.
 *
 * <p>An {@code if} block is a location without a name (its confs merged from the enclosing ones); its rewrite
 * directives run in place of the block when the condition holds, and in a location the request then takes the
 * block's confs. A {@code rewrite ... break} does not forbid {@code alias} afterwards as nginx does (the engine keeps
 * that flag to itself).
 */
public final class RewriteModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_rewrite";

    private static final Set<Ctx> SL = Set.of(HttpCtx.SRV, HttpCtx.SIF, HttpCtx.LOC, HttpCtx.LIF);
    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.SIF, HttpCtx.LOC, HttpCtx.LIF);

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("rewrite", SL, Arity.TAKE23, RewriteLocConf.class, RewriteModule::rewrite).multi()
            .syntax("regex replacement [flag]").describe("Changes the request URI when it matches the regular "
                + "expression; flag is last, break, redirect or permanent."),
        Directive.of("return", SL, Arity.TAKE12, RewriteLocConf.class, RewriteModule::doReturn).multi()
            .syntax("code [text]", "code URL", "URL").describe("Stops processing and returns the specified code to a "
                + "client."),
        Directive.of("break", SL, Arity.NOARGS, RewriteLocConf.class,
            (cf, c) -> c.add(new RewriteCode.Break())).multi()
            .syntax("").describe("Stops processing the current set of the rewrite module's directives."),
        Directive.of("if", Set.of(HttpCtx.SRV, HttpCtx.LOC), Arity.BLOCK | Arity.ONE_MORE, RewriteLocConf.class,
            RewriteModule::ifBlock).multi()
            .syntax("(condition) { ... }").describe("The specified condition is evaluated. If true, this module "
                + "directives specified inside the braces are executed, and the request is assigned the "
                + "configuration inside the if directive."),
        Directive.of("set", SL, Arity.TAKE2, RewriteLocConf.class, RewriteModule::set).multi()
            .syntax("$variable value").describe("Sets a value for the specified variable."),
        Directive.of("rewrite_log", MSL, Arity.FLAG, RewriteLocConf.class,
            Slots.flag((RewriteLocConf c, boolean on) -> c.log = on ? 1 : 0))
            .syntax("on | off").defaults("off").describe("Enables or disables logging of the rewrite module's "
                + "processing results into the error_log at the notice level."),
        Directive.of("uninitialized_variable_warn", MSL, Arity.FLAG, RewriteLocConf.class,
            Slots.flag((RewriteLocConf c, boolean on) -> c.uninitializedVariableWarn = on ? 1 : 0))
            .syntax("on | off").defaults("on").describe("Controls whether warnings about uninitialized variables are "
                + "logged."));

    private int ctxIndex = -1;

    /**
     * The location conf: nginx's {@code ngx_http_rewrite_loc_conf_t}.
     */
    static final class RewriteLocConf {
        /** The program of this context, or null: never inherited. */
        List<RewriteCode> codes;
        /** {@code rewrite_log}; default 0. */
        int log = Conf.UNSET;
        /** {@code uninitialized_variable_warn}; default 1. */
        int uninitializedVariableWarn = Conf.UNSET;

        void add(RewriteCode code) {
            if (codes == null) {
                codes = new ArrayList<>();
            }
            codes.add(code);
        }
    }

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public RewriteModule() {
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
    public Object createLocConf() {
        return new RewriteLocConf();
    }

    /** nginx's {@code ngx_http_rewrite_merge_loc_conf()}: the flags are inherited, the program is not. */
    @Override
    public void mergeLocConf(Object parent, Object child) {
        RewriteLocConf prev = (RewriteLocConf) parent;
        RewriteLocConf conf = (RewriteLocConf) child;
        conf.log = Conf.merge(conf.log, prev.log, 0);
        conf.uninitializedVariableWarn = Conf.merge(conf.uninitializedVariableWarn, prev.uninitializedVariableWarn, 1);
        if (conf.codes != null) {
            conf.codes = List.copyOf(conf.codes);
        }
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addPhaseHandler(Phase.SERVER_REWRITE, r -> handler(r, false));
        cf.addPhaseHandler(Phase.REWRITE, r -> handler(r, true));
    }

    /**
     * The SERVER_REWRITE and REWRITE handler: nginx's {@code ngx_http_rewrite_handler()}.
     *
     * @param r the request
     * @param location true in the REWRITE phase
     * @return {@link Rc#DECLINED} to go on, or what the program decided
     */
    int handler(HttpRequest r, boolean location) {
        RewriteLocConf rlcf = (RewriteLocConf) r.locConf(ctxIndex);
        if (location) {
            HttpCoreSrvConf cscf = CoreConfs.srv(r);
            if (cscf.ctx != null && cscf.ctx.locConf[ctxIndex] == rlcf) {
                // skipping location rewrite phase for server null location (nginx)
                return Rc.DECLINED;
            }
        }
        if (rlcf == null || rlcf.codes == null) {
            return Rc.DECLINED;
        }
        RewriteCode.Engine e = new RewriteCode.Engine(r, rlcf.log == 1);
        List<RewriteCode> codes = rlcf.codes;
        for (int i = 0, n = codes.size(); i < n; i++) {
            if (!codes.get(i).run(e)) {
                break;
            }
        }
        if (e.status < CoreOutput.BAD_REQUEST) {
            return e.status;
        }
        int errStatus = r instanceof CoreRequest cr ? cr.errStatus : 0;
        return errStatus == 0 ? e.status : errStatus;
    }

    /** nginx's {@code ngx_http_rewrite()}. */
    private static void rewrite(ConfContext cf, RewriteLocConf lcf) throws ConfException {
        HttpRegex regex = HttpCoreModule.compileRegex(cf, cf.arg(1), false);
        String value = cf.arg(2);
        boolean addArgs = true;
        if (!value.isEmpty() && value.charAt(value.length() - 1) == '?') {
            // the last "?" drops the original arguments (nginx)
            value = value.substring(0, value.length() - 1);
            addArgs = false;
        }
        int status = 0;
        boolean last = false;
        boolean breakCycle = false;
        if (value.startsWith("http://") || value.startsWith("https://") || value.startsWith("$scheme")) {
            status = 302;
            last = true;
        }
        if (cf.args().size() == 4) {
            switch (cf.arg(3)) {
                case "last" -> last = true;
                case "break" -> {
                    breakCycle = true;
                    last = true;
                }
                case "redirect" -> {
                    status = 302;
                    last = true;
                }
                case "permanent" -> {
                    status = 301;
                    last = true;
                }
                default -> throw new ConfException("invalid parameter \"" + cf.arg(3) + "\"");
            }
        }
        Replacement replacement = Replacement.compile(cf, value, status == 0);
        lcf.add(new RewriteCode.Rewrite(regex, replacement, status, breakCycle, addArgs, last));
    }

    /** nginx's {@code ngx_http_rewrite_if()}. */
    private static void ifBlock(ConfContext cf, RewriteLocConf lcf) throws ConfException {
        HttpScope scope = HttpScope.of(cf);
        boolean server = scope.ctx().equals(HttpCtx.SRV);
        HttpConfCtx ctx = HttpCoreModule.nonameLocation(cf);
        RewriteIf.Condition condition = RewriteIf.compile(cf);
        HttpScope inner = scope.nested(server ? HttpCtx.SIF : HttpCtx.LIF, ctx);
        cf.parseBlock(inner);
        LoadedModule self = cf.cycle().module(NAME);
        RewriteLocConf nlcf = (RewriteLocConf) inner.conf(self.module(), RewriteLocConf.class);
        List<RewriteCode> body = nlcf.codes == null ? List.of() : List.copyOf(nlcf.codes);
        // the program belongs to the enclosing block (nginx): the if's own location runs none
        nlcf.codes = null;
        lcf.add(new RewriteCode.If(condition, body, server ? null : ctx.locConf));
    }

    /** nginx's {@code ngx_http_rewrite_return()}. */
    private static void doReturn(ConfContext cf, RewriteLocConf lcf) throws ConfException {
        String code = cf.arg(1);
        int status = ConfValues.parseNumber(code);
        String text;
        if (status == -1) {
            if (cf.args().size() == 2
                && (code.startsWith("http://") || code.startsWith("https://") || code.startsWith("$scheme"))) {
                status = 302;
                text = code;
            } else {
                throw new ConfException("invalid return code \"" + code + "\"");
            }
        } else {
            if (status > 999) {
                throw new ConfException("invalid return code \"" + code + "\"");
            }
            text = cf.args().size() == 2 ? null : cf.arg(2);
        }
        ComplexValue cv = text == null || text.isEmpty() ? null : Variables.of(cf).compile(cf, text);
        lcf.add(new RewriteCode.Return(status, cv));
    }

    /** nginx's {@code ngx_http_rewrite_set()}. */
    private static void set(ConfContext cf, RewriteLocConf lcf) throws ConfException {
        String arg = cf.arg(1);
        if (arg.isEmpty() || arg.charAt(0) != '$') {
            throw new ConfException("invalid variable name \"" + arg + "\"");
        }
        String name = arg.substring(1);
        Variables vars = Variables.of(cf);
        vars.add(name, null, HttpConfig.VAR_CHANGEABLE);
        if (!vars.isKnown(name)) {
            String low = name.toLowerCase(Locale.ROOT);
            LoadedModule m = cf.cycle().module(NAME);
            RewriteModule self = m != null && m.module() instanceof RewriteModule rm ? rm : null;
            vars.add(name, (r, n) -> self == null ? "" : self.uninitialized(r, low), HttpConfig.VAR_CHANGEABLE);
        }
        int index = vars.index(cf, name);
        ComplexValue value = vars.compile(cf, cf.arg(2));
        lcf.add(new RewriteCode.SetVar(index, name.toLowerCase(Locale.ROOT), value));
    }

    /** nginx's {@code ngx_http_rewrite_var()}: a variable {@code set} somewhere but not yet for this request. */
    private String uninitialized(HttpRequest r, String name) {
        Object o = ctxIndex < 0 ? null : r.locConf(ctxIndex);
        if (o instanceof RewriteLocConf rlcf && rlcf.uninitializedVariableWarn != 0) {
            CoreOutput.log(r, LogLevel.WARN, 0, "using uninitialized \"" + name + "\" variable");
        }
        return "";
    }
}
