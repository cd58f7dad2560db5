package jinx.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One server under test, nginx or Jinx, in a prefix of its own with a generated configuration: a master and its
 * workers in the foreground ({@code master_process on; daemon off}), listening on a free port of 127.0.0.1.
 * Jinx's JVMs (master and workers, which inherit the master's environment) log their collections to
 * {@code logs/gc-<pid>.log} through {@code JDK_JAVA_OPTIONS} (master) and the options file (workers);
 * {@code JINX_JVM_OPTIONS} and {@code JINX_JAVA_OPTS} pass through untouched.
 */
final class Server implements AutoCloseable {

    /** Which server. */
    enum Kind {
        NGINX("nginx"), JINX("jinx");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    private static final Pattern YOUNG = Pattern.compile("Pause Young|Garbage Collection \\(");

    final Kind kind;
    final Path prefix;
    final int port;
    /** The HTTPS port, or 0. */
    int tlsPort;
    final int workers;
    private final Process process;
    private final String conf;

    private Server(Kind kind, Path prefix, int port, int workers, Process process, String conf) {
        this.kind = kind;
        this.prefix = prefix;
        this.port = port;
        this.workers = workers;
        this.process = process;
        this.conf = conf;
    }

    /**
     * Rewrites the configuration with more main-context lines (Jinx's own directives; ignored for nginx) and
     * reloads, then waits until only the new workers run.
     *
     * @param main the lines, empty for none
     */
    void reconfigure(String main) throws IOException, InterruptedException {
        if (kind != Kind.JINX) {
            return;
        }
        Files.writeString(prefix.resolve("conf/bench.conf"), main + conf);
        reload();
        Thread.sleep(200);
        awaitWorkers(60);
    }

    /**
     * Starts a server and waits until it answers {@code /hello} and runs all its workers.
     *
     * @param kind nginx or Jinx
     * @param home Jinx's distribution (for {@code bin/jinx})
     * @param prefix an empty directory for this server
     * @param docroot the document root
     * @param workers {@code worker_processes}
     * @param connections {@code worker_connections}
     * @param accessLog whether requests are logged (to {@code logs/access.log})
     */
    static Server start(Kind kind, Path home, Path prefix, Path docroot, int workers, int connections,
                        boolean accessLog) throws IOException, InterruptedException {
        return start(kind, home, prefix, docroot, workers, connections, accessLog, 0);
    }

