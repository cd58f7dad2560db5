package jinx.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The timers of a loop, nginx's {@code ngx_event_timer.c}, on a fake monotonic clock.
 */
class EventTimersTest {

    private long nanos;
    private final CachedTime time = new CachedTime(() -> nanos, () -> 0L, ZoneOffset.UTC);
    private final EventTimers timers = new EventTimers(time);
    private final List<Event> fired = new ArrayList<>();

    /* Sets the monotonic clock to ms (as unsigned 32-bit ms, or any long) and updates the cached time. */
    private void at(long ms) {
        nanos = ms * 1_000_000L;
        time.update();
    }

    private void advance(long ms) {
        at(time.msec() + ms);
    }

    private Event event() {
        Event ev = new Event();
        ev.handler = e -> {
            assertTrue(e.timedout, "timedout");
            assertFalse(e.timerSet(), "timer still set");
            fired.add(e);
        };
        return ev;
    }

    @Test
    @Timeout(5)
    void findIsInfiniteWithNoTimers() {
        assertEquals(EventTimers.INFINITE, timers.find());
        assertEquals(0, timers.size());
        timers.expire();
        assertTrue(fired.isEmpty());
    }

    @Test
    @Timeout(5)
    void findCountsDownToTheOnlyTimer() {
        at(1000);
        Event ev = event();
        timers.add(ev, 5000);
        assertTrue(ev.timerSet());
        assertEquals(6000, ev.timerKey());
        assertEquals(5000, timers.find());
        advance(4000);
        assertEquals(1000, timers.find());
        advance(1500);
        assertEquals(0, timers.find(), "overdue is 0, not negative");
        timers.delete(ev);
        assertFalse(ev.timerSet());
        assertEquals(EventTimers.INFINITE, timers.find());
    }

    @Test
    @Timeout(5)
    void findReturnsTheNearestOfMany() {
        at(0);
        Event a = event();
        Event b = event();
        Event c = event();
        timers.add(a, 60_000);
        timers.add(b, 7000);
        timers.add(c, 3000);
        assertEquals(3, timers.size());
        assertEquals(3000, timers.find());
        timers.delete(c);
        assertEquals(7000, timers.find());
        timers.delete(c);
        assertEquals(2, timers.size(), "deleting an unset timer does nothing");
    }

    @Test
    @Timeout(5)
    void lazyUpdateKeepsTheKeyWithin300Ms() {
        at(0);
        Event ev = event();
        timers.add(ev, 1000);
        assertEquals(1000, ev.timerKey());
        advance(100);
        timers.add(ev, 1000);
        assertEquals(1000, ev.timerKey(), "moved by 100 ms: kept");
        advance(199);
        timers.add(ev, 1000);
        assertEquals(1000, ev.timerKey(), "moved by 299 ms: kept");
        timers.add(ev, 702);
        assertEquals(1000, ev.timerKey(), "moved back by 299 ms: kept");
        advance(1);
        timers.add(ev, 1000);
        assertEquals(1300, ev.timerKey(), "moved by 300 ms: re-inserted");
        timers.add(ev, 700);
        assertEquals(1000, ev.timerKey(), "moved back by 300 ms: re-inserted");
        assertEquals(1, timers.size());
    }

    @Test
    @Timeout(5)
    void expireRunsDueTimersInKeyOrderAndNotBefore() {
        at(10_000);
        Event late = event();
        Event early = event();
        Event middle = event();
        Event sameAsMiddle = event();
        timers.add(late, 500);
        timers.add(early, 100);
        timers.add(middle, 300);
        timers.add(sameAsMiddle, 300);

        advance(99);
        timers.expire();
        assertTrue(fired.isEmpty(), "nothing is due at 99 ms");
        assertEquals(1, timers.find());

        advance(1);
        timers.expire();
        assertEquals(List.of(early), fired);

        advance(250);
        timers.expire();
        assertEquals(List.of(early, middle, sameAsMiddle), fired);
        assertEquals(150, timers.find());

        advance(1000);
        timers.expire();
        assertEquals(List.of(early, middle, sameAsMiddle, late), fired);
        assertEquals(0, timers.size());
        assertEquals(EventTimers.INFINITE, timers.find());
    }

    @Test
    @Timeout(5)
    void aHandlerMayReAddItsOwnTimer() {
        at(0);
        int[] calls = new int[1];
        Event ev = new Event();
        ev.handler = e -> {
            calls[0]++;
            e.timedout = false;
            timers.add(e, 100);
        };
        Event other = event();
        timers.add(ev, 100);
        timers.add(other, 150);

        advance(100);
        timers.expire();
        assertEquals(1, calls[0], "the re-added timer is in the future: not run again now");
        assertTrue(ev.timerSet());
        assertEquals(200, ev.timerKey());
        assertEquals(50, timers.find());

        advance(150);
        timers.expire();
        assertEquals(2, calls[0]);
        assertEquals(List.of(other), fired);
        assertEquals(350, ev.timerKey());
        assertEquals(1, timers.size());
    }

    @Test
    @Timeout(5)
    void aHandlerMayDeleteAnotherDueTimer() {
        at(0);
        Event victim = event();
        Event killer = new Event();
        killer.handler = e -> timers.delete(victim);
        timers.add(killer, 10);
        timers.add(victim, 20);
        advance(30);
        timers.expire();
        assertTrue(fired.isEmpty());
        assertEquals(0, timers.size());
    }

