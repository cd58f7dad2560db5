package jinx.http.it;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import jinx.http.internal.request.Responses.Response;

/**
 * What the tests of worker processes share: starting {@code bin/jinx} with a given environment, waiting until a
 * URI answers, and reading a process's state from {@code /proc} (credentials, environment, command line, limits,
 * threads, descriptors, listening sockets).
 */
final class WorkerProcs {

    private WorkerProcs() {
    }

    /** Starts {@code bin/jinx -p site ARGS} with these variables added to the environment; output merged. */
    static Process start(Site site, Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Site.distribution().resolve("bin/jinx").toString(), "-p",
            site.root().toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        return pb.start();
    }

    /**
     * Waits (60 s at most: the machine may be loaded) until the master has written its pid file and has {@code n}
     * live children; a failure shows the master's state and its error log. Before the pid file, the launcher's
     * shell may have children of its own.
     */
    static List<ProcessHandle> workers(Process master, Site site, int n) throws Exception {
        return workers(master, site, n, List.of());
    }

    /** As {@link #workers(Process, Site, int)}, none of the workers in {@code gone}. */
    static List<ProcessHandle> workers(Process master, Site site, int n, List<ProcessHandle> gone) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<ProcessHandle> children = List.of();
        while (System.nanoTime() < end && master.isAlive()) {
            if (site.read("logs/jinx.pid").equals(master.pid() + "\n")) {
                children = master.children().filter(ProcessHandle::isAlive).filter(h -> !gone.contains(h)).toList();
                if (children.size() == n) {
                    return children;
                }
            }
            Thread.sleep(20);
        }
        String out = master.isAlive() ? "running" : "exited with " + master.exitValue() + ": "
            + new String(master.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        throw new AssertionError("workers: " + children + "; the master " + out + "; error log:\n"
            + site.read("logs/error.log"));
    }

