package jinx.stream.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.SockAddr;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Directive;
import jinx.stream.StreamPhase;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamConfig;

/**
 * nginx's {@code ngx_stream_realip_module}: {@code set_real_ip_from}; in the post-accept phase a session from a
 * trusted address that came with a PROXY protocol header takes the header's source address and port as its client
 * ({@code $remote_addr}, {@code $remote_port}, the log's {@code client:}), and {@code $realip_remote_addr} and
 * {@code $realip_remote_port} keep the connection's own.
 */
public final class StreamRealIpModule extends StreamModuleBase {

    /** The module's name. */
    public static final String NAME = "stream_realip";

    /** A server's trusted addresses. */
    static final class SrvConf {
        List<Cidr> from;
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("set_real_ip_from", Set.of(MAIN, SRV), Arity.TAKE1, SrvConf.class, StreamRealIpModule::from)
            .multi().syntax("address | CIDR | unix:").describe("Defines trusted addresses that are known to send "
                + "correct replacement addresses."));

    private int index;

    /**
     * The module; the kernel makes one per cycle.
     */
    public StreamRealIpModule() {
        super(NAME, DIRECTIVES);
    }

    @Override
    public Object createSrvConf() {
        return new SrvConf();
    }

    @Override
    public void mergeSrvConf(Object parent, Object child) {
        SrvConf c = (SrvConf) child;
        if (c.from == null) {
            c.from = ((SrvConf) parent).from;
        }
    }

    @Override
    public void preconfiguration(StreamConfig cf) throws ConfException {
        cf.addVariable("realip_remote_addr", s -> {
            Session ss = (Session) s;
            return ss.realipAddr != null ? ss.realipAddr : ss.remoteAddr();
        });
        cf.addVariable("realip_remote_port", s -> {
            Session ss = (Session) s;
            int port = ss.realipAddr != null ? ss.realipPort : ss.remotePort();
            return port == 0 ? "" : Integer.toString(port);
        });
    }

    @Override
    public void postconfiguration(StreamConfig cf) {
        index = ((StreamBlock) cf).indexOf(this);
        cf.addPhaseHandler(StreamPhase.POST_ACCEPT, this::handler);
    }

    /** nginx's {@code ngx_stream_realip_from()}: an address, a network, or {@code unix:}. */
    private static void from(ConfContext cf, SrvConf conf) throws ConfException {
        String v = cf.arg(1);
        Cidr.Parsed p = v.equals("all") ? null : Cidr.parse(v);
        if (p == null) {
            throw new ConfException("invalid parameter \"" + v + "\"");
        }
        if (p.lowBits()) {
            cf.log(LogLevel.WARN, "low address bits of " + v + " are meaningless");
        }
        if (conf.from == null) {
            conf.from = new ArrayList<>();
        }
        conf.from.add(p.cidr());
    }

    /** nginx's {@code ngx_stream_realip_handler()} and {@code ngx_stream_realip_set_addr()}. */
    private int handler(StreamSession session) {
        Session s = (Session) session;
        List<Cidr> from = ((SrvConf) s.srvConf(index)).from;
        if (from == null || s.proxyProtocol == null || !trusted(s, from)) {
            return Rc.DECLINED;
        }
        InetAddress real;
        try {
            byte[] numeric = Cidr.numeric(s.proxyProtocol[0]);
            if (numeric == null) {
                return Rc.DECLINED;
            }
            real = InetAddress.getByAddress(numeric);
        } catch (UnknownHostException e) {
            return Rc.DECLINED;
        }
        s.realipAddr = s.remoteAddr();
        s.realipPort = s.remotePort();
        s.realAddress(SockAddr.inet(real, Integer.parseInt(s.proxyProtocol[1])).toString());
        return Rc.DECLINED;
    }

    private static boolean trusted(Session s, List<Cidr> from) {
        byte[] client;
        if (s.c.unixPeer()) {
            client = null;
        } else {
            client = Cidr.numeric(s.remoteAddr());
        }
        for (Cidr c : from) {
            if (c.matches(client)) {
                return true;
            }
        }
        return false;
    }
}
