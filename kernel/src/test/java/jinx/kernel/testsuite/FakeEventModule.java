package jinx.kernel.testsuite;

import java.io.IOException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import jinx.kernel.Connection;
import jinx.kernel.Cycle;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.EventActions;
import jinx.kernel.spi.EventModule;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * An event-method module for tests where no real method is on the class path (the kernel's own tests): a module
 * of type {@link EventModule#EVENT} whose usability and priority the test sets, so that {@code events {}} finds
 * a method and {@code event_core} can choose among several. Its table ({@link Actions}) watches no descriptor: it
 * records registrations in the events' {@code active} flags, and its wait only sleeps, waking early for
 * {@link EventActions#notify}.
 */
public final class FakeEventModule implements JinxModule, EventModule {

    /**
     * The default module's name. It sorts before any name a test jar uses ({@code hello}), so a loaded module
     * still ranks after every built-in one.
     */
    public static final String NAME = "fake_event";

    /** The default method's name, as {@code use} names it. */
    public static final String METHOD = "fake";

    private final String name;
    private final String method;
    private final boolean usable;
    private final int priority;

    /** The default fake: {@code fake_event}, method {@code fake}, usable, priority 50 (after epoll and poll). */
    public FakeEventModule() {
        this(NAME, METHOD, true, 50);
    }

    /**
     * A fake of the test's choosing.
     *
     * @param name the module's name
     * @param method the method's name
     * @param usable what {@link #isUsable()} says
     * @param priority what {@link #priority()} says
     */
    public FakeEventModule(String name, String method, boolean usable, int priority) {
        this.name = name;
        this.method = method;
        this.usable = usable;
        this.priority = priority;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ModuleType type() {
        return EventModule.EVENT;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public String methodName() {
        return method;
    }

    @Override
    public boolean isUsable() {
        return usable;
    }

    @Override
    public int priority() {
        return priority;
    }

    @Override
    public EventActions createActions(Cycle cycle, Object conf) {
        return new Actions(method);
    }

    /**
     * The fake method's table: registrations only flip {@code active}; {@link #processEvents} sleeps for the
     * timer, or until notified, and runs the notified handlers.
     */
    public static final class Actions implements EventActions {

        private final String method;
        private final LinkedBlockingQueue<Runnable> notified = new LinkedBlockingQueue<>();
        private EventLoop loop;
        private volatile boolean done;

        Actions(String method) {
            this.method = method;
        }

        /**
         * Returns the name of the method that made this table.
         *
         * @return the method's name
         */
        public String method() {
            return method;
        }

        /**
         * Tells whether {@link #done()} was called.
         *
         * @return true once done
         */
        public boolean isDone() {
            return done;
        }

        @Override
        public void init(EventLoop forLoop) {
            this.loop = forLoop;
        }

        @Override
        public void done() {
            done = true;
        }

        @Override
        public void add(Event ev, int kind, int flags) {
            ev.active = true;
        }

        @Override
        public void del(Event ev, int kind, int flags) {
            ev.active = false;
        }

        @Override
        public void addConnection(Connection c) {
            c.read.active = true;
            c.write.active = true;
        }

        @Override
        public void delConnection(Connection c, int flags) {
            c.read.active = false;
            c.write.active = false;
        }

        @Override
        public void notify(Runnable handler) {
            notified.add(handler);
        }

        @Override
        public void processEvents(long timer, int flags) throws IOException {
            Runnable r;
            try {
                r = timer < 0 ? notified.take() : notified.poll(timer, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("fake wait interrupted", e);
            }
            if ((flags & UPDATE_TIME) != 0) {
                loop.updateTime();
            }
            for (; r != null; r = notified.poll()) {
                r.run();
            }
        }

        @Override
        public int flags() {
            return USE_LEVEL_EVENT;
        }
    }
}
