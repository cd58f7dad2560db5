package jinx.kernel.os;

import java.util.Map;

import jinx.kernel.testsuite.OpenFds;

/**
 * The process's open descriptors ({@link OpenFds}): every OS test ends with no descriptor open that it did not begin
 * with.
 */
final class Fds {

    private Fds() {
    }

    /** {@link OpenFds#baseline()}: what is open once the one-time descriptors are. */
    static Map<String, String> baseline() {
        return OpenFds.baseline();
    }

    /** {@link OpenFds#assertBackTo(Map)}. */
    static void assertBackTo(Map<String, String> baseline) throws InterruptedException {
        OpenFds.assertBackTo(baseline);
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