    @Test
    @Timeout(5)
    void timersSurviveTheWrapAt2To32() {
        at((1L << 32) - 100);
        assertEquals(-100, time.msec());
        Event ev = event();
        Event before = event();
        timers.add(ev, 200);
        timers.add(before, 50);
        assertEquals(100, ev.timerKey(), "the key wrapped past 2^32");
        assertEquals(50, timers.find());

        advance(50);
        timers.expire();
        assertEquals(List.of(before), fired);
        assertEquals(150, timers.find());

        advance(149);
        assertEquals(99, time.msec());
        timers.expire();
        assertEquals(List.of(before), fired, "not before 200 ms");
        assertEquals(1, timers.find());

        advance(1);
        timers.expire();
        assertEquals(List.of(before, ev), fired);
    }

    @Test
    @Timeout(5)
    void noTimersLeftIgnoresCancelableTimers() {
        at(0);
        assertTrue(timers.noTimersLeft());
        Event a = event();
        Event b = event();
        a.cancelable = true;
        b.cancelable = true;
        timers.add(a, 1000);
        timers.add(b, 50);
        assertTrue(timers.noTimersLeft(), "only cancelable timers");

        Event keeper = event();
        timers.add(keeper, 5000);
        assertFalse(timers.noTimersLeft(), "one timer that is not cancelable");
        timers.delete(keeper);
        assertTrue(timers.noTimersLeft());
    }

    @Test
    @Timeout(5)
    void clampsTheDelay() {
        at(0);
        Event negative = event();
        timers.add(negative, -5);
        assertEquals(0, negative.timerKey());
        Event huge = event();
        timers.add(huge, Long.MAX_VALUE);
        assertEquals((int) EventTimers.MAX_TIMER, huge.timerKey());
        timers.expire();
        assertEquals(List.of(negative), fired);
    }

    @Test
    @Timeout(5)
    void logsAsNginxDoes() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ErrorLog log = ErrorLog.open(List.of(new ErrorLog.Target(null, LogLevel.DEBUG)),
            new PrintStream(out, true, StandardCharsets.ISO_8859_1));
        Connection c = new Connection(null, 0);
        c.fd = 3;
        c.number = 2;
        Event ev = c.read;
        ev.log = log;
        ev.handler = e -> { };
        Event bare = new Event();
        bare.log = log;
        bare.handler = e -> { };

        at(4_044_177);
        timers.add(ev, 7000);
        advance(100);
        timers.add(ev, 7000);
        timers.delete(ev);
        at((1L << 32) - 100);
        timers.add(bare, 50);
        advance(50);
        timers.expire();

        String[] lines = out.toString(StandardCharsets.ISO_8859_1).split("\n");
        List<String> tails = new ArrayList<>();
        for (String line : lines) {
            assertTrue(line.matches("\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d \\[debug\\] \\d+#\\d+: .*"), line);
            tails.add(line.substring(line.indexOf(": ") + 2));
        }
        assertEquals(List.of(
            "*2 event timer add: 3: 7000:4051177",
            "*2 event timer: 3, old: 4051177, new: 4051277",
            "*2 event timer del: 3: 4051177",
            "event timer add: -1: 50:4294967246",
            "event timer del: -1: 4294967246"), tails);
    }

    @Test
    @Timeout(5)
    void logsNothingBelowDebug() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ErrorLog log = ErrorLog.open(List.of(new ErrorLog.Target(null, LogLevel.INFO)),
            new PrintStream(out, true, StandardCharsets.ISO_8859_1));
        Event ev = event();
        ev.log = log;
        timers.add(ev, 10);
        timers.delete(ev);
        assertEquals(0, out.size());
    }

    @Test
    @Timeout(10)
    void settingAndRunningTimersAllocatesNothing() throws ReflectiveOperationException {
        // reflection, because the tests compile inside module jinx.kernel, which does not read java.management;
        // the boxing it costs is measured and taken off
        Object mx = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
            .invoke(null);
        Class<?> sunMx = Class.forName("com.sun.management.ThreadMXBean");
        Assumptions.assumeTrue(sunMx.isInstance(mx)
            && (Boolean) sunMx.getMethod("isThreadAllocatedMemorySupported").invoke(mx)
            && (Boolean) sunMx.getMethod("isThreadAllocatedMemoryEnabled").invoke(mx),
            "no per-thread allocation counter");
        Method allocated = sunMx.getMethod("getThreadAllocatedBytes", long.class);
        Event[] events = new Event[256];
        int[] calls = new int[1];
        EventHandler handler = e -> calls[0]++;
        for (int i = 0; i < events.length; i++) {
            events[i] = new Event();
            events[i].handler = handler;
            events[i].cancelable = (i & 1) == 0;
        }
        at(0);
        churn(events, 2_000);
        long id = Thread.currentThread().getId();
        long before = (Long) allocated.invoke(mx, id);
        long baseline = (Long) allocated.invoke(mx, id) - before;
        before = (Long) allocated.invoke(mx, id);
        churn(events, 20_000);
        long bytes = (Long) allocated.invoke(mx, id) - before - baseline;
        assertTrue(calls[0] > 0);
        // 20,000 rounds of work; a single allocation per round would be 320 KB at least
        assertTrue(bytes < 4096, "allocated " + bytes + " bytes");
    }

    /* Sets, moves, deletes and runs timers, advancing the clock within one wall second. */
    private void churn(Event[] events, int rounds) {
        for (int r = 0; r < rounds; r++) {
            Event ev = events[r % events.length];
            timers.add(ev, (r * 7919L) % 5000);
            timers.add(ev, (r * 104_729L) % 5000);
            if (r % 3 == 0) {
                timers.delete(events[(r * 31) % events.length]);
            }
            if (r % 16 == 0) {
                nanos += 1_000_000L;
                time.update();
                timers.find();
                timers.noTimersLeft();
                timers.expire();
            }
        }
    }
}
