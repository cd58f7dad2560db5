package jinx.http.internal.log;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.event.epoll.EpollEventActions;
import jinx.http.internal.variables.FakeRequest;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.testsuite.LoopHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code flush=} through a real loop's timers (epoll, no socket): the first line put in an empty buffer sets the
 * timer; the timer writes the buffer; the timer does not keep a stopping worker alive.
 */
@EnabledOnOs(OS.LINUX)
class FlushTimerTest {

    @TempDir
    Path prefix;

    @Test
    @Timeout(10)
    void theFlushTimerWritesTheBuffer() throws Exception {
        try (LoopHarness h = new LoopHarness(LogLevel.INFO)) {
            EventLoop loop = h.loop(new EpollEventActions(8), 16);
            LogFixture fx = new LogFixture(prefix);
            fx.logFormat("uri", "$uri");
            Files.createDirectories(prefix.resolve("logs"));
            fx.accessLog(fx.http, "logs/t.log", "uri", "buffer=4k", "flush=100ms");
            fx.postconfiguration();

            FakeRequest r = fx.request(fx.http);
            r.loop = loop;
            r.uri = "/timed";
            long start = System.nanoTime();
            fx.log(r);
            Path file = prefix.resolve("logs/t.log");
            assertEquals("", Files.readString(file));
            assertEquals(1, loop.timerCount());
            assertTrue(loop.noTimersLeft(), "the flush timer is cancelable");

            while (Files.size(file) == 0 && System.nanoTime() - start < 5_000_000_000L) {
                loop.processEventsAndTimers();
            }
            assertEquals("/timed\n", Files.readString(file, StandardCharsets.ISO_8859_1));
            assertTrue((System.nanoTime() - start) / 1_000_000 >= 90, "not before its time");
            assertEquals(0, loop.timerCount());

            r.uri = "/again";
            fx.log(r);
            assertEquals(1, loop.timerCount(), "the next line into an empty buffer sets it again");
            fx.logModule.flush();
            assertEquals(0, loop.timerCount(), "an explicit flush deletes the timer");
            assertEquals("/timed\n/again\n", Files.readString(file, StandardCharsets.ISO_8859_1));
            fx.logModule.close();
        }
    }
}
