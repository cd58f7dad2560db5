package jinx.tls.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * Debian's nginx or Jinx ({@code bin/jinx} of this tree) as a master with worker processes, in a temporary prefix,
 * for what only several workers show (a shared session cache, ticket keys) and reloads ({@code SIGHUP}). Stopped
 * and its prefix removed on {@link #close()}; the test kills nothing but the master it started and its children.
 */
final class MasterSite implements AutoCloseable {

    private final Path root;
    private final boolean nginx;
    private final Process master;

    private MasterSite(Path root, boolean nginx, Process master) {
        this.root = root;
        this.nginx = nginx;
        this.master = master;
    }

    /** The tree's root: {@code -Djinx.distribution}, else the parent of the module (Maven runs tests in tls/). */
    static Path distribution() {
        String dir = System.getProperty("jinx.distribution");
        Path path = dir != null ? Path.of(dir) : Path.of(System.getProperty("user.dir")).resolve("..");
        return path.toAbsolutePath().normalize();
    }

    /** Whether {@code bin/jinx} can start this tree's server without building it. */
    static boolean jinxBuilt() {
        return Files.isRegularFile(distribution().resolve("tls/target/jinx-tls.jar"))
            && Files.isRegularFile(distribution().resolve("http/target/jinx-http.jar"));
    }

    /**
     * Starts a server with {@code workers} workers and {@code http} inside {@code http {}}.
     *
     * @param nginx Debian's nginx, else Jinx
     * @param workers the worker count
     * @param http the configuration
     * @return the site, once every port in {@code ports} accepts
     */
    static MasterSite start(boolean nginx, int workers, String http, int... ports) throws Exception {
        Path root = Files.createTempDirectory(nginx ? "jinx-tls-nginx" : "jinx-tls-jinx");
        Files.createDirectories(root.resolve("logs"));
        Files.createDirectories(root.resolve("tmp"));
        Files.createDirectories(root.resolve("conf"));
        Path conf = root.resolve(nginx ? "conf/nginx.conf" : "conf/jinx.conf");
        Files.writeString(conf, conf(root, workers, nginx, http), StandardCharsets.ISO_8859_1);
        ProcessBuilder pb = nginx
            ? new ProcessBuilder("/usr/sbin/nginx", "-p", root + "/", "-c", conf.toString(), "-e",
                                 root.resolve("logs/error.log").toString())
            : new ProcessBuilder(distribution().resolve("bin/jinx").toString(), "-p", root.toString());
        pb.redirectErrorStream(true).redirectOutput(root.resolve("logs/stdout.log").toFile());
        MasterSite site = new MasterSite(root, nginx, pb.start());
        try {
            site.awaitWorkers(workers, 120_000);
            for (int port : ports) {
                await(port);
            }
        } catch (Exception | Error e) {
            site.close();
            throw e;
        }
        return site;
    }

    private static String conf(Path root, int workers, boolean nginx, String http) {
        String user = Syscalls.geteuid() == 0 ? "user root;\n" : "";
        return "master_process on;\ndaemon off;\nworker_processes " + workers + ";\n" + user
            + "error_log " + root.resolve("logs/error.log") + " info;\npid " + root.resolve("logs/master.pid")
            + ";\nevents { worker_connections 256; }\nhttp {\naccess_log off;\n"
            // Debian's nginx has its temporary directories under /var/lib/nginx
            + (nginx ? "client_body_temp_path tmp/body;\nproxy_temp_path tmp/proxy;\nfastcgi_temp_path tmp/fcgi;\n"
                + "uwsgi_temp_path tmp/uwsgi;\nscgi_temp_path tmp/scgi;\n" : "") + http + "\n}\n";
    }

    private static void await(int port) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
                return;
            } catch (IOException e) {
                if (System.nanoTime() > end) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    /** Waits until the master has started {@code n} more workers than {@code before} in its log. */
    private void awaitWorkers(int n, long ms) throws Exception {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        String ready = nginx ? "start worker process " : " ready in ";
        while (count(errorLog(), ready) < n) {
            if (!master.isAlive() || System.nanoTime() > end) {
                throw new IllegalStateException("the workers did not start: " + errorLog()
                    + Files.readString(root.resolve("logs/stdout.log"), StandardCharsets.ISO_8859_1));
            }
            Thread.sleep(100);
        }
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int at = s.indexOf(what); at >= 0; at = s.indexOf(what, at + 1)) {
            n++;
        }
        return n;
    }

    /**
     * Rewrites the configuration, sends {@code SIGHUP} and waits until {@code check} passes (the new
     * configuration answers).
     *
     * @param workers the worker count
     * @param http the new configuration
     * @param check true once the new configuration serves
     */
    void reload(int workers, String http, java.util.concurrent.Callable<Boolean> check) throws Exception {
        Files.writeString(root.resolve(nginx ? "conf/nginx.conf" : "conf/jinx.conf"), conf(root, workers, nginx, http),
                          StandardCharsets.ISO_8859_1);
        Syscalls.kill(master.pid(), Platform.SIGHUP);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!check.call()) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException("the reload did not take: " + errorLog());
            }
            Thread.sleep(200);
        }
    }

    String errorLog() throws IOException {
        Path log = root.resolve("logs/error.log");
        return Files.exists(log) ? Files.readString(log, StandardCharsets.ISO_8859_1) : "";
    }

    @Override
    public void close() throws Exception {
        try {
            List<ProcessHandle> children = master.toHandle().children().toList();
            if (master.isAlive()) {
                Syscalls.kill(master.pid(), Platform.SIGTERM);
            }
            if (!master.waitFor(20, TimeUnit.SECONDS)) {
                master.toHandle().destroyForcibly();
                master.waitFor(10, TimeUnit.SECONDS);
            }
            for (ProcessHandle c : children) {
                c.destroyForcibly();
            }
        } finally {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
