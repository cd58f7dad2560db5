package jinx.proxy.upstream;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import jinx.kernel.ConfException;
import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.Event;
import jinx.kernel.EventConnect;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.PeerConnection;
import jinx.kernel.Rc;
import jinx.kernel.spi.ConfValues;

/**
 * Active health checks of an upstream with a {@code zone}, as nginx Plus' {@code health_check}: every
 * {@code interval} each peer is probed (a connection, a request the protocol writes, an answer it judges: a
 * {@link Probe}); {@code fails} failed probes in a row make it unhealthy, and an unhealthy peer is chosen by no
 * balancer until {@code passes} probes in a row pass. With {@code mandatory} the peers of a new upstream start
 * unhealthy ("checking") until they pass. Added in SPI 1.6.
 *
 * <p>One worker probes a peer at a time: the peer's record in the zone holds when its next probe is due, and a
 * worker whose timer finds it due moves it on by {@code interval} with a compare-and-set, which only one worker
 * wins; the winner probes and writes the result into the zone, where every worker's balancer reads it. This is a
 * lock with a lease rather than a {@link jinx.kernel.ZoneLock} held across the probe because a probe waits for the
 * network: a worker that dies while probing would keep a held lock forever, while a lease simply falls due again.
 *
 * <p>Why the defaults are what they are (nginx Plus' own): {@code interval=5s} finds a dead peer within seconds at
 * the cost of one small request per peer and interval, whatever the traffic; {@code fails=1} because a probe is a
 * request the operator chose to be cheap and reliable, so one failure means something (raise it for flapping
 * peers); {@code passes=1} so that a recovered peer serves again at once ({@code slow_start} on the server is how to
 * ease it back in); {@code mandatory} is off so that adding checks to a running upstream never takes traffic away
 * from peers before their first probe. A probe's time is bounded by the protocol's connect and read timeouts and by
 * the interval: a probe that takes longer than the interval has failed, since the next is due.
 */
public final class HealthCheck {

    /** A probe's answer is not complete yet. */
    public static final int MORE = 0;
    /** The probe passed. */
    public static final int PASS = 1;
    /** The probe failed. */
    public static final int FAIL = 2;

    /** The largest answer a probe reads: enough for a status page's body to be matched. */
    private static final int MAX_ANSWER = 64 * 1024;

    /** What a protocol sends to a peer and how it judges the answer. */
    public interface Probe {

        /**
         * Returns the bytes sent once connected, or null to pass as soon as the connection is made (a TCP check).
         *
         * @param peer the peer probed
         * @return the request
         */
        byte[] request(Peer peer);

        /**
         * Judges what came so far.
         *
         * @param answer the bytes received, from position 0 to the limit
         * @param eof whether the peer closed (or the read buffer is full): the answer is all there is
         * @return {@link #PASS}, {@link #FAIL} or {@link #MORE}
         */
        int judge(ByteBuffer answer, boolean eof);

        /**
         * Says what a failed answer was checked for, for the log line ({@code checking status code}).
         *
         * @return the words
         */
        default String checking() {
            return "checking response";
        }
    }

    /**
     * The parameters of a {@code health_check} directive: {@code interval=5s fails=1 passes=1 port=N match=name
     * mandatory}, and in HTTP {@code uri=/}.
     */
    public static final class Settings {
        /** {@code interval=}, ms. */
        public long interval = 5000;
        /** {@code fails=}. */
        public int fails = 1;
        /** {@code passes=}. */
        public int passes = 1;
        /** {@code port=}, 0 for the peer's. */
        public int port;
        /** {@code mandatory}. */
        public boolean mandatory;
        /** {@code match=}, or null. */
        public String match;
        /** {@code uri=} (HTTP). */
        public String uri = "/";

        /**
         * Parses a directive's parameters.
         *
         * @param args the parameters (after the directive's name)
         * @param http whether {@code uri=} is allowed
         * @return the settings
         * @throws ConfException {@code invalid parameter "x"}
         */
        public static Settings parse(List<String> args, boolean http) throws ConfException {
            Settings s = new Settings();
            for (String a : args) {
                if (a.startsWith("interval=")) {
                    s.interval = ConfValues.parseTime(a.substring(9), false);
                    if (s.interval <= 0) {
                        throw invalid(a);
                    }
                } else if (a.startsWith("fails=")) {
                    s.fails = positive(a, 6);
                } else if (a.startsWith("passes=")) {
                    s.passes = positive(a, 7);
                } else if (a.startsWith("port=")) {
                    s.port = positive(a, 5);
                    if (s.port > 65535) {
                        throw invalid(a);
                    }
                } else if (a.startsWith("match=") && a.length() > 6) {
                    s.match = a.substring(6);
                } else if (http && a.startsWith("uri=") && a.length() > 4) {
                    s.uri = a.substring(4);
                } else if (a.equals("mandatory")) {
                    s.mandatory = true;
                } else {
                    throw invalid(a);
                }
            }
            return s;
        }

