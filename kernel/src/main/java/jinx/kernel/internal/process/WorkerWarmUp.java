package jinx.kernel.internal.process;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;

import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.Listening;
import jinx.kernel.LoadedModule;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.WarmUpExchange;

/**
 * A worker's warm-up ({@code worker_warmup}), run by a worker a reload started before it reports ready: the old
 * workers still serve, so the time it takes costs no client anything, while a worker JVM that served at once would
 * answer its first second or two from the interpreter and C1 code, at many times its usual latency. nginx has no
 * such step: its workers are compiled before they start.
 *
 * <p>The loop stops accepting; a {@link WarmUpClient} thread sends the modules' {@link WarmUpExchange}s over
 * socket pairs whose server ends this loop accepts on the listening sockets, marked {@link Connection#warmUp};
 * the loop turns until the client is done and the server ends are closed, then accepts again.
 */
final class WorkerWarmUp {

    /** How often the loop wakes to see whether the client is done. */
    private static final long TICK_MS = 50;
    /** How long closing the warm-up's connections may take once the client is done. */
    private static final long DRAIN_MS = 1000;

    private final EventLoop loop;
    private final ErrorLog silent;
    private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();
    private final List<Connection> opened = new ArrayList<>();
    private final List<Long> numbers = new ArrayList<>();

    private record Pending(Listening ls, int fd) {
    }

    private WorkerWarmUp(EventLoop loop, ErrorLog silent) {
        this.loop = loop;
        this.silent = silent;
    }

    /**
     * Runs the warm-up on the calling thread, the loop's.
     *
     * @param cycle the worker's cycle, its modules' {@code initProcess} done
     * @param maxMs the longest it may take
     * @param abort tells that a signal asked the worker to stop
     */
    static void run(KernelCycle cycle, long maxMs, BooleanSupplier abort) {
        List<WarmUpClient.Target> targets = targets(cycle);
        if (targets.isEmpty()) {
            return;
        }
        EventLoop loop = cycle.eventLoop();
        ErrorLog silent;
        try {
            silent = ErrorLog.open(List.of(), System.err);
        } catch (IOException e) {
            return;
        }
        WorkerWarmUp w = new WorkerWarmUp(loop, silent);
        long start = System.nanoTime();
        WarmUpClient client = new WarmUpClient(targets, start + maxMs * 1_000_000L, w::handOver);
        Thread thread = new Thread(client, "warm-up");
        thread.setDaemon(true);
        Event tick = new Event();
        tick.log = cycle.log();
        tick.cancelable = true;
        tick.handler = ev -> loop.addTimer(ev, TICK_MS);
        loop.pauseAccepting();
        loop.addTimer(tick, TICK_MS);
        thread.start();
        try {
            w.turnUntil(() -> {
                if (abort.getAsBoolean()) {
                    client.stop();
                }
                return client.done();
            }, Long.MAX_VALUE, cycle);
            w.turnUntil(w::allClosed, System.nanoTime() + DRAIN_MS * 1_000_000L, cycle);
        } finally {
            if (tick.timerSet()) {
                loop.deleteTimer(tick);
            }
            loop.resumeAccepting();
        }
        long ms = (System.nanoTime() - start) / 1_000_000L;
        String end = client.why().isEmpty() ? "" : " (" + client.why() + ")";
        cycle.log().notice("warm-up: " + client.requests() + " requests in " + ms + " ms" + end);
    }

    /** The listening sockets open in this worker whose module offers exchanges. */
    private static List<WarmUpClient.Target> targets(KernelCycle cycle) {
        List<WarmUpClient.Target> targets = new ArrayList<>();
        for (Listening ls : cycle.listening()) {
            if (ls.fd() < 0 || ls.handler == null) {
                continue;
            }
            List<WarmUpExchange> exchanges = new ArrayList<>();
            for (LoadedModule m : cycle.modules()) {
                exchanges.addAll(m.module().warmUp(cycle, ls));
            }
            if (!exchanges.isEmpty()) {
                targets.add(new WarmUpClient.Target(ls, List.copyOf(exchanges)));
            }
        }
        return targets;
    }

    private interface Condition {
        boolean met();
    }

    private void turnUntil(Condition condition, long deadlineNs, KernelCycle cycle) {
        while (!condition.met() && System.nanoTime() - deadlineNs < 0) {
            try {
                loop.processEventsAndTimers();
            } catch (IOException | RuntimeException e) {
                cycle.log().alert("warm-up: " + e.getMessage());
                return;
            }
        }
    }

    /** Called by the client's thread: the loop accepts the server end at its next turn. */
    private void handOver(Listening ls, int fd) {
        pending.add(new Pending(ls, fd));
        loop.notify(this::acceptPending);
    }

    /** nginx's {@code ngx_event_accept()} for a socket pair's server end. */
    private void acceptPending() {
        for (Pending p = pending.poll(); p != null; p = pending.poll()) {
            Connection c = loop.getConnection(p.fd(), silent);
            if (c == null) {
                close(p.fd());
                continue;
            }
            c.listening = p.ls();
            c.write.ready = true;
            c.number = loop.nextConnectionNumber();
            c.addrText("unix:");
            c.warmUp = true;
            opened.add(c);
            numbers.add(c.number);
            p.ls().handler.accept(c);
        }
    }

    /** Every connection the warm-up opened is closed (its slot free, or lent again). */
    private boolean allClosed() {
        for (int i = 0; i < opened.size(); i++) {
            Connection c = opened.get(i);
            if (c.fd() != -1 && c.number == numbers.get(i) && c.warmUp) {
                return false;
            }
        }
        return pending.isEmpty();
    }

    private static void close(int fd) {
        try {
            Syscalls.close(fd);
        } catch (NativeIoException e) {
            // a socket pair's end nobody else holds
        }
    }
}
