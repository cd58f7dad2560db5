package jinx.kernel.os;

import java.nio.file.Path;
import java.util.BitSet;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link ProcessSetup} in this JVM, on threads the tests start (priority and affinity are per thread on Linux).
 * Credentials and sessions change the whole process: {@link ChildJvmTest} tests them in a child JVM.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
class ProcessSetupTest {

    private Map<String, String> baseline;

    @BeforeEach
    void setUp() {
        baseline = Fds.baseline();
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        Fds.assertBackTo(baseline);
    }

    @Test
    void affinityIsTheCallingThreads() throws Exception {
        BitSet all = ProcessSetup.affinity();
        assumeTrue(!all.isEmpty());
        int cpu = all.nextSetBit(0);
        String list = Children.onNewThread(() -> {
            BitSet one = new BitSet();
            one.set(cpu);
            ProcessSetup.setAffinity(one);
            assertEquals(one, ProcessSetup.affinity());
            return field(Children.threadStatus(), "Cpus_allowed_list");
        });
        assertEquals(String.valueOf(cpu), list);
        assertEquals(all, ProcessSetup.affinity(), "this thread is untouched");

        NativeIoException e = Children.onNewThread(
            () -> assertThrows(NativeIoException.class, () -> ProcessSetup.setAffinity(new BitSet())));
        assertEquals("sched_setaffinity() failed (22: Invalid argument)", e.getMessage());
        BitSet tooHigh = new BitSet();
        tooHigh.set(Platform.SIZEOF_CPU_SET_T * 8);
        assertThrows(IllegalArgumentException.class, () -> ProcessSetup.setAffinity(tooHigh));
    }

    @Test
    void priorityIsTheCallingThreads() throws Exception {
        int mine = nice(Signals.gettid());
        assumeTrue(mine < 19);
        int[] niceness = Children.onNewThread(() -> {
            int before = nice(Signals.gettid());
            ProcessSetup.setpriority(before + 1);
            return new int[] {before, nice(Signals.gettid())};
        });
        assertEquals(niceness[0] + 1, niceness[1]);
        assertEquals(mine, nice(Signals.gettid()), "this thread is untouched");
    }

    @Test
    void chdirAndItsFailure() throws Exception {
        String cwd = java.nio.file.Files.readSymbolicLink(Path.of("/proc/self/cwd")).toString();
        ProcessSetup.chdir(cwd);
        assertEquals(cwd, java.nio.file.Files.readSymbolicLink(Path.of("/proc/self/cwd")).toString());
        NativeIoException e = assertThrows(NativeIoException.class, () -> ProcessSetup.chdir("/no/such/dir"));
        assertEquals("chdir(\"/no/such/dir\") failed (2: No such file or directory)", e.getMessage());
    }

    @Test
    void parentDeathSignalIsSetAndCleared() throws Exception {
        // set and cleared at once: the surefire JVM must not die with the Maven thread that started it
        ProcessSetup.setParentDeathSignal(Platform.SIGTERM);
        ProcessSetup.setParentDeathSignal(0);
        NativeIoException e = assertThrows(NativeIoException.class, () -> ProcessSetup.setParentDeathSignal(99));
        assertEquals("prctl(PR_SET_PDEATHSIG, 99) failed (22: Invalid argument)", e.getMessage());
    }

    /** The nice value, field 19 of {@code /proc/self/task/TID/stat}. */
    private static int nice(int tid) throws java.io.IOException {
        String stat = java.nio.file.Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(f[19 - 3]);
    }

    private static String field(String status, String name) {
        for (String line : status.split("\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        throw new AssertionError(name + " not in " + status);
    }
}
