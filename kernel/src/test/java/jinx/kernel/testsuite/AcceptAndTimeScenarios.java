package jinx.kernel.testsuite;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.EventHandler;
import jinx.kernel.EventLoop;
import jinx.kernel.Listening;
import jinx.kernel.LogLevel;
import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The loop's settings, run over every event method: {@code timer_resolution} (the cached time moves in steps,
 * timers still fire), {@code multi_accept} (every pending connection taken in one call of the listening socket's
 * handler, against one per call without it), and nginx's answer to {@code EMFILE} in accept (the listening socket
 * disabled, a timer of {@code accept_mutex_delay}, then accepting again). {@link EventActionsContract} inherits
 * these cases, so each method's contract test runs them.
 */
public abstract class AcceptAndTimeScenarios extends EventLoopScenarios {

    /* ---- timer_resolution ---- */

    /**
     * {@code timer_resolution 100ms}: the loop no longer asks the method to refresh the time after each wait; the
     * cached time moves only in steps of at least 100 ms, and a 250 ms timer still fires, no sooner than 250 ms
     * and within a step or two after.
     */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void timerResolutionMovesTheCachedTimeInSteps() throws Exception {
        long resolution = 100;
        EventLoop loop = h.loop(newActions(), SLOTS, resolution, EventLoop.AcceptSettings.SINGLE);
        Event timer = new Event();
        long[] firedAt = {0};
        boolean[] timedout = {false};
        timer.handler = ev -> {
            firedAt[0] = System.nanoTime();
            timedout[0] = ev.timedout;
        };
        loop.updateTime();
        long start = System.nanoTime();
        loop.addTimer(timer, 250);

        List<Integer> cached = new ArrayList<>();
        cached.add(loop.currentMsec());
        long deadline = start + TimeUnit.SECONDS.toNanos(5);
        while (firedAt[0] == 0 && System.nanoTime() - deadline < 0) {
            loop.processEventsAndTimers();
            cached.add(loop.currentMsec());
        }

        assertTrue(firedAt[0] != 0, "the timer never fired; cached times " + cached);
        assertTrue(timedout[0], "fired without timedout");
        long after = TimeUnit.NANOSECONDS.toMillis(firedAt[0] - start);
        assertTrue(after >= 249, "fired after " + after + " ms");
        assertTrue(after <= 250 + 2 * resolution + 300, "fired after " + after + " ms");
        int steps = 0;
        for (int i = 1; i < cached.size(); i++) {
            int step = cached.get(i) - cached.get(i - 1);
            assertTrue(step == 0 || step >= resolution, "a step of " + step + " ms in " + cached);
            steps += step == 0 ? 0 : 1;
        }
        assertTrue(steps >= 2, "the cached time moved " + steps + " times: " + cached);
    }

    /* ---- multi_accept ---- */

    /** The listening socket's handler, counted; the connections accepted. */
    private static final class Accepting {
        final Listening ls;
        final List<Connection> accepted = new ArrayList<>();
        final int[] calls = {0};

        Accepting(Listening ls) {
            this.ls = ls;
        }
    }

    private Accepting listen(EventLoop loop) throws Exception {
        Accepting a = new Accepting(h.listening(64));
        a.ls.handler = a.accepted::add;
        loop.listen(a.ls);
        Event rev = a.ls.connection().read;
        EventHandler accept = rev.handler;
        rev.handler = ev -> {
            a.calls[0]++;
            accept.handle(ev);
        };
        return a;
    }

