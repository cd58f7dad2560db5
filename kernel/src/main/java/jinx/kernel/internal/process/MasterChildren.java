package jinx.kernel.internal.process;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;

import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Processes;
import jinx.kernel.os.Syscalls;
import jinx.kernel.os.WaitStatus;

/**
 * The master's children: the process table and what nginx's {@code ngx_process_cycle.c} does to it —
 * {@code ngx_start_worker_processes()}, {@code ngx_signal_worker_processes()} (the channel first, {@code kill()}
 * when writing fails), {@code ngx_reap_children()} (respawn in the same slot), {@code ngx_pass_open_channel()}.
 * It also keeps the cycles a reload replaced until their last worker is reaped, then releases their zones and
 * closes their logs. Only the master's thread uses it.
 */
final class MasterChildren {

    /** What the master's state says about respawning, read at reap time. */
    interface Policy {
        /** The cycle in force. */
        KernelCycle cycle();

        /** The snapshot of {@code cycle}, for a respawn. */
        int snapshotFd(KernelCycle cycle);

        /** Whether the master is stopping (TERM, INT or QUIT): nothing is respawned. */
        boolean stopping();

        /**
         * A detached child (the new master of a binary upgrade) was reaped; its exit is logged already.
         *
         * @param e its entry
         * @param status how it ended
         */
        default void detachedExited(ProcessTable.Entry e, WaitStatus status) {
        }
    }

    private final ProcessTable table = new ProcessTable();
    private final Policy policy;
    /** Cycles replaced by a reload whose workers still run: released after their last worker. */
    private final List<KernelCycle> retired = new ArrayList<>();

    MasterChildren(Policy policy) {
        this.policy = policy;
    }

    ProcessTable table() {
        return table;
    }

    private ErrorLog log() {
        return policy.cycle().log();
    }

