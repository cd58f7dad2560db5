package jinx.http.it.zone;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.Rc;
import jinx.kernel.SharedZone;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * A test module with a counter in a shared zone, loaded into a real server with {@code load_module} (a jar the
 * test packs from these classes) to show zones across worker processes. {@code it_counter MODE;} in a location
 * answers {@code VALUE PID}:
 * <ul>
 * <li>{@code cas}: adds one to the first counter with compare-and-set;</li>
 * <li>{@code lock}: adds one to the second counter under the zone's lock, with plain reads and writes;</li>
 * <li>{@code read}: both counters, {@code CAS LOCK PID};</li>
 * <li>{@code hold}: takes the zone's lock and keeps it (a worker that dies holding it);</li>
 * <li>{@code owner}: the pid holding the zone's lock, 0 when free.</li>
 * </ul>
 * The zone ({@value #ZONE}) is declared in {@code postconfiguration}; the master gives it its counters in
 * {@code initModule} (nginx's zone init), the workers find them through {@link jinx.kernel.SlabPool#data()}.
 */
public final class ZoneCounterModule implements JinxModule, HttpModule {

    /** The zone's name. */
    public static final String ZONE = "it_counter";

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("it_counter", Set.of(HttpCtx.LOC), Arity.TAKE1, LocConf.class, (cf, conf) -> {
            conf.mode = cf.arg(1);
        }),
        Directive.of("it_counter_pages", Set.of(HttpCtx.MAIN), Arity.TAKE1, MainConf.class, (cf, conf) -> {
            conf.pages = Integer.parseInt(cf.arg(1));
        }));

    private int ctxIndex = -1;
    private SharedZone zone;

    /** The zone's size in pages, {@code it_counter_pages} (8 by default): another size is another zone. */
    static final class MainConf {
        int pages = 8;
    }

    /** The location's mode, or null. */
    static final class LocConf {
        String mode;
    }

    @Override
    public String name() {
        return "http_it_counter";
    }

    @Override
    public ModuleType type() {
        return HttpCtx.HTTP;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.CURRENT;
    }

    @Override
    public List<String> after() {
        return List.of("http_core");
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
    public Object createMainConf() {
        return new MainConf();
    }

    @Override
    public Object createLocConf() {
        return new LocConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) {
        LocConf c = (LocConf) child;
        if (c.mode == null) {
            c.mode = ((LocConf) parent).mode;
        }
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        int pages = ((MainConf) cf.mainConf(this)).pages;
        zone = cf.cycle().sharedZone(ZONE, pages * SharedZone.PAGE_SIZE, name());
        cf.addPhaseHandler(Phase.PRECONTENT, this::handle);
    }

    @Override
    public void initModule(Cycle cycle) {
        if (!zone.reused()) {
            // two counters, 8-byte aligned: compare-and-set needs a naturally aligned word
            zone.slab().data(zone.slab().calloc(16));
        }
    }

    private int handle(HttpRequest r) {
        String mode = ((LocConf) r.locConf(ctxIndex)).mode;
        if (mode == null) {
            return Rc.DECLINED;
        }
        long counters = zone.slab().data();
        long pid = ProcessHandle.current().pid();
        String body;
        switch (mode) {
            case "cas" -> {
                long v;
                do {
                    v = zone.getLongVolatile(counters);
                } while (!zone.compareAndSetLong(counters, v, v + 1));
                body = (v + 1) + " " + pid;
            }
            case "lock" -> {
                zone.lock().lock();
                long v;
                try {
                    v = zone.getLong(counters + 8) + 1;
                    // a pause between read and write: without the lock, another worker's increment would be lost
                    Thread.onSpinWait();
                    zone.putLong(counters + 8, v);
                } finally {
                    zone.lock().unlock();
                }
                body = v + " " + pid;
            }
            case "read" -> {
                zone.lock().lock();
                try {
                    body = zone.getLongVolatile(counters) + " " + zone.getLong(counters + 8) + " " + pid;
                } finally {
                    zone.lock().unlock();
                }
            }
            case "hold" -> {
                zone.lock().lock();
                body = zone.lock().owner() + " " + pid;
            }
            case "owner" -> body = zone.lock().owner() + " " + pid;
            default -> {
                return Rc.DECLINED;
            }
        }
        r.finalizeRequest(respond(r, body + "\n"));
        return Rc.DONE;
    }

    private static int respond(HttpRequest r, String body) {
        int rc = r.discardRequestBody();
        if (rc != Rc.OK) {
            return rc;
        }
        r.headersOut.status = 200;
        r.headersOut.contentType = "text/plain";
        r.headersOut.contentLengthN = body.length();
        rc = r.sendHeader();
        if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) {
            return rc;
        }
        ByteBuffer b = ByteBuffer.allocateDirect(body.length());
        b.put(body.getBytes(StandardCharsets.ISO_8859_1)).flip();
        Buf buf = Buf.of(b);
        buf.last = true;
        buf.lastInChain = true;
        return r.outputFilter(BufChain.of(buf));
    }
}
