package jinx.http.internal.core;

import java.util.ArrayList;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.os.SockAddr;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;

/**
 * The {@code listen} directive: nginx's {@code ngx_http_core_listen()} on Linux. An address ({@code 8080},
 * {@code 127.0.0.1:8080}, {@code *:80}, {@code [::1]:8080}, {@code unix:/path}, or a host name, looked up now and
 * listened on at every address it has), then parameters: {@code default_server} ({@code default}), {@code bind},
 * {@code backlog=}, {@code rcvbuf=}, {@code sndbuf=}, {@code deferred}, {@code ipv6only=on|off},
 * {@code reuseport}, {@code so_keepalive=on|off|idle:intvl:cnt}, {@code fastopen=} (parsed, not applied),
 * {@code proxy_protocol}, and the parameters modules register ({@code ssl}: {@code HttpConfig.addListenParameter});
 * {@code ssl}, {@code http2} and {@code quic} are refused when no module registers them.
 */
final class ListenDirective {

    private ListenDirective() {
    }

    static void listen(ConfContext cf, HttpCoreSrvConf cscf) throws ConfException {
        cscf.listen = true;
        String url = cf.arg(1);
        List<SockAddr> addrs;
        try {
            addrs = SockAddr.resolve(url, 80);
        } catch (IllegalArgumentException e) {
            throw new ConfException(e.getMessage() + " in \"" + url + "\" of the \"listen\" directive");
        }
        ListenOpt proto = new ListenOpt(addrs.get(0));
        for (String v : cf.args().subList(2, cf.args().size())) {
            parameter(cf, proto, v);
        }
        List<SockAddr> seen = new ArrayList<>();
        HttpCoreMainConf cmcf = HttpScope.of(cf).block().core();
        for (SockAddr sa : addrs) {
            if (seen.contains(sa)) {
                continue;
            }
            seen.add(sa);
            Listens.add(cmcf, cscf, copy(proto, sa, cf));
        }
    }

    private static ListenOpt copy(ListenOpt p, SockAddr sa, ConfContext cf) {
        ListenOpt o = new ListenOpt(sa);
        o.wildcard = !sa.isUnix() && sa.isWildcard();
        o.set = p.set;
        o.bind = p.bind;
        o.defaultServer = p.defaultServer;
        o.backlog = p.backlog;
        o.rcvbuf = p.rcvbuf;
        o.sndbuf = p.sndbuf;
        o.ipv6only = p.ipv6only;
        o.reuseport = p.reuseport;
        o.deferredAccept = p.deferredAccept;
        o.soKeepalive = p.soKeepalive;
        o.tcpKeepidle = p.tcpKeepidle;
        o.tcpKeepintvl = p.tcpKeepintvl;
        o.tcpKeepcnt = p.tcpKeepcnt;
        o.proxyProtocol = p.proxyProtocol;
        o.takeover = p.takeover;
        o.file = cf.file();
        o.line = cf.line();
        return o;
    }

    private static void parameter(ConfContext cf, ListenOpt o, String v) throws ConfException {
        if (v.equals("default_server") || v.equals("default")) {
            o.defaultServer = true;
            return;
        }
        if (v.equals("bind")) {
            setBind(o);
            return;
        }
        if (v.startsWith("backlog=")) {
            int n = ConfValues.parseNumber(v.substring(8));
            if (n <= 0) {
                throw new ConfException("invalid backlog \"" + v + "\"");
            }
            o.backlog = n;
            setBind(o);
            return;
        }
        if (v.startsWith("rcvbuf=") || v.startsWith("sndbuf=")) {
            long n = ConfValues.parseSize(v.substring(7));
            if (n < 0 || n > Integer.MAX_VALUE) {
                throw new ConfException("invalid " + v.substring(0, 6) + " \"" + v + "\"");
            }
            if (v.charAt(0) == 'r') {
                o.rcvbuf = (int) n;
            } else {
                o.sndbuf = (int) n;
            }
            setBind(o);
            return;
        }
        if (v.startsWith("fastopen=")) {
            if (ConfValues.parseNumber(v.substring(9)) < 0) {
                throw new ConfException("invalid fastopen \"" + v + "\"");
            }
            setBind(o);
            return;
        }
        if (v.startsWith("accept_filter=")) {
            cf.log(LogLevel.EMERG, "accept filters \"" + v + "\" are not supported on this platform, ignored");
            return;
        }
        if (v.equals("deferred")) {
            o.deferredAccept = true;
            setBind(o);
            return;
        }
        if (v.startsWith("ipv6only=o")) {
            ipv6only(cf, o, v);
            return;
        }
        if (v.equals("reuseport")) {
            o.reuseport = true;
            setBind(o);
            return;
        }
        jinx.http.spi.ConnectionTakeover takeover = HttpScope.of(cf).block().core().listenParameters.get(v);
        if (takeover != null) {
            o.takeover = takeover;
            return;
        }
        if (v.equals("ssl") || v.equals("http2") || v.equals("quic")) {
            String module = v.equals("ssl") ? "ngx_http_ssl_module" : v.equals("http2") ? "ngx_http_v2_module"
                : "ngx_http_v3_module";
            throw new ConfException("the \"" + v + "\" parameter requires " + module);
        }
        if (v.startsWith("so_keepalive=")) {
            soKeepalive(o, v.substring(13));
            setBind(o);
            return;
        }
        if (v.equals("proxy_protocol")) {
            o.proxyProtocol = true;
            return;
        }
        throw new ConfException("invalid parameter \"" + v + "\"");
    }

    private static void setBind(ListenOpt o) {
        o.set = true;
        o.bind = true;
    }

    private static void ipv6only(ConfContext cf, ListenOpt o, String v) throws ConfException {
        if (o.sockaddr.family() != jinx.kernel.os.Platform.AF_INET6) {
            cf.log(LogLevel.EMERG, "ipv6only is not supported on addr \"" + o.addrText + "\", ignored");
            return;
        }
        String rest = v.substring(10);
        if (rest.equals("n")) {
            o.ipv6only = true;
        } else if (rest.equals("ff")) {
            o.ipv6only = false;
        } else {
            throw new ConfException("invalid ipv6only flags \"" + v.substring(9) + "\"");
        }
        setBind(o);
    }

    /** {@code on}, {@code off}, or {@code [idle]:[intvl]:[cnt]} with at least one of them. */
    private static void soKeepalive(ListenOpt o, String value) throws ConfException {
        if (value.equals("on")) {
            o.soKeepalive = 1;
            return;
        }
        if (value.equals("off")) {
            o.soKeepalive = 2;
            return;
        }
        String[] parts = value.split(":", -1);
        if (parts.length > 3) {
            throw invalidKeepalive(value);
        }
        long idle = parts[0].isEmpty() ? 0 : ConfValues.parseTime(parts[0], true);
        long intvl = parts.length < 2 || parts[1].isEmpty() ? 0 : ConfValues.parseTime(parts[1], true);
        int cnt = parts.length < 3 || parts[2].isEmpty() ? 0 : ConfValues.parseNumber(parts[2]);
        if (idle < 0 || intvl < 0 || cnt < 0 || idle == 0 && intvl == 0 && cnt == 0) {
            throw invalidKeepalive(value);
        }
        o.tcpKeepidle = idle;
        o.tcpKeepintvl = intvl;
        o.tcpKeepcnt = cnt;
        o.soKeepalive = 1;
    }

    private static ConfException invalidKeepalive(String value) {
        return new ConfException("invalid so_keepalive value: \"" + value + "\"");
    }
}
