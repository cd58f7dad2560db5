package jinx.proxy.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfScope;
import jinx.proxy.upstream.HealthCheck;
import jinx.proxy.upstream.Peer;
import jinx.proxy.upstream.PeerZone;
import jinx.proxy.upstream.Upstream;

/**
 * {@code health_check} in a location and {@code match name {}} in {@code http}: nginx Plus'
 * {@code ngx_http_upstream_hc_module} on {@link HealthCheck}. A location's check probes the upstream its
 * {@code proxy_pass} names, which must have a {@code zone}: {@code GET uri HTTP/1.0} with the upstream's name as
 * {@code Host}, judged by the {@code match} block or, without one, passing on 2xx and 3xx; the probe's timeouts are
 * the location's {@code proxy_connect_timeout} and {@code proxy_read_timeout}.
 */
final class HttpHealthChecks {

    /** A {@code health_check} read, resolved once {@code http {}} is read. */
    record Pending(ProxyLocConf plcf, HealthCheck.Settings settings, String file, int line) {
    }

    private HttpHealthChecks() {
    }

    /** {@code health_check [interval=time] [fails=n] [passes=n] [uri=uri] [port=n] [match=name] [mandatory]}. */
    static void directive(ConfContext cf, ProxyLocConf plcf) throws ConfException {
        HealthCheck.Settings s = HealthCheck.Settings.parse(cf.args().subList(1, cf.args().size()), true);
        UpstreamModule.mainConf(cf).pendingChecks.add(new Pending(plcf, s, cf.file(), cf.line()));
    }

    /** {@code match name { ... }}: its lines go to the match. */
    static void match(ConfContext cf, UpstreamMainConf umcf) throws ConfException {
        String name = cf.arg(1);
        if (umcf.matches.containsKey(name)) {
            throw new ConfException("duplicate match \"" + name + "\"");
        }
        HttpMatch m = new HttpMatch(name);
        umcf.matches.put(name, m);
        ConfScope outer = cf.scope();
        cf.parseBlock(new ConfScope() {
            @Override
            public jinx.kernel.spi.Ctx ctx() {
                return outer.ctx();
            }

            @Override
            public jinx.kernel.spi.ModuleType moduleType() {
                return outer.moduleType();
            }

            @Override
            public Object conf(jinx.kernel.spi.JinxModule module, Class<?> type) {
                return outer.conf(module, type);
            }

            @Override
            public LineHandler lineHandler() {
                return m::line;
            }
        });
    }

    /**
     * Once the upstreams are resolved: each check gets its upstream, which must be named by a {@code proxy_pass}
     * without variables and have a zone, and its match.
     */
    static void resolve(UpstreamMainConf umcf) throws ConfException {
        for (Pending p : umcf.pendingChecks) {
            ProxyPass pass = p.plcf().pass;
            if (pass == null || pass.reference() == null || pass.reference().resolved == null) {
                throw ConfException.at("health check requires \"proxy_pass\" to an upstream", p.file(), p.line());
            }
            Upstream u = pass.reference().resolved;
            if (u.zone == null) {
                throw ConfException.at("upstream \"" + u.name + "\" must reside in shared memory", p.file(),
                    p.line());
            }
            HttpMatch match = null;
            if (p.settings().match != null) {
                match = umcf.matches.get(p.settings().match);
                if (match == null) {
                    throw ConfException.at("match \"" + p.settings().match + "\" not found", p.file(), p.line());
                }
            }
            String uri = p.settings().uri;
            byte[] request = ("GET " + uri + " HTTP/1.0\r\nHost: " + u.name + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
            HttpMatch m = match;
            HealthCheck.Probe probe = new HealthCheck.Probe() {
                @Override
                public byte[] request(Peer peer) {
                    return request;
                }

                @Override
                public int judge(ByteBuffer answer, boolean eof) {
                    return HttpMatch.judge(m, answer, eof);
                }

                @Override
                public String checking() {
                    return m == null ? "checking status code" : "checking response by match \"" + m.name + "\"";
                }
            };
            HealthCheck hc = new HealthCheck(u, p.settings(), probe, "health check \"" + uri + "\"");
            umcf.checks.add(new Running(hc, p.plcf()));
        }
    }

    /** A check with the location whose timeouts it takes once merged. */
    record Running(HealthCheck check, ProxyLocConf plcf) {
    }

    /** initModule: every zone's records. */
    static void initZones(UpstreamMainConf umcf) throws ConfException {
        for (PeerZone z : umcf.zones.values()) {
            z.init();
        }
    }

    /** initProcess: the peers bound to their zones, then the checks started on this worker's loop. */
    static void start(UpstreamMainConf umcf, Cycle cycle) {
        for (PeerZone z : umcf.zones.values()) {
            z.attach();
        }
        List<Running> running = new ArrayList<>(umcf.checks);
        for (Running r : running) {
            HealthCheck hc = r.check();
            hc.connectTimeout = r.plcf().connectTimeout;
            hc.readTimeout = r.plcf().readTimeout;
            hc.start(cycle.eventLoop(), cycle.log());
        }
    }

    /** exitProcess: the checks stopped. */
    static void stop(UpstreamMainConf umcf) {
        for (Running r : umcf.checks) {
            r.check().stop();
        }
    }
}
