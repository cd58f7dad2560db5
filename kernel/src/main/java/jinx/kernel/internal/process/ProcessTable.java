package jinx.kernel.internal.process;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import jinx.kernel.internal.cycle.KernelCycle;

/**
 * The master's process table, nginx's {@code ngx_processes[]} of {@code ngx_process_t}: one entry per child, a
 * worker of some cycle or a detached child (nginx's {@code NGX_PROCESS_DETACHED}, e.g. the new master of a binary
 * upgrade) whose exit is logged and never respawned. Only the master's thread touches it.
 */
final class ProcessTable implements Iterable<ProcessTable.Entry> {

    /** One child: nginx's {@code ngx_process_t}. */
    static final class Entry {
        /** The worker number (nginx's slot), kept by a respawn; -1 for a detached child. */
        final int slot;
        /**
         * The cycle the worker serves, or null for a detached child; a reload inside the running workers moves it
         * to the new cycle as it sends {@code RELOAD} ({@link MasterReload}).
         */
        KernelCycle cycle;
        /** The worker this one replaces once it is ready: one whose reload in place failed; or null. */
        Entry replaces;
        /** The number of the last {@code RELOAD} sent to it (0: none), which its READY answers. */
        int reload;
        /** When that {@code RELOAD} was sent, {@link System#nanoTime()}. */
        long reloadNs;
        /** Its first READY (the start's) came. */
        boolean started;
        /** What the log calls it: {@code worker process}, {@code new binary process}. */
        final String name;
        int pid = -1;
        /** The master's end of the channel, or -1. */
        int channel = -1;
        /** Respawned when it exits (nginx's {@code NGX_PROCESS_RESPAWN}). */
        boolean respawn;
        /** Started by this reload: the next signal to all workers skips it once (nginx's just_spawn). */
        boolean justSpawn;
        /** Not a worker: never signalled with the workers, never respawned. */
        boolean detached;
        /** Told to stop: not respawned. */
        boolean exiting;
        /** Reaped. */
        boolean exited;
        /** Reported ready on its channel. */
        /** Started by a reload: warms up before it reports ready ({@code worker_warmup}). */
        boolean warmUp;
        /** Spawned quiet ({@code SCHED_IDLE}): the master lifts it if it is slow to be ready. */
        boolean quiet;
        boolean ready;
        /** When it was spawned, {@link System#nanoTime()}. */
        long spawnedNs;

        Entry(int slot, KernelCycle cycle, String name) {
            this.slot = slot;
            this.cycle = cycle;
            this.name = name;
        }

        boolean alive() {
            return pid != -1 && !exited;
        }
    }

    private final List<Entry> entries = new ArrayList<>();

    /**
     * Adds a worker of {@code cycle} in {@code slot}, respawned when it exits.
     *
     * @param slot the worker number
     * @param cycle its cycle
     * @return the entry, not yet spawned
     */
    Entry addWorker(int slot, KernelCycle cycle) {
        Entry e = new Entry(slot, cycle, "worker process");
        e.respawn = true;
        entries.add(e);
        return e;
    }

    /**
     * Records a detached child (nginx's {@code NGX_PROCESS_DETACHED}): its exit is logged as {@code name pid
     * exited ...} and nothing else happens.
     *
     * @param pid the child's pid
     * @param name what the log calls it, e.g. {@code "new binary process"}
     * @return the entry
     */
    Entry addDetached(int pid, String name) {
        Entry e = new Entry(-1, null, name);
        e.pid = pid;
        e.detached = true;
        entries.add(e);
        return e;
    }

    /**
     * Finds a live child by pid.
     *
     * @param pid the pid
     * @return the entry, or null
     */
    Entry byPid(int pid) {
        for (Entry e : entries) {
            if (e.pid == pid && !e.exited) {
                return e;
            }
        }
        return null;
    }

    /**
     * Returns how many workers (not detached children) are alive: nginx's {@code live}.
     *
     * @return the count
     */
    int liveWorkers() {
        int n = 0;
        for (Entry e : entries) {
            n += e.alive() && !e.detached ? 1 : 0;
        }
        return n;
    }

    /**
     * Tells whether a worker of {@code cycle} is alive.
     *
     * @param cycle the cycle
     * @return whether one runs
     */
    boolean runs(KernelCycle cycle) {
        for (Entry e : entries) {
            if (e.cycle == cycle && e.alive()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns the live workers of {@code cycle}.
     *
     * @param cycle the cycle
     * @return the entries
     */
    List<Entry> workersOf(KernelCycle cycle) {
        List<Entry> list = new ArrayList<>();
        for (Entry e : entries) {
            if (e.cycle == cycle && !e.detached) {
                list.add(e);
            }
        }
        return list;
    }

    /**
     * Returns the entries whose channel is open, for the master's wait.
     *
     * @return the entries
     */
    List<Entry> withChannel() {
        List<Entry> list = new ArrayList<>();
        for (Entry e : entries) {
            if (e.channel != -1) {
                list.add(e);
            }
        }
        return list;
    }

    /** Drops the entries that exited and will not come back. */
    void removeExited() {
        entries.removeIf(e -> e.exited && e.channel == -1);
    }

    /** Iterates over a copy: a respawn or a reload may add entries meanwhile. */
    @Override
    public Iterator<Entry> iterator() {
        return List.copyOf(entries).iterator();
    }
}
