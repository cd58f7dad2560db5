package jinx.kernel.internal.process;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jinx.kernel.ConfException;
import jinx.kernel.Listening;
import jinx.kernel.SharedZone;
import jinx.kernel.internal.cli.Main;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.cycle.ConfSnapshot;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.KernelCycle;

/**
 * A worker's side of a reload inside the running workers (issue #35, DESIGN 9c): the master sends
 * {@link ProcessChannel#RELOAD} with the new cycle's sealed snapshot, this worker's listening sockets and the shared
 * zones, and the worker builds the new cycle from them in attach mode, as a new worker JVM would from the descriptors
 * it inherits ({@link WorkerMain}), without the JVM's start. {@link SingleProcess} then starts the new cycle's
 * modules, turns its loop and drains the old one ({@link InProcessReload#drain}).
 *
 * <p>The descriptors, in the order {@link #descriptors} gives them: the snapshot; each listening socket of the new
 * cycle this worker serves ({@code reuseport} clones of other workers left out, as at a spawn), in the snapshot's
 * order; each file the master opened for the cycle (its logs), in the snapshot's order ({@code OpenFiles}), which
 * the worker writes to instead of opening the paths itself: it may have dropped its privileges ({@code user}),
 * and nginx's workers, too, write to the files the master opened; each shared zone in the order the cycle declares
 * them (the worker parses the same bytes, so it declares them in the same order). When the build fails the descriptors are not closed: the master replaces the worker,
 * whose exit closes them, and a descriptor taken by a half-built zone must not be closed twice.
 */
final class WorkerReload {

    private WorkerReload() {
    }

    /**
     * The master's side: the descriptors a {@code RELOAD} carries to the worker of {@code slot}.
     *
     * @param fresh the new cycle, its sockets open and zones created
     * @param snapshotFd its sealed snapshot
     * @param slot the worker's number
     * @return the descriptors
     */
    static int[] descriptors(KernelCycle fresh, int snapshotFd, int slot) {
        List<Integer> fds = new ArrayList<>();
        fds.add(snapshotFd);
        for (Listening ls : fresh.listening()) {
            if (ls.worker == -1 || ls.worker == slot) {
                fds.add(ls.fd());
            }
        }
        for (Path file : fresh.snapshot().openFiles()) {
            fds.add(fresh.openFiles().fd(file));
        }
        for (SharedZone z : fresh.sharedZones()) {
            fds.add(z.fd());
        }
        return fds.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Builds the next cycle of this worker from a {@code RELOAD}'s descriptors.
     *
     * @param old the cycle in force: its log takes what goes wrong while the new one is built
     * @param fds the descriptors ({@link #descriptors})
     * @return the new cycle, attached, its worker number set: ready for {@code initProcess}
     * @throws IOException when the snapshot cannot be read or the descriptors do not match it
     * @throws ConfException when the cycle cannot be attached
     */
    static KernelCycle attach(KernelCycle old, int[] fds) throws IOException, ConfException {
        if (fds.length == 0) {
            throw new IOException("no configuration snapshot came with the reload");
        }
        ConfSnapshot snapshot = ConfSnapshot.readFrom(fds[0]);
        int slot = old.worker();
        List<ConfSnapshot.ListenSocket> sockets = snapshot.listening();
        int[] listening = new int[sockets.size()];
        int next = 1;
        for (int i = 0; i < listening.length; i++) {
            int owner = sockets.get(i).worker();
            listening[i] = owner == -1 || owner == slot ? take(fds, next++) : -1;
        }
        Map<Path, Integer> files = new LinkedHashMap<>();
        for (Path file : snapshot.openFiles()) {
            files.put(file, take(fds, next++));
        }
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true,
            StandardCharsets.ISO_8859_1);
        KernelCycle fresh = CycleBuilder.attach(snapshot.workerOptions(Main::discover, BuiltinOrder.NAMES, err,
            old.log()), listening, files);
        Map<String, Integer> zones = new HashMap<>();
        for (SharedZone z : fresh.sharedZones()) {
            zones.put(z.name(), take(fds, next++));
        }
        if (next != fds.length) {
            throw new IOException("the reload brought " + fds.length + " descriptors, the snapshot names " + next);
        }
        fresh.attachSharedZones(zones);
        fresh.worker(slot);
        ProcessChannel.close(fds[0]);
        return fresh;
    }

    private static int take(int[] fds, int i) throws IOException {
        if (i >= fds.length) {
            throw new IOException("the reload brought " + fds.length + " descriptors, the snapshot names more");
        }
        return fds[i];
    }
}
