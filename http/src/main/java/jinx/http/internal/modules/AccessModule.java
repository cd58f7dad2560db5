package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.filter.CoreConfs;
import jinx.http.internal.variables.CoreVariables;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_access} module, nginx's {@code ngx_http_access_module.c}: {@code allow} and {@code deny} with an
 * address, a CIDR network (IPv4 or IPv6), {@code unix:} or {@code all}, checked in order in the ACCESS phase; the
 * first rule that matches decides. A denied request gets 403 and, under {@code satisfy all}, the error line
 * {@code access forbidden by rule}. An IPv4-mapped IPv6 client is checked against the IPv4 rules. A location
 * without rules of its own inherits all of its parent's.
 */
public final class AccessModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_access";

    private static final Set<Ctx> MSLL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC, HttpCtx.LMT);

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("allow", MSLL, Arity.TAKE1, AccessLocConf.class, (cf, c) -> rule(cf, c, false)).multi()
            .syntax("address | CIDR | unix: | all").describe("Allows access for the specified network or address."),
        Directive.of("deny", MSLL, Arity.TAKE1, AccessLocConf.class, (cf, c) -> rule(cf, c, true)).multi()
            .syntax("address | CIDR | unix: | all").describe("Denies access for the specified network or address."));

    /** A rule: nginx's {@code ngx_http_access_rule_t} (null network for {@code unix:}). */
    private record Rule(Cidr cidr, boolean deny) {
    }

    /** The location conf: nginx's {@code ngx_http_access_loc_conf_t}. */
    static final class AccessLocConf {
        List<Rule> rules;
        List<Rule> rules6;
        List<Rule> rulesUn;
    }

    private static final int FORBIDDEN = 403;

    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public AccessModule() {
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
        return new AccessLocConf();
    }

    /** nginx's {@code ngx_http_access_merge_loc_conf()}: rules of no family at all inherit all three lists. */
    @Override
    public void mergeLocConf(Object parent, Object child) {
        AccessLocConf prev = (AccessLocConf) parent;
        AccessLocConf conf = (AccessLocConf) child;
        if (conf.rules == null && conf.rules6 == null && conf.rulesUn == null) {
            conf.rules = prev.rules;
            conf.rules6 = prev.rules6;
            conf.rulesUn = prev.rulesUn;
        }
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addPhaseHandler(Phase.ACCESS, this::handler);
    }

    /** nginx's {@code ngx_http_access_handler()}. */
    private int handler(HttpRequest r) {
        AccessLocConf alcf = (AccessLocConf) r.locConf(ctxIndex);
        String text = CoreVariables.remoteAddr(r);
        if (text == null) {
            return Rc.DECLINED;
        }
        if (text.startsWith("unix:")) {
            return alcf.rulesUn == null ? Rc.DECLINED : check(r, alcf.rulesUn, null);
        }
        byte[] addr = Cidr.address(text);
        if (addr == null) {
            return Rc.DECLINED;
        }
        if (addr.length == 16 && alcf.rules != null && Cidr.v4Mapped(addr)) {
            return check(r, alcf.rules, Cidr.unmap(addr));
        }
        List<Rule> rules = addr.length == 4 ? alcf.rules : alcf.rules6;
        return rules == null ? Rc.DECLINED : check(r, rules, addr);
    }

    private static int check(HttpRequest r, List<Rule> rules, byte[] addr) {
        for (Rule rule : rules) {
            if (addr == null || rule.cidr.contains(addr)) {
                return found(r, rule.deny);
            }
        }
        return Rc.DECLINED;
    }

    /** nginx's {@code ngx_http_access_found()}. */
    private static int found(HttpRequest r, boolean deny) {
        if (!deny) {
            return Rc.OK;
        }
        HttpCoreLocConf clcf = CoreConfs.loc(r);
        if (clcf == null || clcf.satisfy == HttpCoreLocConf.SATISFY_ALL) {
            CoreOutput.log(r, LogLevel.ERROR, 0, "access forbidden by rule");
        }
        return FORBIDDEN;
    }

    /** nginx's {@code ngx_http_access_rule()}. */
    private static void rule(ConfContext cf, AccessLocConf alcf, boolean deny) throws ConfException {
        String value = cf.arg(1);
        boolean all = value.equals("all");
        boolean unix = value.equals("unix:");
        Cidr cidr = null;
        if (!all && !unix) {
            cidr = Cidr.parse(value);
            if (cidr == null) {
                throw new ConfException("invalid parameter \"" + value + "\"");
            }
            if (cidr.meaningless()) {
                cf.log(LogLevel.WARN, "low address bits of " + value + " are meaningless");
            }
        }
        if (all || cidr != null && cidr.addr().length == 16) {
            alcf.rules6 = add(alcf.rules6, new Rule(all ? Cidr.any(16) : cidr, deny));
        }
        if (all || cidr != null && cidr.addr().length == 4) {
            alcf.rules = add(alcf.rules, new Rule(all ? Cidr.any(4) : cidr, deny));
        }
        if (all || unix) {
            alcf.rulesUn = add(alcf.rulesUn, new Rule(null, deny));
        }
    }

    private static List<Rule> add(List<Rule> rules, Rule rule) {
        List<Rule> list = rules == null ? new ArrayList<>() : rules;
        list.add(rule);
        return list;
    }
}
