package jinx.kernel.internal.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.BitSet;

import org.junit.jupiter.api.Test;

import jinx.kernel.CoreConf;

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
}
