package jinx.event.poll;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the poll tests share: a log captured in memory, socketpairs, and the process's descriptors read from
 * {@code /proc/self/fd}, so that every test ends with none open that it did not begin with.
 */
final class PollTesting {

    private PollTesting() {
    }

    /** An error log whose lines are kept in memory. */
    static final class CapturedLog {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final ErrorLog log;

        CapturedLog(LogLevel level) {
            try {
                log = ErrorLog.open(List.of(new ErrorLog.Target(null, level)),
                    new PrintStream(bytes, true, StandardCharsets.ISO_8859_1));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        String text() {
            synchronized (bytes) {
                return bytes.toString(StandardCharsets.ISO_8859_1);
            }
        }
    }

    /** A non-blocking, close-on-exec AF_UNIX stream pair. */
    static int[] socketpair() throws NativeIoException {
        return Sockets.socketpair(Platform.AF_UNIX, Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK
                                                    | Platform.SOCK_CLOEXEC);
    }

    /** Loads the libraries first, so their one-time descriptors are in the baseline. */
    static Map<String, String> baseline() {
        Errors.text(Errors.EINTR);
        Syscalls.geteuid();
        PollSyscalls.usable();
        return openFds();
    }

    /**
     * Asserts that no descriptor is open that was not open, to the same file, in {@code baseline}; a JVM thread
     * may hold one for a moment, so a new one must last 200 ms to count.
     */
    static void assertFdsBackTo(Map<String, String> baseline) throws InterruptedException {
        Map<String, String> added = added(baseline);
        for (int i = 0; i < 10 && !added.isEmpty(); i++) {
            Thread.sleep(20);
            added = added(baseline);
        }
        assertEquals(Map.of(), added, "descriptors left open");
    }

    private static Map<String, String> added(Map<String, String> baseline) {
        Map<String, String> added = openFds();
        added.entrySet().removeIf(e -> e.getValue().equals(baseline.get(e.getKey())));
        return added;
    }

    private static Map<String, String> openFds() {
        Map<String, String> fds = new TreeMap<>();
        String self = "/proc/" + ProcessHandle.current().pid() + "/fd";
        try (Stream<Path> list = Files.list(Path.of("/proc/self/fd"))) {
            list.forEach(p -> {
                try {
                    String target = Files.readSymbolicLink(p).toString();
                    if (!target.equals(self)) {
                        fds.put(p.getFileName().toString(), target);
                    }
                } catch (IOException e) {
                    // closed while listing
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return fds;
    }

    /** Closes descriptors, ignoring those already closed (cleanup after a failed assertion). */
    static void closeQuietly(int... fds) {
        for (int fd : fds) {
            if (fd >= 0) {
                try {
                    Syscalls.close(fd);
                } catch (NativeIoException e) {
                    // already closed by the test
                }
            }
        }
    }
}
