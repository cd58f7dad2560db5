package jinx.http.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * What the tests of {@code master_process on} share: waiting for a master's workers and for its error log,
 * stopping it with TERM, and killing it and its workers by pid when a test ends.
 */
final class Masters {

    private Masters() {
    }

    /** Waits until the master has {@code n} live children, none of them in {@code gone}. */
    static List<ProcessHandle> waitForWorkers(ProcessHandle master, int n, List<ProcessHandle> gone)
        throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        List<ProcessHandle> children = List.of();
        while (System.nanoTime() < end) {
            children = master.children().filter(ProcessHandle::isAlive).filter(h -> !gone.contains(h)).toList();
            if (children.size() == n) {
                return children;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("workers: " + children);
    }

    /** Waits (20 s at most) until the site's error log contains {@code text}; returns the log. */
    static String waitForLog(Site site, String text) throws Exception {
        return waitForLog(site, log -> log.contains(text), 20, "\"" + text + "\" not in the error log:\n");
    }

    /** Waits (30 s at most) until {@code done} holds for the site's error log; returns the log. */
    static String waitForLog(Site site, Predicate<String> done) throws Exception {
        return waitForLog(site, done, 30, "the error log:\n");
    }

    private static String waitForLog(Site site, Predicate<String> done, int seconds, String failure)
        throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String log = "";
        while (System.nanoTime() < end) {
            log = Files.exists(site.root().resolve("logs/error.log")) ? site.read("logs/error.log") : "";
            if (done.test(log)) {
                return log;
            }
            Thread.sleep(20);
        }
        throw new AssertionError(failure + log);
    }

    /** TERM to the master: it must exit within 20 s and remove its pid file. */
    static void stopMaster(Process p, Site site) throws Exception {
        Syscalls.kill(p.pid(), Platform.SIGTERM);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the master is still running after SIGTERM");
        assertFalse(Files.exists(site.root().resolve("logs/jinx.pid")), "the pid file is left");
    }

    /** Kills the master and its workers, whatever state the test left them in. */
    static void kill(Process p) throws InterruptedException {
        List<ProcessHandle> children = p.toHandle().children().toList();
        p.toHandle().destroyForcibly();
        for (ProcessHandle c : children) {
            c.destroyForcibly();
        }
        p.waitFor(10, TimeUnit.SECONDS);
    }
}