        private static int positive(String a, int from) throws ConfException {
            try {
                int n = Integer.parseInt(a.substring(from));
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // the message below
            }
            throw invalid(a);
        }

        private static ConfException invalid(String a) {
            return new ConfException("invalid parameter \"" + a + "\"");
        }
    }

    /** The upstream checked. */
    public final Upstream upstream;
    /** The protocol's probe. */
    public final Probe probe;
    /** What the log calls the check ({@code health check "/"}). */
    public final String label;
    /** {@code interval=}, ms. */
    public long interval = 5000;
    /** {@code fails=}: failed probes in a row that make a peer unhealthy. */
    public int fails = 1;
    /** {@code passes=}: passed probes in a row that make it healthy again. */
    public int passes = 1;
    /** {@code port=}: where the probe connects instead of the peer's port, 0 for the peer's. */
    public int port;
    /** {@code mandatory}: the peers of a new upstream start unhealthy. */
    public boolean mandatory;
    /** The connect timeout, ms. */
    public long connectTimeout = 60_000;
    /** The read (and send) timeout, ms. */
    public long readTimeout = 60_000;

    private final List<Connection> probing = new ArrayList<>();
    private EventLoop loop;
    private ErrorLog log;
    private Event timer;

    /**
     * A check of an upstream; a {@code mandatory} one marks the upstream so that its new peers start unhealthy.
     *
     * @param upstream the upstream, which must have a zone
     * @param settings the directive's parameters
     * @param probe what is sent and judged
     * @param label what the log lines call it ({@code health check "/"})
     */
    public HealthCheck(Upstream upstream, Settings settings, Probe probe, String label) {
        this.upstream = upstream;
        this.probe = probe;
        this.label = label;
        interval = settings.interval;
        fails = settings.fails;
        passes = settings.passes;
        port = settings.port;
        mandatory = settings.mandatory;
        if (mandatory) {
            upstream.mandatory = true;
        }
    }

    /**
     * Starts the check in this worker (its {@code initProcess}, after the zone's peers are bound): a timer that
     * probes the peers whose probe is due.
     *
     * @param eventLoop the worker's loop
     * @param errorLog where results are logged
     */
    public void start(EventLoop eventLoop, ErrorLog errorLog) {
        loop = eventLoop;
        log = errorLog;
        timer = new Event();
        timer.log = errorLog;
        // a worker that is shutting down does not wait for the next probe
        timer.cancelable = true;
        timer.handler = ev -> tick();
        loop.addTimer(timer, 1);
    }

    /** Stops the check: the timer and any probe in flight (a worker exiting, a cycle going away). */
    public void stop() {
        if (timer != null && loop != null) {
            loop.deleteTimer(timer);
        }
        for (Connection c : new ArrayList<>(probing)) {
            c.close();
        }
        probing.clear();
    }

    /** The probes that are due, then the timer again for the next one due. */
    void tick() {
        if (loop.exiting()) {
            return;
        }
        long now = loop.wallMillis();
        long next = interval;
        PeerGroup g = upstream.group();
        for (PeerGroup group = g; group != null; group = group.backup) {
            for (Peer p : group.peers) {
                if (p.down) {
                    continue;
                }
                long due = p.getVolatile(Peer.HC_NEXT);
                if (now >= due) {
                    if (p.compareAndSet(Peer.HC_NEXT, due, now + interval)) {
                        probe(p);
                    }
                    continue;
                }
                next = Math.min(next, due - now);
            }
        }
        // a few ms of jitter so that two workers' timers do not always fire together
        loop.addTimer(timer, Math.max(10, next) + ThreadLocalRandom.current().nextInt(20));
    }

    /** Connects to the peer and sends the request: nginx Plus' ngx_http_upstream_hc_connect(). */
    private void probe(Peer p) {
        PeerConnection pc = new PeerConnection();
        SocketAddress to = p.address;
        if (port != 0 && to instanceof InetSocketAddress in) {
            to = new InetSocketAddress(in.getAddress(), port);
        }
        SocketAddress address = to;
        pc.log = log;
        pc.source = new PeerConnection.Source() {
            @Override
            public int get(PeerConnection c) {
                c.address = address;
                c.name = p.name;
                return Rc.OK;
            }

            @Override
            public void free(PeerConnection c, int state) {
            }
        };
        int rc = EventConnect.connectPeer(loop, pc);
        if (rc != Rc.OK && rc != Rc.AGAIN) {
            if (pc.connection != null) {
                pc.connection.close();
            }
            result(p, false, "connecting");
            return;
        }
        new Exchange(p, pc.connection, probe.request(p), rc == Rc.OK).begin();
    }

    /** One probe's connection: connect, write, read, judge. */
    private final class Exchange {
        private final Peer peer;
        private final Connection c;
        private final ByteBuffer out;
        private final long deadline;
        private ByteBuffer in;
        private boolean connected;
        private boolean done;

