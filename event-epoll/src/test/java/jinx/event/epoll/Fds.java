package jinx.event.epoll;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import jinx.kernel.os.Errors;
import jinx.kernel.os.Syscalls;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The process's open descriptors, read from {@code /proc/self/fd}: every test ends with no descriptor open that it
 * did not begin with.
 */
final class Fds {

    private Fds() {
    }

    /** Loads the libraries first (kernel's and epoll's), so their one-time descriptors are in the baseline. */
    static Map<String, String> baseline() {
        Errors.text(Errors.EINTR);
        Syscalls.geteuid();
        new EpollEventModule().isUsable();
        return open();
    }

    /**
     * Asserts that no descriptor is open now that was not open, to the same file, in {@code baseline}. A JVM
     * thread may hold a descriptor for a moment, so a new one must last 200 ms to count as a leak.
     */
    static void assertBackTo(Map<String, String> baseline) throws InterruptedException {
        Map<String, String> added = added(baseline);
        for (int i = 0; i < 10 && !added.isEmpty(); i++) {
            Thread.sleep(20);
            added = added(baseline);
        }
        assertEquals(Map.of(), added, "descriptors left open");
    }

    private static Map<String, String> added(Map<String, String> baseline) {
        Map<String, String> added = open();
        added.entrySet().removeIf(e -> e.getValue().equals(baseline.get(e.getKey())));
        return added;
    }

    /** Descriptor number to what it refers to; the listing's own descriptor is left out. */
    static Map<String, String> open() {
        Map<String, String> fds = new TreeMap<>();
        try (Stream<Path> list = Files.list(Path.of("/proc/self/fd"))) {
            String self = "/proc/" + ProcessHandle.current().pid() + "/fd";
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
}
