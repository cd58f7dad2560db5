package jinx.kernel.internal.process;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import jinx.kernel.ConfException;
import jinx.kernel.CoreConf;
import jinx.kernel.ErrorLog;
import jinx.kernel.internal.cli.Main;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.ConfSnapshot;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.ProcessSetup;
import jinx.kernel.os.Syscalls;

/**
 * A worker JVM's entry point ({@link WorkerSpawner} starts it): {@code WorkerMain <slot> <listening count>
 * <zone names, comma-separated> <nice value once ready> <warm-up ms, 0 for none>}, with the descriptors the master placed (the snapshot, the channel, the
 * listening sockets, the zones). Reads the snapshot, attaches its cycle, drops privileges per {@code user} (a
 * failure is exit code 2: not respawned), serves ({@link SingleProcess#runWorker}: the channel and the signalfd
 * in its loop, {@code READY} on the channel once it turns). Exit code 2 too when the cycle cannot be attached or
 * a module cannot start; 1 for an unexpected error, including an {@code Error} on any thread: a JVM whose loop
 * died must not stay alive holding the port, its master respawns it.
 */
public final class WorkerMain {

    private WorkerMain() {
    }

    /**
     * Runs a worker and exits with its code.
     *
     * @param args slot, listening count, zone names, nice value, warm-up milliseconds
     */
    public static void main(String[] args) {
        // an Error on any thread leaves the JVM in doubt: exit (code 1, respawned) rather than limp on
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            e.printStackTrace();
            if (e instanceof Error) {
                Runtime.getRuntime().halt(1);
            }
        });
        int code;
        try {
            code = run(args);
        } catch (Throwable t) {
            t.printStackTrace();
            code = 1;
        }
        System.exit(code);
    }

    private static int run(String[] args) throws Exception {
        int nice = Integer.parseInt(args[3]);
        PrintStream err = new PrintStream(System.err, true, StandardCharsets.ISO_8859_1);
        ErrorLog early = ErrorLog.early(err, null);
        WorkerInit.unboostOtherThreads(nice, early);
        int listening = Integer.parseInt(args[1]);
        String[] zones = args.length > 2 && !args[2].isEmpty() ? args[2].split(",") : new String[0];
        ConfSnapshot snapshot = ConfSnapshot.readFrom(MasterProcess.SNAPSHOT_FD);
        int[] fds = new int[listening];
        int slot = Integer.parseInt(args[0]);
        for (int i = 0; i < listening; i++) {
            // another worker's reuseport clone is not inherited (nginx: ls->worker != ngx_worker)
            int owner = snapshot.listening().get(i).worker();
            fds[i] = owner == -1 || owner == slot ? MasterProcess.FIRST_LISTENING_FD + i : -1;
        }
        KernelCycle cycle;
        try {
            cycle = CycleBuilder.attach(snapshot.workerOptions(Main::discover, BuiltinOrder.NAMES, err, early), fds);
            Map<String, Integer> zoneFds = new HashMap<>();
            for (int i = 0; i < zones.length; i++) {
                zoneFds.put(zones[i], MasterProcess.FIRST_LISTENING_FD + listening + i);
            }
            cycle.attachSharedZones(zoneFds);
        } catch (ConfException e) {
            early.emerg(e.getMessage());
            return 2;
        }
        Syscalls.close(MasterProcess.SNAPSHOT_FD);
        CoreConf core = cycle.conf(MainCoreModule.NAME, CoreConf.class);
        WorkerInit.apply(cycle, slot);
        WorkerInit.allowReturnFromQuiet(core, nice, cycle.log());
        try {
            if (Syscalls.geteuid() == 0 && core.uid >= 0) {
                WorkerInit.giveAttachSocket(core, cycle.log());
                ProcessSetup.setgid(core.gid);
                ProcessSetup.initgroups(core.user, core.gid);
                ProcessSetup.setuid(core.uid);
            }
            if (core.workingDirectory != null) {
                ProcessSetup.chdir(core.workingDirectory.toString());
            }
        } catch (NativeIoException e) {
            cycle.log().emerg(e.getMessage());
            return 2;
        }
        long warmUpMs = args.length > 4 ? Long.parseLong(args[4]) : 0;
        return SingleProcess.runWorker(cycle, MasterProcess.CHANNEL_FD,
            () -> WorkerInit.settlePriority(nice, cycle.log()), warmUpMs);
    }
}