    /**
     * nginx's {@code ngx_start_worker_processes()}: {@code n} workers of {@code cycle} in slots 0 to n-1.
     *
     * @param warmUp whether they warm up before they report ready (a reload's: old workers still serve)
     * @return the new entries
     */
    List<ProcessTable.Entry> start(KernelCycle cycle, int n, int snapshotFd, boolean warmUp) {
        List<ProcessTable.Entry> started = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ProcessTable.Entry e = table.addWorker(i, cycle);
            e.warmUp = warmUp;
            started.add(e);
            if (WorkerSpawner.spawn(e, snapshotFd, log())) {
                passOpenChannel(e);
            } else {
                e.exited = true;
                e.respawn = false;
            }
        }
        return started;
    }

    /** nginx's {@code ngx_pass_open_channel()}: every other worker learns the new one's pid and slot. */
    private void passOpenChannel(ProcessTable.Entry fresh) {
        for (ProcessTable.Entry e : table) {
            if (e != fresh && e.alive() && !e.detached && e.channel != -1) {
                write(e, ProcessChannel.OPEN_CHANNEL, fresh.pid, fresh.slot);
            }
        }
    }

    /**
     * nginx's {@code ngx_signal_worker_processes()} over the workers {@code which} selects: the command over the
     * channel, or {@code kill()} when the channel cannot take it; a worker told QUIT or TERMINATE is exiting (not
     * respawned); QUIT is not repeated to an exiting worker.
     *
     * @param signo {@code SIGQUIT}, {@code SIGTERM}, {@code SIGUSR1}, or another signal sent with {@code kill()}
     */
    void signal(int signo, Predicate<ProcessTable.Entry> which) {
        int command = 0;
        if (signo == Platform.SIGQUIT) {
            command = ProcessChannel.QUIT;
        } else if (signo == Platform.SIGTERM) {
            command = ProcessChannel.TERMINATE;
        } else if (signo == Platform.SIGUSR1) {
            command = ProcessChannel.REOPEN;
        }
        for (ProcessTable.Entry e : table) {
            if (e.detached || !e.alive() || !which.test(e)) {
                continue;
            }
            if (e.exiting && signo == Platform.SIGQUIT) {
                continue;
            }
            boolean stops = signo != Platform.SIGUSR1;
            if (command != 0 && e.channel != -1 && write(e, command, 0, 0)) {
                e.exiting |= stops;
                continue;
            }
            log().log(signo == Platform.SIGKILL ? LogLevel.NOTICE : LogLevel.DEBUG,
                "kill (" + e.pid + ", " + signo + ")");
            try {
                Syscalls.kill(e.pid, signo);
            } catch (NativeIoException ex) {
                log().alert("kill(" + e.pid + ", " + signo + ") failed (" + ex.errno() + ")");
            }
            e.exiting |= stops;
        }
    }

    /** Writes a command; false when the channel is full or broken (the caller falls back to a signal). */
    private boolean write(ProcessTable.Entry e, int command, int pid, int slot) {
        try {
            return ProcessChannel.write(e.channel, command, pid, slot);
        } catch (NativeIoException ex) {
            log().log(LogLevel.DEBUG, "channel of " + e.pid + ": " + ex.getMessage());
            return false;
        }
    }

    /**
     * Reads what a worker wrote on its channel: {@code READY} marks it ready (its start time is logged); end of
     * file closes the master's end (the worker is gone or going; its reap follows).
     *
     * @param e the entry whose channel is readable
     */
    void readChannel(ProcessTable.Entry e) {
        for (;;) {
            ProcessChannel.Message m;
            try {
                m = ProcessChannel.read(e.channel);
            } catch (NativeIoException ex) {
                log().log(LogLevel.DEBUG, "channel of " + e.pid + ": " + ex.getMessage());
                m = new ProcessChannel.Message(0, 0, 0, -1);
            }
            if (m == ProcessChannel.NONE) {
                return;
            }
            if (m.eof()) {
                ProcessChannel.close(e.channel);
                e.channel = -1;
                return;
            }
            if (m.command() == ProcessChannel.READY) {
                ready(e, m.slot());
            } else if (m.command() == ProcessChannel.RELOAD_FAILED && e.respawn) {
                replace(e, "could not reload in place");
            }
        }
    }

    /**
     * A worker's READY: its start's (reload 0) is logged with the time since its spawn, a reload's with the time
     * since the {@code RELOAD}; only the answer to the last {@code RELOAD} makes it ready (two reloads in quick
     * succession may be taken as one: the earlier is not answered).
     */
    private void ready(ProcessTable.Entry e, int reload) {
        long now = System.nanoTime();
        if (reload == 0 && !e.started) {
            e.started = true;
            log().notice(e.name + " " + e.pid + " ready in " + (now - e.spawnedNs) / 1_000_000L + "ms");
        } else if (reload > 0 && reload == e.reload && !e.ready) {
            log().notice(e.name + " " + e.pid + " ready in " + (now - e.reloadNs) / 1_000_000L + "ms");
        }
        if (reload == e.reload && !e.ready) {
            e.ready = true;
            replaced(e);
        }
    }

    /**
     * A worker that could not take the cycle in force in its own JVM (issue #35): a new JVM of that cycle is
     * started in its slot, and the worker, still serving its old cycle, is told QUIT once the new one is ready
     * ({@link #replaced}); it is never respawned.
     *
     * @param e the worker
     * @param why what the log says happened
     */
    void replace(ProcessTable.Entry e, String why) {
        log().alert(e.name + " " + e.pid + " " + why + ": a new one replaces it");
        e.respawn = false;
        if (policy.stopping()) {
            return;
        }
        ProcessTable.Entry n = table.addWorker(e.slot, policy.cycle());
        n.replaces = e;
        if (WorkerSpawner.spawn(n, policy.snapshotFd(n.cycle), log())) {
            passOpenChannel(n);
        } else {
            n.exited = true;
            n.respawn = false;
        }
    }

    /** A replacement is ready: the worker it replaces stops gracefully. */
    private void replaced(ProcessTable.Entry n) {
        ProcessTable.Entry old = n.replaces;
        n.replaces = null;
        if (old != null && old.alive()) {
            signal(Platform.SIGQUIT, x -> x == old);
        }
    }

    /**
     * nginx's {@code ngx_process_get_status()} and {@code ngx_reap_children()}: reaps every finished child,
     * logs it, closes its channel (telling the others, {@code CLOSE_CHANNEL}), force-releases the zone locks it
     * held, and respawns a worker of the cycle in force in the same slot unless it exited with code 2, was told
     * to exit, or the master is stopping.
     */
    void reap() {
        List<WaitStatus> done;
        try {
            done = Processes.reap();
        } catch (NativeIoException ex) {
            log().alert(ex.getMessage());
            return;
        }
        for (WaitStatus ws : done) {
            ProcessTable.Entry e = table.byPid(ws.pid());
            String name = e != null ? e.name : "process";
            String text = ws.describe(name);
            if (ws.termSig() != 0) {
                log().alert(text);
            } else {
                log().notice(text);
            }
            if (e == null) {
                continue;
            }
            e.exited = true;
            ProcessChannel.close(e.channel);
            e.channel = -1;
            if (e.detached) {
                policy.detachedExited(e, ws);
                continue;
            }
            for (ProcessTable.Entry other : table) {
                if (other.alive() && !other.detached && other.channel != -1) {
                    write(other, ProcessChannel.CLOSE_CHANNEL, e.pid, e.slot);
                }
            }
            // a released cycle's zones are left alone (its unlock does nothing): a late reap must not touch them
            e.cycle.unlockSharedZones(ws.pid());
            if (ws.termSig() == 0 && ws.exitCode() == 2 && e.respawn) {
                log().alert(e.name + " " + ws.pid() + " exited with fatal code 2 and cannot be respawned");
                e.respawn = false;
            }
            if (e.respawn && !e.exiting && e.cycle == policy.cycle() && !policy.stopping()) {
                if (WorkerSpawner.spawn(e, policy.snapshotFd(e.cycle), log())) {
                    passOpenChannel(e);
                }
            }
        }
        releaseRetired();
    }

    /**
     * Keeps {@code old} until its last worker is reaped: its zones are released and its log closed then.
     *
     * @param old the replaced cycle
     */
    void retire(KernelCycle old) {
        retired.add(old);
        releaseRetired();
    }

    /** A cycle that never came into force: released now. */
    void discard(KernelCycle fresh) {
        fresh.releaseSharedZones();
    }

    private void releaseRetired() {
        for (Iterator<KernelCycle> it = retired.iterator(); it.hasNext();) {
            KernelCycle c = it.next();
            if (!table.runs(c)) {
                // nothing here keeps a released cycle: an identity set of them held every cycle since the
                // start, 30 KiB of heap per reload in the master (issue #36's soak)
                it.remove();
                c.releaseSharedZones();
                c.log().close();
            }
        }
        table.removeExited();
    }

    /** How many workers are alive: nginx's {@code live}. */
    int live() {
        return table.liveWorkers();
    }
}
