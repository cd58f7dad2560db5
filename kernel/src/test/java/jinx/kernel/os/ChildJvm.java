package jinx.kernel.os;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import jinx.kernel.Rc;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A child JVM running {@link ChildJvmMain}, started with {@link Processes#spawn} as a Jinx process is (DESIGN
 * section 6a): a signal mask, {@code -Xrs}, {@code _JAVA_SR_SIGNUM=39}, descriptors closed from 3. Its stdout is
 * read line by line with a deadline; its stderr is kept for failure messages. Closing it kills it if it is still
 * running and reaps it by pid.
 */
final class ChildJvm implements AutoCloseable {

    private static final long LINE_TIMEOUT_NANOS = 20_000_000_000L;

    private final int pid;
    private final int out;
    private final int err;
    private final NativeMemory mem = new NativeMemory();
    private final long buf = mem.allocate(4096);
    private final StringBuilder pending = new StringBuilder();
    private final StringBuilder seen = new StringBuilder();
    private final StringBuilder stderr = new StringBuilder();
    private boolean reaped;

    private ChildJvm(int pid, int out, int err) {
        this.pid = pid;
        this.out = out;
        this.err = err;
    }

    /**
     * Starts {@code ChildJvmMain args...} with a signal mask (reset to default actions too), the extra
     * descriptors placed at their numbers, everything else from 3 closed.
     */
    static ChildJvm start(SigSet mask, List<SpawnSpec.Dup2> extra, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xrs", "-Xshare:auto", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-Xmx64m",
            "-cp", classPath(), ChildJvmMain.class.getName()));
        argv.addAll(List.of(args));
        List<String> env = new ArrayList<>();
        for (String e : Processes.environment()) {
            if (!e.startsWith("_JAVA_SR_SIGNUM=") && !e.startsWith("JAVA_TOOL_OPTIONS=")) {
                env.add(e);
            }
        }
        env.add("_JAVA_SR_SIGNUM=39");

        int devnull = Files.open("/dev/null", Platform.O_RDWR | Platform.O_CLOEXEC, 0);
        int[] o = Syscalls.pipe(Platform.O_CLOEXEC | Platform.O_NONBLOCK);
        int[] e = Syscalls.pipe(Platform.O_CLOEXEC | Platform.O_NONBLOCK);
        try {
            SpawnSpec spec = new SpawnSpec(argv.get(0), argv, env, List.of(), 3, mask, mask, false, -1)
                .withDup2(devnull, 0).withDup2(o[1], 1).withDup2(e[1], 2);
            for (SpawnSpec.Dup2 d : extra) {
                spec = spec.withDup2(d.fd(), d.target());
            }
            int pid = Processes.spawn(spec);
            return new ChildJvm(pid, o[0], e[0]);
        } catch (Exception x) {
            Fds.closeQuietly(o[0], e[0]);
            throw x;
        } finally {
            Fds.closeQuietly(devnull, o[1], e[1]);
        }
    }

    int pid() {
        return pid;
    }

    /** Asserts the next line of stdout. */
    void expect(String line) throws Exception {
        assertEquals(line, line(), this::transcript);
    }

    /** Returns the next line of stdout, waiting up to 20 s. */
    String line() throws Exception {
        long deadline = System.nanoTime() + LINE_TIMEOUT_NANOS;
        for (;;) {
            int nl = pending.indexOf("\n");
            if (nl >= 0) {
                String line = pending.substring(0, nl);
                pending.delete(0, nl + 1);
                seen.append(line).append('\n');
                return line;
            }
            int n = Syscalls.read(out, buf, 4096);
            if (n > 0) {
                pending.append(string(n));
                continue;
            }
            if (n == 0) {
                throw new AssertionError("end of output; " + transcript());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no line in 20 s; " + transcript());
            }
            Thread.sleep(2);
        }
    }

    /** Waits for the child's end and reaps it. */
    WaitStatus waitFor() throws NativeIoException {
        WaitStatus w = Processes.waitpid(pid, 0);
        reaped = true;
        return w;
    }

    String transcript() {
        try {
            drainStderr();
        } catch (NativeIoException e) {
            stderr.append(e.getMessage());
        }
        return "stdout so far:\n" + seen + pending + "\nstderr:\n" + stderr;
    }

    @Override
    public void close() {
        if (!reaped) {
            Children.killAndReap(pid);
        }
        Fds.closeQuietly(out, err);
        mem.close();
    }

    private void drainStderr() throws NativeIoException {
        for (;;) {
            int n = Syscalls.read(err, buf, 4096);
            if (n <= 0 || n == Rc.AGAIN) {
                return;
            }
            stderr.append(string(n));
        }
    }

    private String string(int n) {
        byte[] b = new byte[n];
        NativeMemory.get(buf, b, 0, n);
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    /** The kernel's classes, the test classes and the runtime dependencies, as surefire gives them. */
    private static String classPath() throws URISyntaxException {
        String tests = Path.of(ChildJvmMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                           .toString();
        String kernel = System.getProperty("jinx.kernel.classes");
        String runtime = System.getProperty("jinx.runtime.path");
        if (kernel == null || runtime == null) {
            return System.getProperty("java.class.path");
        }
        return kernel + File.pathSeparator + tests + File.pathSeparator + runtime;
    }
}
