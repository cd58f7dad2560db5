package jinx.kernel.testsuite;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import jinx.kernel.ConfException;
import jinx.kernel.Connection;
import jinx.kernel.Cycle;
import jinx.kernel.EventLoop;
import jinx.kernel.Listening;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.SockAddr;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;
import jinx.kernel.spi.CoreModule;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.WarmUpExchange;

/**
 * A protocol module in miniature, for the tests of listening sockets and of serving: the core module
 * {@code test_listen} with one main-context directive, {@code test_listen <address> [reuseport] [backlog=N];},
 * which adds a {@link Listening} to the cycle as nginx's {@code listen} does. Its connections are served by
 * {@link LineEcho} (every line comes back), made on the loop's thread at the first accept.
 */
public final class TestListenModule implements JinxModule, CoreModule {

    /** The module's name. */
    public static final String NAME = "test_listen";

    /** The module's conf: the sockets its directives added, and the protocol once a loop serves them. */
    public static final class Conf {
        /** The listening sockets, in the order of the directives. */
        public final List<Listening> listening = new ArrayList<>();
        private final NativeMemory memory = new NativeMemory();
        private volatile LineEcho echo;
        private final AtomicInteger warmUpConnections =
            new AtomicInteger();

        /**
         * Returns how many connections of a warm-up ({@link Connection#warmUp}) were accepted.
         *
         * @return the count
         */
        public int warmUpConnections() {
            return warmUpConnections.get();
        }

        /**
         * Returns the protocol serving this cycle's connections, or null before the first accept.
         *
         * @return the protocol
         */
        public LineEcho echo() {
            return echo;
        }

        private void accept(Connection c) {
            if (c.warmUp) {
                warmUpConnections.incrementAndGet();
            }
            EventLoop loop = c.loop();
            if (echo == null) {
                echo = new LineEcho(loop, 0, memory);
            }
            echo.accept(c);
        }
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of(NAME, Set.of(Ctx.MAIN), Arity.TAKE123, Conf.class, TestListenModule::listen).multi());

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return ModuleType.CORE;
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
    public Object createConf(Cycle cycle) {
        return new Conf();
    }

    /** A warm-up: one line echoed, on every socket of this module. */
    @Override
    public List<WarmUpExchange> warmUp(Cycle cycle, Listening ls) {
        if (!cycle.conf(this, Conf.class).listening.contains(ls)) {
            return List.of();
        }
        return List.of(new WarmUpExchange() {
            private final byte[] line = "warm\n".getBytes(StandardCharsets.US_ASCII);

            @Override
            public byte[] request() {
                return line;
            }

            @Override
            public int responseLength(byte[] buf, int len) {
                for (int i = 0; i < len; i++) {
                    if (buf[i] == '\n') {
                        return i + 1;
                    }
                }
                return -1;
            }
        });
    }

    /** The protocol's memory goes with the process; the loop closes the connections themselves. */
    @Override
    public void exitProcess(Cycle cycle) {
        cycle.conf(this, Conf.class).memory.close();
    }

    private static void listen(ConfContext cf, Conf conf) throws ConfException {
        String text = cf.arg(1);
        SockAddr addr;
        try {
            addr = SockAddr.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ConfException(e.getMessage() + " in \"" + text + "\" of the \"" + NAME + "\" directive");
        }
        Listening ls = new Listening(addr);
        for (String param : cf.args().subList(2, cf.args().size())) {
            if (param.equals("reuseport")) {
                ls.reuseport = true;
            } else if (param.startsWith("backlog=") && ConfValues.parseNumber(param.substring(8)) > 0) {
                ls.backlog = ConfValues.parseNumber(param.substring(8));
            } else {
                throw new ConfException("invalid parameter \"" + param + "\"");
            }
        }
        ls.handler = conf::accept;
        conf.listening.add(ls);
        cf.cycle().addListening(ls);
    }
}