    /** Connects {@code n} clients and gives the kernel a moment to queue their handshakes. */
    private void connect(Accepting a, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            h.client(a.ls, 2000);
        }
        Thread.sleep(100);
    }

    /**
     * {@code multi_accept on}: five connections waiting, one turn, one call of the listening socket's handler,
     * five connections accepted. With it off, each call accepts one.
     */
    @Test
    @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
    void multiAcceptTakesEveryPendingConnectionInOneCall() throws Exception {
        EventLoop multi = h.loop(newActions(), SLOTS, 0, new EventLoop.AcceptSettings(true, null, 500, false));
        Accepting on = listen(multi);
        connect(on, 5);
        multi.processEventsAndTimers();
        assertEquals(1, on.calls[0], "handler calls");
        assertEquals(5, on.accepted.size(), "accepted in that call");

        EventLoop single = h.loop(newActions(), SLOTS, 0, EventLoop.AcceptSettings.SINGLE);
        Accepting off = listen(single);
        connect(off, 5);
        single.processEventsAndTimers();
        assertEquals(1, off.calls[0], "handler calls");
        assertEquals(1, off.accepted.size(), "accepted in that call");
        assertTrue(LoopHarness.turnUntil(single, 100, 5000, () -> off.accepted.size() == 5), "the other four");
        assertEquals(5, off.calls[0], "one connection per call");
    }

    /* ---- EMFILE ---- */

    /**
     * accept4() failing with EMFILE, provoked by lowering this process's descriptor limit to what is open and
     * filling the gaps: nginx's answer is a [crit] line, the listening socket taken out of the method, and a
     * timer of {@code accept_mutex_delay} that puts it back; once descriptors are free again the waiting
     * connection is accepted after the delay, not before. The limit is restored before anything is asserted.
     */
    @Test
    @Timeout(value = 20, threadMode = ThreadMode.SEPARATE_THREAD)
    void emfileDisablesAcceptForTheDelay() throws Exception {
        long delay = 200;
        EventLoop loop = h.loop(newActions(), SLOTS, 0, new EventLoop.AcceptSettings(false, null, delay, false));
        Accepting a = listen(loop);
        Event rev = a.ls.connection().read;
        warmUp(loop);
        connect(a, 1);

        long start;
        Syscalls.Rlimit saved = Syscalls.getrlimit(Platform.RLIMIT_NOFILE);
        List<Integer> fillers = new ArrayList<>();
        try {
            int highest = OpenFds.open().keySet().stream().mapToInt(Integer::parseInt).max().orElseThrow();
            Syscalls.setrlimit(Platform.RLIMIT_NOFILE, new Syscalls.Rlimit(highest + 1, saved.hard()));
            fill(fillers);
            start = System.nanoTime();
            loop.processEventsAndTimers();
        } finally {
            for (int fd : fillers) {
                Syscalls.close(fd);
            }
            Syscalls.setrlimit(Platform.RLIMIT_NOFILE, saved);
        }

        assertEquals(0, a.accepted.size(), "accepted without a descriptor");
        assertEquals(1, a.calls[0], "handler calls");
        assertTrue(Pattern.compile("\\[crit\\] \\d+#\\d+: accept4\\(\\) failed \\(24: Too many open files\\)\n")
            .matcher(h.logText()).find(), "crit line missing:\n" + h.logText());
        assertFalse(rev.active, "the listening socket still in the method");
        assertTrue(rev.timerSet(), "no timer to enable it again");

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (a.accepted.isEmpty() && System.nanoTime() - deadline < 0) {
            loop.processEventsAndTimers();
        }
        long after = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(1, a.accepted.size(), "the waiting connection was never accepted");
        assertTrue(after >= delay - 1, "accepted again after " + after + " ms");
        assertTrue(rev.active, "the listening socket not back in the method");
        assertFalse(rev.timerSet(), "the timer is still set");
    }

    /*
     * Runs once what the turn without descriptors will run (a crit line, a timer, a NativeIoException), so that no
     * class is loaded then: loading a class from a directory opens a file.
     */
    private void warmUp(EventLoop loop) {
        h.log().log(LogLevel.CRIT, "warm-up before EMFILE");
        Event ev = new Event();
        ev.handler = e -> { };
        loop.addTimer(ev, 1000);
        loop.deleteTimer(ev);
        try {
            Syscalls.close(-1);
        } catch (NativeIoException e) {
            assertEquals(Errors.EBADF, e.errno());
        }
    }

    /* Takes every descriptor number the lowered limit leaves, until EMFILE. */
    private static void fill(List<Integer> fillers) throws NativeIoException {
        for (;;) {
            try {
                fillers.add(Syscalls.eventfd(0, Platform.EFD_CLOEXEC));
            } catch (NativeIoException e) {
                if (e.errno() != Errors.EMFILE) {
                    throw e;
                }
                return;
            }
        }
    }
}
