package jinx.contrib.status;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

import jinx.http.HttpRequest;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.ConfException;
import jinx.kernel.Connection;
import jinx.kernel.Cycle;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * {@code stub_status;} in a server or location answers with nginx's status text; {@code status_format
 * prometheus;} (server or location, inherited from {@code http}) turns it into Prometheus' text format. The
 * variables {@code $connections_active}, {@code $connections_reading}, {@code $connections_writing} and
 * {@code $connections_waiting} are nginx's. {@code upstream_status;} answers with the live figures of every
 * upstream kept in a {@code zone} ({@link UpstreamStatus}): JSON, or Prometheus' text with {@code status_format
 * prometheus}; {@code status_format json} prints the connection counts as JSON too.
 *
 * <p>How the counts are kept, with what a module sees: a request is counted when it reaches POST_READ (every
 * request whose header was read), and the connection is counted as accepted and handled with its first request
 * (a connection that never sends one is not counted, unlike nginx); a request is "writing" from POST_READ until
 * it is freed; each serving process publishes its own active and waiting (keep-alive) connections every second
 * and whenever it answers a status request; reading is what is left. The totals are in a shared memory zone,
 * so every worker answers with the same numbers.
 */
public final class StatusModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "status";

    private static final long PUBLISH_MS = 1000;
    private static final Set<Ctx> SRV_LOC = Set.of(HttpCtx.SRV, HttpCtx.LOC);
    private static final Set<Ctx> ANY_LEVEL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);

    private static final List<Directive<?>> DIRECTIVES = List.of(
        // nginx before 1.7.5 took "stub_status on"; the argument is accepted and ignored, as nginx does
        Directive.of("stub_status", SRV_LOC, Arity.NOARGS | Arity.TAKE1, StatusLocConf.class,
            (cf, c) -> c.enabled = true),
        Directive.of("upstream_status", SRV_LOC, Arity.NOARGS, StatusLocConf.class,
            (cf, c) -> c.upstreams = true),
        Directive.of("status_format", ANY_LEVEL, Arity.TAKE1, StatusLocConf.class,
            Slots.oneOf(Map.of("stub", StatusLocConf.Format.STUB, "prometheus", StatusLocConf.Format.PROMETHEUS,
                    "json", StatusLocConf.Format.JSON),
                (StatusLocConf c, StatusLocConf.Format f) -> c.format = f)));

    private int ctxIndex = -1;
    private Cycle cycle;
    private StatusZone zone;
    private EventLoop loop;
    private final Event publisher = new Event();

    /** Instantiated by the kernel, once per configuration. */
    public StatusModule() {
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
    public List<String> before() {
        return List.of("http_index");
    }

    @Override
    public Object createLocConf() {
        return new StatusLocConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) {
        StatusLocConf prev = (StatusLocConf) parent;
        StatusLocConf conf = (StatusLocConf) child;
        if (conf.format == null) {
            conf.format = prev.format != null ? prev.format : StatusLocConf.Format.STUB;
        }
    }

    @Override
    public void preconfiguration(HttpConfig cf) throws ConfException {
        variable(cf, "connections_active", StatusZone.Totals::active);
        variable(cf, "connections_reading", StatusZone.Totals::reading);
        variable(cf, "connections_writing", StatusZone.Totals::writing);
        variable(cf, "connections_waiting", StatusZone.Totals::waiting);
    }

    private void variable(HttpConfig cf, String name, ToLongFunction<StatusZone.Totals> field)
        throws ConfException {
        cf.addVariable(name, (r, n) -> zone.ready() ? Long.toString(field.applyAsLong(totals(r))) : "0",
            HttpConfig.VAR_NOCACHEABLE);
    }

    /** The zone is declared while the configuration is read: the master creates it, the workers attach it. */
    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        zone = new StatusZone(cf.cycle().sharedZone(StatusZone.NAME, StatusZone.SIZE, NAME));
        cf.addPhaseHandler(Phase.POST_READ, this::count);
        cf.addPhaseHandler(Phase.CONTENT, this::handler);
    }

    @Override
    public void initModule(Cycle cycle) {
        if (zone != null) {
            zone.init();
        }
    }

    @Override
    public void initProcess(Cycle cycle) {
        this.cycle = cycle;
        if (zone == null) {
            return;
        }
        zone.attach(ProcessHandle.current().pid());
        loop = cycle.eventLoop();
        publisher.handler = ev -> {
            publish();
            loop.addTimer(publisher, PUBLISH_MS);
        };
        publisher.log = cycle.log();
        // a worker that is shutting down does not wait for this timer
        publisher.cancelable = true;
        publish();
        loop.addTimer(publisher, PUBLISH_MS);
    }

    @Override
    public void exitProcess(Cycle cycle) {
        if (zone != null) {
            zone.release();
        }
    }

    /** POST_READ: nginx counts in ngx_event_accept() and ngx_http_alloc_request(); this is the nearest a module is. */
    private int count(HttpRequest r) {
        // a worker's warm-up requests are no client's
        if (!zone.ready() || r.connection().warmUp) {
            return Rc.DECLINED;
        }
        zone.add(StatusZone.REQUESTS, 1);
        if (r.connection().requests == 1) {
            zone.add(StatusZone.ACCEPTED, 1);
            zone.add(StatusZone.HANDLED, 1);
        }
        zone.add(StatusZone.WRITING, 1);
        r.addCleanup(() -> zone.add(StatusZone.WRITING, -1));
        return Rc.DECLINED;
    }

    private StatusZone.Totals totals(HttpRequest r) {
        loop = r.loop();
        publish();
        return zone.totals();
    }

    /** This process's accepted connections that are open, and those of them idle in keep-alive. */
    private void publish() {
        if (loop == null || !zone.ready()) {
            return;
        }
        long active = 0;
        for (int i = 0; i < loop.connectionCount(); i++) {
            Connection c = loop.connection(i);
            // the listening sockets have slots too, their read event an accept event
            if (c.listening != null && c.fd() != -1 && !c.read.accept && !c.warmUp) {
                active++;
            }
        }
        zone.publish(active, loop.reusableConnectionCount());
    }

    private int handler(HttpRequest r) {
        StatusLocConf conf = (StatusLocConf) r.locConf(ctxIndex);
        if (!conf.enabled && !conf.upstreams) {
            return Rc.DECLINED;
        }
        if ((r.method & (HttpRequest.GET | HttpRequest.HEAD)) == 0) {
            return 405;
        }
        int rc = r.discardRequestBody();
        if (rc != Rc.OK) {
            return rc;
        }
        if (!zone.ready()) {
            r.log().alert("the status zone \"" + StatusZone.NAME + "\" is not mapped");
            return 500;
        }
        StatusZone.Totals t = totals(r);
        String text;
        if (conf.upstreams) {
            List<UpstreamStatus.Group> groups = UpstreamStatus.read(cycle.sharedZones(), r.loop().wallMillis());
            boolean prometheus = conf.format == StatusLocConf.Format.PROMETHEUS;
            r.headersOut.contentType = prometheus ? "text/plain; version=0.0.4; charset=utf-8" : "application/json";
            text = prometheus ? UpstreamStatus.prometheus(groups) : UpstreamStatus.json(groups);
        } else if (conf.format == StatusLocConf.Format.JSON) {
            r.headersOut.contentType = "application/json";
            text = StatusOutput.json(t);
        } else if (conf.format == StatusLocConf.Format.PROMETHEUS) {
            r.headersOut.contentType = "text/plain; version=0.0.4; charset=utf-8";
            text = StatusOutput.prometheus(t);
        } else {
            r.headersOut.contentType = "text/plain";
            text = StatusOutput.stub(t);
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        r.headersOut.status = 200;
        r.headersOut.contentLengthN = bytes.length;
        rc = r.sendHeader();
        if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) {
            return rc;
        }
        ByteBuffer data = ByteBuffer.allocateDirect(bytes.length);
        data.put(bytes).flip();
        Buf b = Buf.of(data);
        b.last = true;
        b.lastInChain = true;
        return r.outputFilter(BufChain.of(b));
    }
}