    /** Waits (30 s at most) until {@code GET path} answers 200 and returns the body. */
    static String waitForBody(int port, String path) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (;;) {
            try {
                Response r = ItSupport.get(port, "localhost", path);
                if (r.status() == 200) {
                    return r.body();
                }
            } catch (IOException e) {
                if (System.nanoTime() > end) {
                    throw e;
                }
            }
            if (System.nanoTime() > end) {
                throw new AssertionError("no 200 for " + path);
            }
            Thread.sleep(50);
        }
    }

    /** {@code GET path} on a new connection, expecting 200; returns the body. */
    static String body(int port, String path) throws IOException {
        Response r = ItSupport.get(port, "localhost", path);
        if (r.status() != 200) {
            throw new AssertionError(path + ": " + r.statusLine());
        }
        return r.body();
    }

    /** A line of {@code /proc/PID/status} without its key ({@code Uid}: "0\t0\t0\t0"). */
    static String status(long pid, String key) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith(key + ":")) {
                return line.substring(key.length() + 1).strip();
            }
        }
        throw new AssertionError(key + " not in /proc/" + pid + "/status");
    }

    /** The environment of a process, {@code NAME=value}. */
    static List<String> environ(long pid) throws IOException {
        return nulSeparated(Path.of("/proc/" + pid + "/environ"));
    }

    /** The command line of a process. */
    static List<String> cmdline(long pid) throws IOException {
        return nulSeparated(Path.of("/proc/" + pid + "/cmdline"));
    }

    private static List<String> nulSeparated(Path file) throws IOException {
        String s = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        List<String> out = new ArrayList<>();
        for (String e : s.split("\0")) {
            if (!e.isEmpty()) {
                out.add(e);
            }
        }
        return out;
    }

    /** Each thread's id to its nice value ({@code /proc/PID/task/TID/stat}, field 19). */
    static Map<Long, Integer> nice(long pid) throws IOException {
        Map<Long, Integer> out = new java.util.TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path t : tasks.toList()) {
                String stat;
                try {
                    stat = Files.readString(t.resolve("stat"));
                } catch (IOException e) {
                    continue;
                }
                // the name is in parentheses and may hold spaces: count fields after it (state is field 3)
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                out.put(Long.parseLong(t.getFileName().toString()), Integer.parseInt(f[19 - 3]));
            }
        }
        return out;
    }

    /** Each thread's id to its {@code Cpus_allowed_list}. */
    static Map<Long, String> cpus(long pid) throws IOException {
        Map<Long, String> out = new java.util.TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path t : tasks.toList()) {
                for (String line : Files.readAllLines(t.resolve("status"))) {
                    if (line.startsWith("Cpus_allowed_list:")) {
                        out.put(Long.parseLong(t.getFileName().toString()), line.substring(18).strip());
                    }
                }
            }
        }
        return out;
    }

    /** The inodes of the TCP sockets listening on 127.0.0.1:port ({@code /proc/net/tcp}). */
    static Set<String> listeningInodes(int port) throws IOException {
        String local = "0100007F:" + String.format("%04X", port);
        Set<String> out = new HashSet<>();
        for (String line : Files.readAllLines(Path.of("/proc/net/tcp"))) {
            String[] f = line.strip().split("\\s+");
            if (f.length > 9 && f[1].equals(local) && f[3].equals("0A")) {
                out.add(f[9]);
            }
        }
        return out;
    }

    /** A process's descriptors to what they link to ({@code socket:[123]}, {@code /memfd:jinx:x (deleted)}). */
    static Map<Integer, String> fds(long pid) throws IOException {
        Map<Integer, String> out = new java.util.TreeMap<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    out.put(Integer.parseInt(fd.getFileName().toString()), Files.readSymbolicLink(fd).toString());
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        return out;
    }

    /** The descriptors of a process that are sockets listening on 127.0.0.1:port. */
    static Map<Integer, String> listeningFds(long pid, int port) throws IOException {
        Set<String> inodes = listeningInodes(port);
        Map<Integer, String> out = new java.util.TreeMap<>();
        for (Map.Entry<Integer, String> e : fds(pid).entrySet()) {
            String link = e.getValue();
            if (link.startsWith("socket:[") && inodes.contains(link.substring(8, link.length() - 1))) {
                out.put(e.getKey(), link);
            }
        }
        return out;
    }

    /**
     * The epoll registrations of a process, each {@code fd -> events} ({@code /proc/PID/fdinfo} of its epoll
     * descriptors: {@code tfd: 4 events: 10000019 ...}).
     */
    static Map<Integer, Long> epollRegistrations(long pid) throws IOException {
        Map<Integer, Long> out = new java.util.TreeMap<>();
        for (Map.Entry<Integer, String> e : fds(pid).entrySet()) {
            if (!e.getValue().equals("anon_inode:[eventpoll]")) {
                continue;
            }
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/fdinfo/" + e.getKey()))) {
                String[] f = line.strip().split("\\s+");
                if (f.length >= 4 && f[0].equals("tfd:") && f[2].equals("events:")) {
                    out.put(Integer.parseInt(f[1]), Long.parseLong(f[3], 16));
                }
            }
        }
        return out;
    }

    /**
     * Packs the compiled classes of a package of the tests into a jar with a service entry, as a third-party
     * module ships: an automatic module for {@code load_module}.
     */
    static Path moduleJar(Path jar, Class<?> provider) throws IOException {
        Path classes = Path.of(provider.getProtectionDomain().getCodeSource().getLocation().getPath());
        String pkg = provider.getPackageName().replace('.', '/');
        Files.createDirectories(jar.getParent());
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out);
             Stream<Path> files = Files.list(classes.resolve(pkg))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                j.putNextEntry(new JarEntry(pkg + "/" + f.getFileName()));
                j.write(Files.readAllBytes(f));
                j.closeEntry();
            }
            j.putNextEntry(new JarEntry("META-INF/services/jinx.kernel.spi.JinxModule"));
            j.write((provider.getName() + "\n").getBytes(StandardCharsets.ISO_8859_1));
            j.closeEntry();
        }
        return jar;
    }
}