    /**
     * Starts a server whose configuration proxies {@code /proxy...} to a backend on {@code backend} (0: none).
     */
    static Server start(Kind kind, Path home, Path prefix, Path docroot, int workers, int connections,
                        boolean accessLog, int backend) throws IOException, InterruptedException {
        int port = freePort();
        int tlsPort = Conf.tls == null ? 0 : freePort();
        Files.createDirectories(prefix.resolve("logs"));
        Files.createDirectories(prefix.resolve("conf"));
        Path conf = prefix.resolve("conf/bench.conf");
        Files.writeString(conf, Conf.render(port, tlsPort, docroot, workers, connections, accessLog, "", backend));
        Path errorLog = prefix.resolve("logs/error.log");
        List<String> cmd = kind == Kind.NGINX
            ? List.of("/usr/sbin/nginx", "-p", prefix + "/", "-c", conf.toString(), "-e", errorLog.toString())
            : List.of(home.resolve("bin/jinx").toString(), "-p", prefix.toString(), "-c", conf.toString(),
                "-e", errorLog.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
            .redirectOutput(prefix.resolve("logs/stdout.log").toFile());
        if (kind == Kind.JINX) {
            Map<String, String> env = pb.environment();
            String gc = "-Xlog:gc:file=" + prefix.resolve("logs") + "/gc-%p.log";
            String old = env.get("JDK_JAVA_OPTIONS");
            env.put("JDK_JAVA_OPTIONS", old == null || old.isBlank() ? gc : old + " " + gc);
            // a worker's environment is what `env` keeps (not JDK_JAVA_OPTIONS): its gc log comes from the
            // options file, the distribution's own plus that one line
            String file = env.getOrDefault("JINX_JVM_OPTIONS_FILE", home.resolve("bin/jvm.options").toString());
            Path options = prefix.resolve("conf/jvm.options");
            String own = Files.isReadable(Path.of(file)) ? Files.readString(Path.of(file)) : "";
            Files.writeString(options, own + "\nworker: " + gc + "\n");
            env.put("JINX_JVM_OPTIONS_FILE", options.toString());
        }
        Server s = new Server(kind, prefix, port, workers, pb.start(), Files.readString(conf));
        s.tlsPort = tlsPort;
        s.awaitReady();
        return s;
    }

    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException(kind.label + " exited with " + process.exitValue() + ": "
                    + tail(prefix.resolve("logs/stdout.log")) + tail(prefix.resolve("logs/error.log")));
            }
            if (workerPids().size() == workers && get("/hello").startsWith("HTTP/1.1 200")) {
                return;
            }
            // fine enough for bench/run start, which times this wait (nginx is ready in tens of ms)
            Thread.sleep(5);
        }
        throw new IOException(kind.label + " did not become ready in 60 s: " + tail(prefix.resolve("logs/error.log")));
    }

    /** Waits until the master runs exactly its configured number of workers (after a reload). */
    void awaitWorkers(long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (workerPids().size() != workers && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
    }

    private static String tail(Path file) {
        try {
            String s = Files.readString(file, StandardCharsets.ISO_8859_1);
            return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
        } catch (IOException e) {
            return "";
        }
    }

    /** The master's pid. */
    int masterPid() {
        return (int) process.pid();
    }

    /** The workers' pids. */
    List<Integer> workerPids() {
        return Proc.children(masterPid());
    }

    /** Master and workers. */
    List<Integer> pids() {
        List<Integer> all = new ArrayList<>(workerPids());
        all.add(masterPid());
        return all;
    }

    /** Mean resident memory of a worker in KiB. */
    long rssPerWorkerKb() {
        List<Integer> w = workerPids();
        long sum = 0;
        for (int pid : w) {
            sum += Proc.rssKb(pid);
        }
        return w.isEmpty() ? 0 : sum / w.size();
    }

    /** Mean proportional resident memory (PSS) of a worker in KiB. */
    long pssPerWorkerKb() {
        List<Integer> w = workerPids();
        long sum = 0;
        for (int pid : w) {
            sum += Proc.pssKb(pid);
        }
        return w.isEmpty() ? 0 : sum / w.size();
    }

    /** Sum of the workers' resident memory in KiB. */
    long rssWorkersKb() {
        long sum = 0;
        for (int pid : workerPids()) {
            sum += Proc.rssKb(pid);
        }
        return sum;
    }

    /** Young collections logged so far by the current workers (0 for nginx). */
    long youngCollections() {
        if (kind != Kind.JINX) {
            return 0;
        }
        long n = 0;
        for (int pid : workerPids()) {
            Path log = prefix.resolve("logs/gc-" + pid + ".log");
            try {
                for (String line : Files.readAllLines(log, StandardCharsets.ISO_8859_1)) {
                    if (YOUNG.matcher(line).find()) {
                        n++;
                    }
                }
            } catch (IOException e) {
                // no collection logged yet: the file appears with the first line
            }
        }
        return n;
    }

    /** The configuration the server started with. */
    String conf() {
        return conf;
    }

    /**
     * Replaces the configuration file (a reload reads it).
     *
     * @param text the new configuration
     */
    void writeConf(String text) throws IOException {
        Files.writeString(prefix.resolve("conf/bench.conf"), text);
    }

    /** Sends HUP to the master. */
    void reload() throws IOException, InterruptedException {
        signal("HUP", masterPid());
    }

    private static void signal(String name, int pid) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + name, Integer.toString(pid)).inheritIO().start().waitFor();
    }

    /** One request with a fresh connection; the whole response, headers and body, as ISO-8859-1 text. */
    String get(String path, String... headers) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            s.setSoTimeout(5000);
            StringBuilder req = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n");
            for (String h : headers) {
                req.append(h).append("\r\n");
            }
            req.append("Connection: close\r\n\r\n");
            OutputStream out = s.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "";
        }
    }

    /** A header's value in a response, or null. */
    static String header(String response, String name) {
        Matcher m = Pattern.compile("(?im)^" + Pattern.quote(name) + ":[ \t]*([^\r\n]*)").matcher(response);
        return m.find() ? m.group(1) : null;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    /** Stops the server: TERM to the master, then KILL to whatever is left of it and its workers. */
    @Override
    public void close() throws IOException, InterruptedException {
        List<Integer> left = workerPids();
        signal("TERM", masterPid());
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
        for (int pid : left) {
            if (Files.exists(Path.of("/proc/" + pid)) && Proc.parent(pid) <= 1) {
                signal("KILL", pid);
            }
        }
    }
}