        Exchange(Peer peer, Connection c, byte[] request, boolean connected) {
            this.peer = peer;
            this.c = c;
            // the socket layer writes from direct memory only
            this.out = request == null ? null : ByteBuffer.allocateDirect(request.length).put(request).flip();
            this.connected = connected;
            this.deadline = loop.wallMillis() + interval;
        }

        void begin() {
            probing.add(c);
            c.read.cancelable = true;
            c.write.cancelable = true;
            c.read.handler = ev -> read();
            c.write.handler = ev -> write();
            if (connected) {
                write();
                return;
            }
            loop.addTimer(c.write, Math.min(connectTimeout, interval));
        }

        private void write() {
            if (done) {
                return;
            }
            if (c.write.timedout) {
                end(false, connected ? "sending request" : "connecting");
                return;
            }
            if (!connected) {
                if (EventConnect.testConnect(c) != Rc.OK) {
                    end(false, "connecting");
                    return;
                }
                connected = true;
                loop.deleteTimer(c.write);
            }
            if (out == null) {
                end(true, null);
                return;
            }
            while (out.hasRemaining()) {
                int n = c.io().send(c, out);
                if (n == Rc.AGAIN) {
                    loop.addTimer(c.write, timeout(readTimeout));
                    if (loop.handleWriteEvent(c.write) != Rc.OK) {
                        end(false, "sending request");
                    }
                    return;
                }
                if (n < 0) {
                    end(false, "sending request");
                    return;
                }
            }
            loop.deleteTimer(c.write);
            in = ByteBuffer.allocateDirect(MAX_ANSWER);
            loop.addTimer(c.read, timeout(readTimeout));
            read();
        }

        private void read() {
            if (done || in == null) {
                return;
            }
            if (c.read.timedout) {
                end(false, "reading response");
                return;
            }
            for (;;) {
                ByteBuffer dst = in.duplicate();
                int n = dst.hasRemaining() ? c.io().recv(c, dst) : 0;
                if (n == Rc.AGAIN) {
                    int verdict = probe.judge(in.duplicate().flip(), false);
                    if (verdict != MORE) {
                        end(verdict == PASS, probe.checking());
                    } else if (loop.handleReadEvent(c.read, 0) != Rc.OK) {
                        end(false, "reading response");
                    }
                    return;
                }
                if (n < 0) {
                    end(false, "reading response");
                    return;
                }
                in.position(in.position() + n);
                if (n == 0) {
                    end(probe.judge(in.duplicate().flip(), true) == PASS, probe.checking());
                    return;
                }
            }
        }

        /** A timeout no later than the probe's deadline: the next probe is due then. */
        private long timeout(long configured) {
            return Math.max(1, Math.min(configured, deadline - loop.wallMillis()));
        }

        private void end(boolean ok, String what) {
            done = true;
            probing.remove(c);
            c.close();
            result(peer, ok, what);
        }
    }

    /** Writes a probe's result into the peer's record: nginx Plus' ngx_http_upstream_hc_update_status(). */
    void result(Peer p, boolean ok, String what) {
        p.add(Peer.HC_CHECKS, 1);
        if (ok) {
            p.set(Peer.HC_LAST, 1);
            p.set(Peer.HC_FAILS, 0);
            long n = p.get(Peer.HC_PASSES) + 1;
            p.set(Peer.HC_PASSES, n);
            if (n >= passes && health(p, 0, Peer.UNHEALTHY)) {
                if (p.slowStart > 0) {
                    p.set(Peer.RECOVERED, loop == null ? 1 : loop.wallMillis());
                }
                log(LogLevel.NOTICE, "peer is healthy while " + (what == null ? "connecting" : what), p);
            } else {
                health(p, 0, 0);
            }
            return;
        }
        p.set(Peer.HC_LAST, 2);
        p.add(Peer.HC_FAILS_TOTAL, 1);
        p.set(Peer.HC_PASSES, 0);
        long n = p.get(Peer.HC_FAILS) + 1;
        p.set(Peer.HC_FAILS, n);
        if (n >= fails && health(p, Peer.UNHEALTHY, 0)) {
            p.add(Peer.HC_UNHEALTHY, 1);
            log(LogLevel.WARN, "peer is unhealthy while " + what, p);
        } else {
            health(p, 0, 0);
        }
    }

    /**
     * Sets and clears bits of the peer's health word, marking it checked; answers whether {@code set} or
     * {@code clear} changed the unhealthy bit.
     */
    private static boolean health(Peer p, long set, long clear) {
        for (;;) {
            long h = p.getVolatile(Peer.HEALTH);
            long n = (h | set | Peer.CHECKED_ONCE) & ~clear;
            if (p.compareAndSet(Peer.HEALTH, h, n)) {
                return ((h ^ n) & Peer.UNHEALTHY) != 0;
            }
        }
    }

    private void log(LogLevel level, String text, Peer p) {
        if (log != null) {
            log.log(level, text + ", " + label + " of peer " + p.name + " in upstream \"" + upstream.name + "\"");
        }
    }
}
