package jinx.kernel.os;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

/**
 * Test helpers for spawned children: run one to its end with its output captured, read {@code /proc} listings,
 * run code on a fresh thread (masks and affinity are per thread). Every child is reaped by its pid; its stdin is
 * /dev/null and its stdout and stderr a pipe, so nothing reaches the surefire channel.
 */
final class Children {

    private Children() {
    }

    /** A finished child: its pid, everything it wrote to stdout and stderr, and how it ended. */
    record Output(int pid, String out, WaitStatus status) {
    }

    /** Runs a child to its end (stdin /dev/null, stdout and stderr captured) and reaps it by pid. */
    static Output run(SpawnSpec spec) throws Exception {
        return run(spec, true);
    }

    /** As {@link #run(SpawnSpec)}, choosing how {@code closeFrom} is done. */
    static Output run(SpawnSpec spec, boolean useAddclosefrom) throws Exception {
        int devnull = Files.open("/dev/null", Platform.O_RDWR | Platform.O_CLOEXEC, 0);
        int[] pipe = Syscalls.pipe(Platform.O_CLOEXEC);
        int pid = -1;
        try (NativeMemory mem = new NativeMemory()) {
            SpawnSpec s = spec.withDup2(devnull, 0).withDup2(pipe[1], 1).withDup2(pipe[1], 2);
            pid = Processes.spawn(s, useAddclosefrom && Processes.hasAddclosefrom());
            Syscalls.close(pipe[1]);
            pipe[1] = -1;
            String out = readAll(pipe[0], mem);
            WaitStatus status = Processes.waitpid(pid, 0);
            pid = -1;
            return new Output(status.pid(), out, status);
        } finally {
            killAndReap(pid);
            Fds.closeQuietly(devnull, pipe[0], pipe[1]);
        }
    }

    /** Reads a blocking descriptor to its end. */
    static String readAll(int fd, NativeMemory mem) throws NativeIoException {
        long buf = mem.allocate(4096);
        StringBuilder sb = new StringBuilder();
        for (;;) {
            int n = Syscalls.read(fd, buf, 4096);
            if (n <= 0) {
                return sb.toString();
            }
            byte[] b = new byte[n];
            NativeMemory.get(buf, b, 0, n);
            sb.append(new String(b, StandardCharsets.ISO_8859_1));
        }
    }

    /** Kills a child that is still there (a failed test) and reaps it. */
    static void killAndReap(int pid) {
        if (pid <= 0) {
            return;
        }
        try {
            Syscalls.kill(pid, Platform.SIGKILL);
            Processes.waitpid(pid, 0);
        } catch (NativeIoException e) {
            // reaped already
        }
    }

    /**
     * The descriptors {@code ls -l /proc/self/fd} listed, number to target, without the one {@code ls} itself
     * opened to read the directory.
     */
    static Map<Integer, String> fdListing(String lsOutput) {
        Map<Integer, String> fds = new TreeMap<>();
        for (String line : lsOutput.split("\n")) {
            int arrow = line.indexOf(" -> ");
            if (arrow < 0) {
                continue;
            }
            String target = line.substring(arrow + 4);
            if (target.matches("/proc/\\d+/fd")) {
                continue;
            }
            String[] words = line.substring(0, arrow).trim().split("\\s+");
            fds.put(Integer.parseInt(words[words.length - 1]), target);
        }
        return fds;
    }

    /** A {@code /proc/PID/status} mask line ({@code SigBlk}, {@code SigIgn}) as a number: bit n-1 is signal n. */
    static long mask(String status, String field) {
        for (String line : status.split("\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseUnsignedLong(line.substring(field.length() + 1).trim(), 16);
            }
        }
        throw new AssertionError(field + " not in " + status);
    }

    /** The bits of some signals, as {@code /proc} prints masks. */
    static long bits(int... signals) {
        long bits = 0;
        for (int s : signals) {
            bits |= 1L << (s - 1);
        }
        return bits;
    }

    /** This thread's {@code /proc} status. */
    static String threadStatus() throws java.io.IOException {
        return java.nio.file.Files.readString(Path.of("/proc/self/task/" + Signals.gettid() + "/status"));
    }

    /** Runs code on a new thread and returns its result (signal masks, priority and affinity are per thread). */
    static <T> T onNewThread(Callable<T> code) throws Exception {
        FutureTask<T> task = new FutureTask<>(code);
        Thread t = new Thread(task, "os-test");
        t.start();
        try {
            return task.get(8, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception x) {
                throw x;
            }
            throw new AssertionError(e.getCause());
        } finally {
            t.join(8000);
        }
    }
}
