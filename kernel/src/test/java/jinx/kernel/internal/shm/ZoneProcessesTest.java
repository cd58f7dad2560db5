package jinx.kernel.internal.shm;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.SharedZone;
import jinx.kernel.internal.shm.ZoneChild.Words;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A zone shared by real processes: child JVMs ({@link ZoneChild}) map this process's memfd through
 * {@code /proc/PID/fd/N} as workers map the one they inherit. No increment is lost between them, and a child
 * killed with SIGKILL while holding the zone's lock stops the others only until the master's forced unlock.
 */
@EnabledOnOs(OS.LINUX)
@Tag("slow")
@Timeout(value = 120, threadMode = ThreadMode.SEPARATE_THREAD)
class ZoneProcessesTest {

    private static final long SIZE = 16 * SharedZone.PAGE_SIZE;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final List<Process> children = new ArrayList<>();
    private final List<Path> outputs = new ArrayList<>();
    @TempDir
    Path dir;
    private ErrorLog log;
    private ZoneTable master;
    private SharedZone zone;
    private long words;

    @BeforeEach
    void setUp() throws Exception {
        log = ErrorLog.open(List.of(new ErrorLog.Target(null, LogLevel.INFO)),
                            new PrintStream(out, true, StandardCharsets.ISO_8859_1));
        master = new ZoneTable();
        zone = master.add("processes", SIZE, "test");
        master.create(null, log);
        words = zone.slab().calloc(Words.SIZE);
        zone.slab().data(words);
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        for (Process p : children) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        master.release();
        log.close();
    }

    private Process child(String mode, String... more) throws IOException {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:+UseSerialGC", "-cp", cp,
            ZoneChild.class.getName(), mode,
            "/proc/" + ProcessHandle.current().pid() + "/fd/" + zone.fd(), zone.name(), Long.toString(SIZE)));
        cmd.addAll(List.of(more));
        // no pipes: stdin from /dev/null, output to a file read back when a child fails
        Path output = dir.resolve("child-" + children.size() + ".out");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(output.toFile()).start();
        children.add(p);
        outputs.add(output);
        return p;
    }

    private String output(Process p) throws IOException {
        return Files.readString(outputs.get(children.indexOf(p)), StandardCharsets.ISO_8859_1);
    }

    private static void await(String what, LongSupplier value, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (value.getAsLong() != expected) {
            assertTrue(System.nanoTime() < deadline, what + ": " + value.getAsLong() + ", waiting for " + expected);
            Thread.sleep(5);
        }
    }

    @Test
    void twoProcessesLoseNoIncrement() throws Exception {
        int count = 1_000_000;
        Process a = child("add", Integer.toString(count));
        Process b = child("add", Integer.toString(count));
        await("children ready", () -> zone.getLongVolatile(words + Words.READY), 2);
        zone.setLongRelease(words + Words.GO, 1);
        assertTrue(a.waitFor(90, TimeUnit.SECONDS));
        assertTrue(b.waitFor(90, TimeUnit.SECONDS));
        assertEquals(0, a.exitValue(), output(a));
        assertEquals(0, b.exitValue(), output(b));
        assertEquals(2L * count, zone.getLongVolatile(words + Words.ATOMIC), "atomic increments");
        assertEquals(2L * (count / 5), zone.getLongVolatile(words + Words.LOCKED), "increments under the lock");
        assertEquals(0, zone.lock().owner());
    }

    @Test
    void killedHolderIsForcedOpenByTheMaster() throws Exception {
        Process holder = child("hold");
        await("holder has the lock", () -> zone.getLongVolatile(words + Words.READY), 1);
        long pid = holder.pid();
        assertEquals(pid, zone.lock().owner());

        Process waiter = child("lockinc");
        await("waiter started", () -> zone.getLongVolatile(words + Words.READY), 2);
        assertFalse(waiter.waitFor(300, TimeUnit.MILLISECONDS), "the waiter waits for the holder");

        holder.destroyForcibly();
        assertTrue(holder.waitFor(30, TimeUnit.SECONDS));
        assertEquals(128 + 9, holder.exitValue(), "killed by SIGKILL");
        assertEquals(pid, zone.lock().owner(), "a dead holder keeps the lock");
        assertFalse(waiter.waitFor(300, TimeUnit.MILLISECONDS), "and stops the others");
        assertEquals(0, zone.getLongVolatile(words + Words.LOCKED));

        // the master reaps the worker: ngx_unlock_mutexes()
        assertEquals(1, master.forceUnlock(pid, log, null));
        assertTrue(waiter.waitFor(30, TimeUnit.SECONDS), "the others proceed");
        assertEquals(0, waiter.exitValue(), output(waiter));
        assertEquals(1, zone.getLongVolatile(words + Words.LOCKED));
        assertEquals(0, zone.lock().owner());
        String text = out.toString(StandardCharsets.ISO_8859_1);
        assertTrue(text.contains("[alert] "), text);
        assertTrue(text.endsWith("shared memory zone \"processes\" was locked by " + pid + "\n"), text);
    }
}
