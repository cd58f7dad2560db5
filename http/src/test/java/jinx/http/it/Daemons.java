package jinx.http.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Syscalls;

/**
 * Servers the test did not start as its own children: a {@code daemon on} process, a new master started by USR2.
 * They are known by the pids their pid files name. Every process seen is tracked by its {@link ProcessHandle}
 * (which knows the start time, so a pid reused by another process since is never killed), and {@link #close()}
 * kills each with its descendants (workers, new masters) whatever state the test left them in, then removes the
 * site.
 */
final class Daemons implements AutoCloseable {

    private final Site site;
    private final Set<ProcessHandle> tracked = new LinkedHashSet<>();

    Daemons(Site site) {
        this.site = site;
    }

    Site site() {
        return site;
    }

    /**
     * Runs {@code bin/jinx -p <site> args} and waits for it to return (120 s at most).
     *
     * @param args more arguments ({@code -s stop})
     * @return the launcher's exit code and output
     */
    Launch launch(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Site.distribution().resolve("bin/jinx").toString(), "-p",
            site.root().toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(site.root(), "launch", ".out");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        tracked.add(p.toHandle());
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            throw new AssertionError("bin/jinx " + args.length + " args did not return in 120 s: "
                + Files.readString(out, StandardCharsets.ISO_8859_1));
        }
        return new Launch(p.pid(), p.exitValue(), Files.readString(out, StandardCharsets.ISO_8859_1));
    }

    /** What {@link #launch} saw. */
    record Launch(long pid, int exitCode, String output) {
    }

    /**
     * Reads a pid file under the prefix and tracks the pid.
     *
     * @param path {@code logs/jinx.pid}
     * @return the pid
     */
    long pid(String path) {
        long pid = Long.parseLong(site.read(path).trim());
        track(pid);
        return pid;
    }

    /** Tracks a process if it is one of this site's masters: its command line names the prefix. */
    private void track(long pid) {
        try {
            String cmdline = Files.readString(Path.of("/proc/" + pid + "/cmdline"), StandardCharsets.ISO_8859_1);
            if (cmdline.contains(site.root().toString())) {
                ProcessHandle.of(pid).ifPresent(tracked::add);
            }
        } catch (IOException e) {
            // gone already
        }
    }

    /** Waits (60 s at most) until the pid file names a live process other than {@code not}; returns it. */
    long awaitPid(String path, long not) throws InterruptedException {
        awaitTrue(() -> {
            Optional<Long> pid = readPid(path);
            return pid.isPresent() && pid.get() != not && ProcessHandle.of(pid.get()).isPresent();
        }, 60, path + " naming a process other than " + not);
        return pid(path);
    }

    Optional<Long> readPid(String path) {
        Path file = site.root().resolve(path);
        try {
            String text = Files.readString(file, StandardCharsets.ISO_8859_1);
            return text.endsWith("\n") ? Optional.of(Long.parseLong(text.trim())) : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    boolean exists(String path) {
        return Files.exists(site.root().resolve(path));
    }

    /** The live children of {@code pid} that are not in {@code except}. */
    static List<ProcessHandle> children(long pid, List<Long> except) {
        return ProcessHandle.of(pid).map(h -> h.children().filter(ProcessHandle::isAlive)
            .filter(c -> !except.contains(c.pid())).toList()).orElse(List.of());
    }

    /** Waits (60 s at most) until {@code pid} has {@code n} live children besides {@code except}. */
    List<ProcessHandle> awaitChildren(long pid, int n, List<Long> except) throws InterruptedException {
        awaitTrue(() -> children(pid, except).size() == n, 60, pid + " with " + n + " children besides "
            + except);
        List<ProcessHandle> children = children(pid, except);
        tracked.addAll(children);
        return children;
    }

    /** Waits (60 s at most) until {@code pid} is gone. */
    static void awaitExit(long pid) throws InterruptedException {
        awaitTrue(() -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true), 60, "the exit of " + pid);
    }

    static void awaitTrue(BooleanSupplier done, int seconds, String what) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    static void kill(long pid, int signo) throws NativeIoException {
        Syscalls.kill(pid, signo);
    }

    /** Kills every tracked process and the processes the pid files name, with their descendants. */
    @Override
    public void close() throws Exception {
        try {
            readPid("logs/jinx.pid").ifPresent(this::track);
            readPid("logs/jinx.pid.oldbin").ifPresent(this::track);
            List<ProcessHandle> all = new ArrayList<>();
            for (ProcessHandle h : tracked) {
                if (h.isAlive()) {
                    all.addAll(h.descendants().toList());
                    all.add(h);
                }
            }
            for (ProcessHandle h : all) {
                h.destroyForcibly();
            }
            for (ProcessHandle h : all) {
                h.onExit().get(10, TimeUnit.SECONDS);
            }
        } finally {
            site.close();
        }
    }
}
