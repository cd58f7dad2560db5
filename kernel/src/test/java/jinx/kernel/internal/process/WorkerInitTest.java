package jinx.kernel.internal.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.kernel.CoreConf;
import jinx.kernel.ErrorLog;
import jinx.kernel.os.Platform;
import jinx.kernel.os.ProcessSetup;
import jinx.kernel.os.Syscalls;

class WorkerInitTest {

    private static BitSet cpus(int... n) {
        BitSet b = new BitSet();
        for (int i : n) {
            b.set(i);
        }
        return b;
    }

    @Test
    void noAffinityWhenNotConfigured() {
        assertNull(WorkerInit.cpuAffinity(new CoreConf(), 0));
    }

    @Test
    void masksGoToWorkersInOrderAndTheLastServesTheRest() {
        CoreConf c = new CoreConf();
        c.cpuAffinity.add(cpus(0));
        c.cpuAffinity.add(cpus(1, 2));
        assertEquals(cpus(0), WorkerInit.cpuAffinity(c, 0));
        assertEquals(cpus(1, 2), WorkerInit.cpuAffinity(c, 1));
        assertEquals(cpus(1, 2), WorkerInit.cpuAffinity(c, 5));
    }

    @Test
    void autoGivesEachWorkerTheNextCpuOfTheMaskRoundRobin() {
        CoreConf c = new CoreConf();
        c.cpuAffinityAuto = true;
        c.cpuAffinity.add(cpus(0, 1, 2, 3));
        c.cpuAffinity.add(cpus(1, 3, 6));
        assertEquals(cpus(1), WorkerInit.cpuAffinity(c, 0));
        assertEquals(cpus(3), WorkerInit.cpuAffinity(c, 1));
        assertEquals(cpus(6), WorkerInit.cpuAffinity(c, 2));
        assertEquals(cpus(1), WorkerInit.cpuAffinity(c, 3));
        c.cpuAffinity.clear();
        c.cpuAffinity.add(new BitSet());
        assertNull(WorkerInit.cpuAffinity(c, 0), "an empty mask: nginx sets nothing");
    }

    private static CoreConf priority(Integer nice) {
        CoreConf c = new CoreConf();
        if (nice != null) {
            c.priority = nice;
            c.prioritySet = true;
        }
        return c;
    }

    @Test
    void aWorkerStartsTenNiceValuesAboveItsPriorityAndTakesItsOwnOnceReady() {
        assertEquals(0, WorkerInit.targetNice(priority(null), 0), "no worker_priority: the master's");
        assertEquals(3, WorkerInit.targetNice(priority(null), 3));
        assertEquals(5, WorkerInit.targetNice(priority(5), 0));
        assertEquals(-10, WorkerInit.startNice(0));
        assertEquals(-5, WorkerInit.startNice(5));
        assertEquals(-20, WorkerInit.startNice(-15), "at most -20");
    }

    /** The nice value of a thread, field 19 of its stat. */
    private static int nice(long pid, long tid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/task/" + tid + "/stat"));
        return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19 - 3]);
    }

    @Test
    @Timeout(30)
    void theMasterLiftsAQuietWorkerToNice19ThenToItsOwn() throws Exception {
        assumeTrue(WorkerInit.canBeQuiet(), "lifting a thread out of SCHED_IDLE needs root (CAP_SYS_NICE)");
        Process p = new ProcessBuilder("sleep", "30").start();
        try {
            int pid = (int) p.pid();
            ProcessSetup.setScheduler(pid, Platform.SCHED_IDLE);
            assertEquals(Platform.SCHED_IDLE, ProcessSetup.scheduler(pid));
            ErrorLog log = ErrorLog.open(List.of(), System.err);
            WorkerInit.lift(pid, 19, log);
            assertEquals(Platform.SCHED_OTHER, ProcessSetup.scheduler(pid));
            assertEquals(19, nice(pid, pid));
            WorkerInit.lift(pid, 0, log);
            assertEquals(Platform.SCHED_OTHER, ProcessSetup.scheduler(pid));
            assertEquals(0, nice(pid, pid));
        } finally {
            p.destroyForcibly().waitFor();
        }
    }

    @Test
    @Timeout(60)
    void aBoostedWorkerKeepsItsBoostOnlyOnTheThreadThatStartsItsLoop() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux: one nice value per thread");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), UnboostProbe.class.getName())
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            String out = new String(p.getInputStream().readAllBytes()).strip();
            assertEquals(0, p.waitFor());
            String[] nices = out.split(" ");
            int main = Integer.parseInt(nices[0]);
            assertTrue(nices.length > 5, "the JVM's own threads are there: " + out);
            for (int i = 1; i < nices.length; i++) {
                assertEquals(Math.min(19, main + 5), Integer.parseInt(nices[i]), out);
            }
        } finally {
            p.destroyForcibly().waitFor();
        }
    }

    @Test
    void aWorkerThatStaysRootCanAlwaysBeQuiet() {
        assumeTrue(WorkerInit.canBeQuiet(), "as root only");
        CoreConf c = new CoreConf();
        assertTrue(WorkerInit.canBeQuiet(c, 0), "no user: the worker stays root");
        c.uid = 0;
        assertTrue(WorkerInit.canBeQuiet(c, 0), "user root");
    }

    @Test
    void aWorkerThatDropsPrivilegesIsQuietOnlyIfItCanComeBack() throws Exception {
        assumeTrue(WorkerInit.canBeQuiet(), "as root only");
        CoreConf c = new CoreConf();
        c.uid = 65534;
        long capEff = 0;
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("CapEff:")) {
                capEff = Long.parseUnsignedLong(line.substring(7).strip(), 16);
            }
        }
        boolean canRaise = (capEff >>> 24 & 1) != 0;
        boolean allowed = Syscalls.getrlimit(Platform.RLIMIT_NICE).hard() >= 20;
        assertEquals(canRaise || allowed, WorkerInit.canBeQuiet(c, 0));
    }
}
