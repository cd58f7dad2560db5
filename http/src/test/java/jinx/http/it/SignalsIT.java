package jinx.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;
import jinx.kernel.testsuite.ServerSide;

/**
 * Signals to a real {@code bin/jinx} with {@code master_process off} (DESIGN 6a): the launcher starts the JVM
 * without {@code -Xrs}, so {@code Main.main} blocks the server's signals and re-execs itself (same pid); the
 * process then reads them from a signalfd. Each test sends real signals to the pid it started and kills it in
 * {@code finally}.
 */
@Tag("slow")
class SignalsIT {

    private static final Path ROOT = Site.distribution();

    /** A started server: its process, its port, its site. */
    private record Server(Process process, int port, Site site) implements AutoCloseable {
        long pid() {
            return process.pid();
        }

        void signal(int signo) throws IOException {
            Syscalls.kill(process.pid(), signo);
        }

        boolean exits(long seconds) throws InterruptedException {
            return process.waitFor(seconds, TimeUnit.SECONDS);
        }

        String errorLog() throws IOException {
            return site.read("logs/error.log");
        }

        @Override
        public void close() throws Exception {
            try {
                if (process.isAlive()) {
                    process.toHandle().destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            } finally {
                site.close();
            }
        }
    }

    private static Server start() throws Exception {
        assumeTrue(Files.isRegularFile(ROOT.resolve("http/target/jinx-http.jar")), "the jars are not built");
        Site site = Site.create();
        int port = Site.freePort();
        site.write("html/index.html", "hello\n");
        site.write("conf/jinx.conf", "master_process off;\ndaemon off;\n"
            + "error_log logs/error.log notice;\n"
            + "pid logs/jinx.pid;\n"
            + "worker_shutdown_timeout 20s;\n"
            + "events { worker_connections 64; }\n"
            + "http {\n"
            + "    access_log logs/access.log;\n"
            + "    server { listen 127.0.0.1:" + port + "; root html; }\n"
            + "}\n");
        Process p = new ProcessBuilder(ROOT.resolve("bin/jinx").toString(), "-p", site.root().toString())
            .redirectErrorStream(true).start();
        Server server = new Server(p, port, site);
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.ISO_8859_1));
            assertEquals("jinx: [notice] listening on 127.0.0.1:" + port, out.readLine());
            return server;
        } catch (Throwable e) {
            server.close();
            throw e;
        }
    }

    @Test
    @Timeout(60)
    void termExitsPromptlyAndRemovesThePidFile() throws Exception {
        try (Server s = start()) {
            assertEquals("HTTP/1.1 200 OK", ItSupport.get(s.port(), "localhost", "/").statusLine());
            assertEquals(s.pid() + "\n", s.site().read("logs/jinx.pid"));
            // the re-exec: same pid, now under -Xrs with the server's signals blocked
            String cmdline = Files.readString(Path.of("/proc/" + s.pid() + "/cmdline"), StandardCharsets.ISO_8859_1);
            assertTrue(cmdline.contains("\0-Xrs\0"), cmdline);
            assertEquals("HTTP/1.1 200 OK", ItSupport.get(s.port(), "localhost", "/").statusLine());
            s.signal(Platform.SIGTERM);
            assertTrue(s.exits(10), "still running after SIGTERM");
            assertFalse(Files.exists(s.site().root().resolve("logs/jinx.pid")), "the pid file is left");
            String log = s.errorLog();
            long me = ProcessHandle.current().pid();
            assertTrue(log.contains("[notice] " + s.pid() + "#"), log);
            assertTrue(log.contains(": signal 15 (SIGTERM) received from " + me + ", exiting\n"), log);
            assertTrue(log.contains(": exiting\n"), log);
            assertTrue(log.contains(": exit\n"), log);
        }
    }

    @Test
    @Timeout(60)
    void hupReloadsInProcessAndIntStops() throws Exception {
        try (Server s = start(); Socket slow = new Socket("127.0.0.1", s.port())) {
            slow.setSoTimeout(10_000);
            // a request in flight on the old cycle: half its header sent
            OutputStream out = slow.getOutputStream();
            out.write("GET / HTTP/1.1\r\nHost: localhost\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            ServerSide.awaitRead(slow);
            s.site().write("html2/index.html", "new\n");
            String conf = s.site().read("conf/jinx.conf");
            s.site().write("conf/jinx.conf", conf.replace("root html;", "root html2;"));
            s.signal(Platform.SIGHUP);
            waitFor(s, ": reconfiguring\n");
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            String body = "";
            while (!body.equals("new\n") && System.nanoTime() < end) {
                body = ItSupport.get(s.port(), "localhost", "/").body();
                Thread.sleep(20);
            }
            assertEquals("new\n", body);
            // the old cycle finishes its request, with the old content, and closes
            out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            String r = new String(slow.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(r.startsWith("HTTP/1.1 200 OK\r\n"), r);
            assertTrue(r.contains("\r\nConnection: close\r\n"), r);
            assertTrue(r.endsWith("\r\n\r\nhello\n"), r);
            // a broken configuration changes nothing
            s.site().write("conf/jinx.conf", conf.replace("root html;", "root html2"));
            s.signal(Platform.SIGHUP);
            waitFor(s, "[emerg]");
            assertTrue(s.errorLog().contains("conf/jinx.conf:"), s.errorLog());
            assertEquals("new\n", ItSupport.get(s.port(), "localhost", "/").body());
            assertEquals(s.pid() + "\n", s.site().read("logs/jinx.pid"));
            s.signal(Platform.SIGINT);
            assertTrue(s.exits(10), "still running after SIGINT");
            String log = s.errorLog();
            assertTrue(log.contains(": signal 1 (SIGHUP) received from " + ProcessHandle.current().pid()
                + ", reconfiguring\n"), log);
            assertTrue(log.contains(": signal 2 (SIGINT) received from"), log);
            assertFalse(Files.exists(s.site().root().resolve("logs/jinx.pid")), "the pid file is left");
        }
    }

    @Test
    @Timeout(60)
    void quitFinishesTheRequestInFlightWithConnectionClose() throws Exception {
        try (Server s = start();
             Socket idle = new Socket("127.0.0.1", s.port());
             Socket slow = new Socket("127.0.0.1", s.port())) {
            idle.setSoTimeout(10_000);
            slow.setSoTimeout(10_000);
            // an idle keep-alive connection after one request
            idle.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            String first = readResponse(idle.getInputStream(), "hello\n");
            assertTrue(first.startsWith("HTTP/1.1 200 OK\r\n"), first);
            assertTrue(first.contains("Connection: keep-alive\r\n"), first);
            // a request in flight: half its header sent
            OutputStream out = slow.getOutputStream();
            out.write("GET / HTTP/1.1\r\nHost: localhost\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            ServerSide.awaitRead(slow);
            s.signal(Platform.SIGQUIT);
            waitFor(s, "gracefully shutting down");
            // the idle connection is closed, the listening socket too
            assertEquals(-1, idle.getInputStream().read());
            assertRefused(s.port());
            assertTrue(s.process().isAlive(), "exited with a request in flight");
            out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            String r = new String(slow.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(r.startsWith("HTTP/1.1 200 OK\r\n"), r);
            assertTrue(r.contains("\r\nConnection: close\r\n"), r);
            assertTrue(r.endsWith("\r\n\r\nhello\n"), r);
            assertTrue(s.exits(10), "still running after the last request");
            assertFalse(Files.exists(s.site().root().resolve("logs/jinx.pid")), "the pid file is left");
            String log = s.errorLog();
            assertTrue(log.contains(": signal 3 (SIGQUIT) received from " + ProcessHandle.current().pid()
                + ", shutting down\n"), log);
            assertTrue(log.indexOf(": gracefully shutting down\n") < log.indexOf(": exiting\n"), log);
            assertTrue(log.endsWith(": exit\n"), log);
        }
    }

    @Test
    @Timeout(60)
    void usr1ReopensTheLogs() throws Exception {
        try (Server s = start()) {
            assertEquals("HTTP/1.1 200 OK", ItSupport.get(s.port(), "localhost", "/").statusLine());
            Path logs = s.site().root().resolve("logs");
            Files.move(logs.resolve("error.log"), logs.resolve("error.log.1"));
            Files.move(logs.resolve("access.log"), logs.resolve("access.log.1"));
            s.signal(Platform.SIGUSR1);
            waitForFile(logs.resolve("error.log.1"), ": reopening logs\n");
            assertTrue(Files.exists(logs.resolve("error.log")), "no new error log");
            assertEquals("HTTP/1.1 404 Not Found", ItSupport.get(s.port(), "localhost", "/missing").statusLine());
            String old = Files.readString(logs.resolve("error.log.1"), StandardCharsets.ISO_8859_1);
            assertTrue(old.contains(": signal 10 (SIGUSR1) received from " + ProcessHandle.current().pid()
                + ", reopening logs\n"), old);
            String access = waitForFile(logs.resolve("access.log"), "/missing");
            assertFalse(access.contains("GET / "), access);
            assertTrue(Files.readString(logs.resolve("access.log.1"), StandardCharsets.ISO_8859_1).contains("GET / "));
            // the error log is written anew: the 404's open() failure lands in the new file
            assertTrue(waitForFile(logs.resolve("error.log"), "missing").contains("No such file or directory"));
            s.signal(Platform.SIGTERM);
            assertTrue(s.exits(10));
        }
    }

    private static void waitFor(Server s, String text) throws Exception {
        waitForFile(s.site().root().resolve("logs/error.log"), text);
    }

    private static String waitForFile(Path file, String text) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String content = "";
        while (System.nanoTime() < end) {
            if (Files.exists(file)) {
                content = Files.readString(file, StandardCharsets.ISO_8859_1);
                if (content.contains(text)) {
                    return content;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("\"" + text + "\" not in " + file + ":\n" + content);
    }

    private static void assertRefused(int port) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            throw new AssertionError("still accepting on " + port);
        } catch (ConnectException e) {
            // closed, as nginx closes its listening sockets on QUIT
        }
    }

    /** Reads one response whose body ends with {@code end}. */
    private static String readResponse(InputStream in, String end) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while (!b.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n" + end)) {
            int c = in.read();
            if (c == -1) {
                break;
            }
            b.write(c);
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }
}
