package jinx.http.it;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's nginx as a child process on a free port of 127.0.0.1, for the differential test: {@code nginx -p site
 * -c conf/nginx.conf -e logs/e.log -g 'daemon off; master_process off; ...'}, stopped by its pid.
 */
final class NginxServer implements AutoCloseable {

    /** Where Debian installs nginx. */
    static final Path BINARY = Path.of("/usr/sbin/nginx");

    private final Process process;
    private final int port;

    private NginxServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Tells whether nginx is installed.
     *
     * @return true when {@link #BINARY} can be run
     */
    static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /**
     * Starts nginx with {@code http} as the inside of its {@code http {}} block, in which {@code %PORT%} stands
     * for the port picked; waits until it accepts connections.
     *
     * @param site the prefix, with the same files as Jinx's
     * @param http the inside of {@code http {}}
     * @return the running nginx
     * @throws Exception when it does not start
     */
    static NginxServer start(Site site, String http) throws Exception {
        int port = Site.freePort();
        Path root = site.root();
        // nginx's compiled-in temporary directories are the system's: keep every path inside the site
        site.write("conf/nginx.conf", "events {\n    worker_connections 1024;\n}\n\nhttp {\n"
            + "client_body_temp_path tmp/body;\nproxy_temp_path tmp/proxy;\nfastcgi_temp_path tmp/fastcgi;\n"
            + "uwsgi_temp_path tmp/uwsgi;\nscgi_temp_path tmp/scgi;\n"
            + http.replace("%PORT%", Integer.toString(port)) + "\n}\n");
        site.mkdir("tmp");
        ProcessBuilder pb = new ProcessBuilder(BINARY.toString(), "-p", root + "/", "-c", "conf/nginx.conf",
            "-e", root.resolve("logs/e.log").toString(), "-g", "daemon off; master_process off; error_log "
            + root.resolve("logs/e.log") + " info; pid " + root.resolve("logs/n.pid") + ";");
        pb.redirectErrorStream(true);
        pb.redirectOutput(root.resolve("logs/stdout.log").toFile());
        Process process = pb.start();
        NginxServer nginx = new NginxServer(process, port);
        try {
            nginx.awaitListening();
        } catch (Exception e) {
            nginx.close();
            throw new IOException("nginx did not start: " + site.read("logs/stdout.log") + site.read("logs/e.log"),
                e);
        }
        return nginx;
    }

    private void awaitListening() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (;;) {
            if (!process.isAlive()) {
                throw new IOException("nginx exited with " + process.exitValue());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }

    /**
     * Returns the port nginx listens on.
     *
     * @return the port
     */
    int port() {
        return port;
    }

    /**
     * Returns nginx's version line ({@code nginx version: nginx/1.22.1}).
     *
     * @return the line
     * @throws Exception when nginx cannot be run
     */
    static String version() throws Exception {
        Process p = new ProcessBuilder(List.of(BINARY.toString(), "-v")).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }

    /** Stops nginx by its pid: TERM, then KILL if it lingers. */
    @Override
    public void close() throws Exception {
        ProcessHandle handle = process.toHandle();
        handle.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            handle.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
