package jinx.event.epoll;

import java.util.Map;

import jinx.kernel.testsuite.OpenFds;

/**
 * The process's open descriptors ({@link OpenFds}), with epoll's library loaded before the baseline: every test
 * ends with no descriptor open that it did not begin with.
 */
final class Fds {

    private Fds() {
    }

    /** Loads epoll's library, then {@link OpenFds#baseline()}, so its one-time descriptors are in the baseline. */
    static Map<String, String> baseline() {
        new EpollEventModule().isUsable();
        return OpenFds.baseline();
    }

    /** {@link OpenFds#assertBackTo(Map)}. */
    static void assertBackTo(Map<String, String> baseline) throws InterruptedException {
        OpenFds.assertBackTo(baseline);
    }
}
