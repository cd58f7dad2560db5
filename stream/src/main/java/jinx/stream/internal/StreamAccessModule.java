package jinx.stream.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Directive;
import jinx.stream.StreamPhase;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamConfig;

/**
 * nginx's {@code ngx_stream_access_module}: {@code allow} and {@code deny} rules, checked in order in the access
 * phase; the first that matches the client's address decides ({@code access forbidden by rule}, status 403).
 */
public final class StreamAccessModule extends StreamModuleBase {

    /** The module's name. */
    public static final String NAME = "stream_access";

    /** A server's rules. */
    static final class SrvConf {
        List<Rule> rules;
    }

    record Rule(Cidr cidr, boolean deny) {
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("allow", Set.of(MAIN, SRV), Arity.TAKE1, SrvConf.class, (cf, c) -> rule(cf, c, false))
            .multi().syntax("address | CIDR | unix: | all").describe("Allows access for the specified network or "
                + "address."),
        Directive.of("deny", Set.of(MAIN, SRV), Arity.TAKE1, SrvConf.class, (cf, c) -> rule(cf, c, true))
            .multi().syntax("address | CIDR | unix: | all").describe("Denies access for the specified network or "
                + "address."));

    private int index;

    /**
     * The module; the kernel makes one per cycle.
     */
    public StreamAccessModule() {
        super(NAME, DIRECTIVES);
    }

    @Override
    public Object createSrvConf() {
        return new SrvConf();
    }

    @Override
    public void mergeSrvConf(Object parent, Object child) {
        SrvConf c = (SrvConf) child;
        if (c.rules == null) {
            c.rules = ((SrvConf) parent).rules;
        }
    }

    @Override
    public void postconfiguration(StreamConfig cf) {
        index = ((StreamBlock) cf).indexOf(this);
        cf.addPhaseHandler(StreamPhase.ACCESS, this::handler);
    }

    private static void rule(ConfContext cf, SrvConf conf, boolean deny) throws ConfException {
        String v = cf.arg(1);
        Cidr.Parsed p = Cidr.parse(v);
        if (p == null) {
            throw new ConfException("invalid parameter \"" + v + "\"");
        }
        if (p.lowBits()) {
            cf.log(LogLevel.WARN, "low address bits of " + v + " are meaningless");
        }
        if (conf.rules == null) {
            conf.rules = new ArrayList<>();
        }
        conf.rules.add(new Rule(p.cidr(), deny));
    }

    /** nginx's {@code ngx_stream_access_handler()}. */
    private int handler(StreamSession s) {
        List<Rule> rules = ((SrvConf) ((Session) s).srvConf(index)).rules;
        if (rules == null) {
            return Rc.DECLINED;
        }
        byte[] client = address(s);
        for (Rule r : rules) {
            if (r.cidr().matches(client)) {
                if (r.deny()) {
                    s.log(LogLevel.ERROR, 0, "access forbidden by rule");
                    return StreamSession.STATUS_FORBIDDEN;
                }
                return Rc.OK;
            }
        }
        return Rc.DECLINED;
    }

    private static byte[] address(StreamSession s) {
        if (s.connection().unixPeer()) {
            return null;
        }
        try {
            byte[] a = InetAddress.getByName(s.remoteAddr()).getAddress();
            // an IPv4-mapped IPv6 client is checked as IPv4, as nginx does
            return a;
        } catch (UnknownHostException e) {
            return new byte[0];
        }
    }
}
