package jinx.stream.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.spi.ConfContext;
import jinx.proxy.upstream.HealthCheck;
import jinx.proxy.upstream.Peer;
import jinx.proxy.upstream.PeerZone;
import jinx.proxy.upstream.Upstream;

/**
 * {@code health_check} in a stream server and {@code match name { send ...; expect ...; }} in {@code stream}: nginx
 * Plus' {@code ngx_stream_upstream_hc_module} for TCP on {@link HealthCheck}. Without a match a probe passes when
 * the connection is made; with one it sends {@code send} and passes when what comes back contains the
 * {@code expect} string or matches its {@code ~ regex} (no {@code expect}: passes once sent). Its timeout is
 * {@code health_check_timeout} (5 s, nginx Plus' default: short, since a probe that waits on a dead peer's
 * silence for a minute finds it late).
 */
final class StreamHealthChecks {

    /** A {@code health_check} as read, resolved after the block is merged. */
    record Pending(StreamProxySrvConf conf, HealthCheck.Settings settings, String file, int line) {
    }

    /** A {@code match} block. */
    static final class Match {
        final String name;
        byte[] send;
        String expect;
        Pattern expectRe;

        Match(String name) {
            this.name = name;
        }

        void line(ConfContext cf, List<String> w) throws ConfException {
            String d = w.get(0);
            if (d.equals("send") && w.size() == 2) {
                send = w.get(1).getBytes(StandardCharsets.ISO_8859_1);
            } else if (d.equals("expect") && w.size() == 2) {
                expect = w.get(1);
            } else if (d.equals("expect") && w.size() == 3 && (w.get(1).equals("~") || w.get(1).equals("~*"))) {
                try {
                    expectRe = Pattern.compile(w.get(2), w.get(1).equals("~*") ? Pattern.CASE_INSENSITIVE : 0);
                } catch (PatternSyntaxException e) {
                    throw new ConfException("pcre2_compile() failed: " + e.getDescription() + " in \"" + w.get(2)
                        + "\"");
                }
            } else if (d.equals("send") || d.equals("expect")) {
                throw new ConfException("invalid number of arguments in \"" + d + "\" directive");
            } else {
                throw new ConfException("unknown directive \"" + d + "\"");
            }
        }

        int judge(ByteBuffer answer, boolean eof) {
            if (expect == null && expectRe == null) {
                return HealthCheck.PASS;
            }
            byte[] b = new byte[answer.remaining()];
            answer.get(b);
            String text = new String(b, StandardCharsets.ISO_8859_1);
            boolean found = expectRe != null ? expectRe.matcher(text).find() : text.contains(expect);
            return found ? HealthCheck.PASS : eof ? HealthCheck.FAIL : HealthCheck.MORE;
        }
    }

    private StreamHealthChecks() {
    }

    /** {@code health_check [interval=time] [fails=n] [passes=n] [port=n] [match=name] [mandatory]}. */
    static void directive(ConfContext cf, StreamProxySrvConf conf) throws ConfException {
        HealthCheck.Settings s = HealthCheck.Settings.parse(cf.args().subList(1, cf.args().size()), false);
        StreamUpstreamModule.mainConf(cf).pendingChecks.add(new Pending(conf, s, cf.file(), cf.line()));
    }

    /** {@code match name { ... }}. */
    static void match(ConfContext cf, StreamUpstreamModule.MainConf umcf) throws ConfException {
        String name = cf.arg(1);
        if (umcf.matches.containsKey(name)) {
            throw new ConfException("duplicate match \"" + name + "\"");
        }
        Match m = new Match(name);
        umcf.matches.put(name, m);
        cf.parseBlock(new DataBlockScope((BlockScope) cf.scope(), m::line));
    }

    /** After the block is merged: each check gets the upstream its server's proxy_pass names, with a zone. */
    static void resolve(StreamUpstreamModule.MainConf umcf) throws ConfException {
        for (Pending p : umcf.pendingChecks) {
            Upstream u = p.conf().group();
            if (u == null) {
                throw ConfException.at("health check requires \"proxy_pass\" to an upstream", p.file(), p.line());
            }
            if (u.zone == null) {
                throw ConfException.at("upstream \"" + u.name + "\" must reside in shared memory", p.file(),
                    p.line());
            }
            Match m = null;
            if (p.settings().match != null) {
                m = umcf.matches.get(p.settings().match);
                if (m == null) {
                    throw ConfException.at("match \"" + p.settings().match + "\" not found", p.file(), p.line());
                }
            }
            Match match = m;
            HealthCheck.Probe probe = new HealthCheck.Probe() {
                @Override
                public byte[] request(Peer peer) {
                    return match == null ? null : match.send == null ? new byte[0] : match.send;
                }

                @Override
                public int judge(ByteBuffer answer, boolean eof) {
                    return match == null ? HealthCheck.PASS : match.judge(answer, eof);
                }

                @Override
                public String checking() {
                    return match == null ? "connecting" : "checking response by match \"" + match.name + "\"";
                }
            };
            HealthCheck hc = new HealthCheck(u, p.settings(), probe, "health check");
            hc.connectTimeout = p.conf().healthCheckTimeout;
            hc.readTimeout = p.conf().healthCheckTimeout;
            umcf.checks.add(hc);
        }
        umcf.pendingChecks.clear();
    }

    /** initModule: the zones' records. */
    static void initZones(StreamUpstreamModule.MainConf umcf) throws ConfException {
        for (PeerZone z : umcf.zones.values()) {
            z.init();
        }
    }

    /** initProcess: the peers bound to their zones, the checks started. */
    static void start(StreamUpstreamModule.MainConf umcf, Cycle cycle) {
        for (PeerZone z : umcf.zones.values()) {
            z.attach();
        }
        for (HealthCheck hc : umcf.checks) {
            hc.start(cycle.eventLoop(), cycle.log());
        }
    }

    /** exitProcess: the checks stopped. */
    static void stop(StreamUpstreamModule.MainConf umcf) {
        for (HealthCheck hc : umcf.checks) {
            hc.stop();
        }
    }
}
