package jinx.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.kernel.os.Platform;
import jinx.kernel.os.ProcessSetup;
import jinx.kernel.os.Syscalls;

/**
 * Reload ({@code SIGHUP}) of a {@code master_process on} server through the real {@code bin/jinx}: inside the
 * running workers (issue #35), or, when a worker's own settings change, new workers with the new configuration,
 * the old ones stopped gracefully once the new ones are ready; the listening socket kept, no request lost; a broken
 * configuration changes nothing. The test kills the master and its workers in {@code finally}.
 */
@Tag("slow")
class ReloadIT {

    /** As {@link #conf(int, String)}, with an {@code env} line that differs by body: new worker JVMs. */
    private static String newJvmConf(int port, String body) {
        return "env JINX_IT_BODY=" + body + ";\n" + conf(port, body);
    }

    private static String conf(int port, String body) {
        String user = Syscalls.geteuid() == 0 ? "user root;\n" : "";
        return "master_process on;\ndaemon off;\nworker_processes 2;\n" + user
            + "error_log logs/error.log notice;\npid logs/jinx.pid;\n"
            + "events { worker_connections 256; }\n"
            + "http { access_log off; server { listen 127.0.0.1:" + port + ";\n"
            + "location / { return 200 \"" + body + "\"; } } }\n";
    }

    @Test
    @Timeout(120)
    void reloadInPlaceSwitchesContentWithoutAFailedRequest() throws Exception {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        try (Site site = Site.create()) {
            int port = Site.freePort();
            site.write("conf/jinx.conf", conf(port, "old"));
            Process p = Masters.start(site);
            try {
                List<ProcessHandle> old = Masters.waitForWorkers(p.toHandle(), 2, List.of());
                waitForBody(port, "old");
                // new connections all through the switch: the socket is never closed nor re-bound
                AtomicBoolean stop = new AtomicBoolean();
                AtomicLong requests = new AtomicLong();
                List<String> failures = new ArrayList<>();
                Thread client = new Thread(() -> {
                    while (!stop.get()) {
                        try {
                            String body = oneRequest(port);
                            if (!body.equals("old") && !body.equals("new")) {
                                throw new IOException("body " + body);
                            }
                            requests.incrementAndGet();
                        } catch (IOException e) {
                            synchronized (failures) {
                                failures.add(e.toString());
                            }
                        }
                    }
                });
                client.start();
                site.write("conf/jinx.conf", conf(port, "new"));
                long hup = System.nanoTime();
                Syscalls.kill(p.pid(), Platform.SIGHUP);
                waitForBody(port, "new");
                long switchMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - hup);
                // both workers took it in place: each reported ready again
                String taken = Masters.waitForLog(site, l -> l.split(" ready in ", -1).length - 1 == 4);
                stop.set(true);
                client.join(10_000);
                assertTrue(failures.isEmpty(), failures.toString());
                assertTrue(requests.get() > 0);
                assertTrue(p.isAlive(), "the master is the same process");
                assertEquals(p.pid() + "\n", site.read("logs/jinx.pid"));
                List<ProcessHandle> now = p.toHandle().children().filter(ProcessHandle::isAlive).toList();
                assertEquals(old.size(), now.size(), taken);
                assertTrue(now.containsAll(old), "workers changed: " + old + " -> " + now);
                for (int i = 0; i < 10; i++) {
                    assertEquals("new", oneRequest(port));
                }
                String log = site.read("logs/error.log");
                assertTrue(log.contains(": signal 1 (SIGHUP) received from " + ProcessHandle.current().pid()
                    + ", reconfiguring\n"), log);
                assertTrue(log.contains(": reconfiguring\n"), log);
                for (ProcessHandle w : old) {
                    assertTrue(log.contains(": reconfiguring worker process " + w.pid() + " in place\n"), log);
                }
                assertTrue(log.indexOf("start worker process", log.indexOf(": reconfiguring\n")) < 0, log);
                System.out.println("RELOAD-SWITCH new content served " + switchMs + "ms after HUP, requests="
                    + requests.get());
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
            }
        }
    }

    @Test
    @Timeout(120)
    void reloadWithBrokenConfKeepsOldWorkers() throws Exception {
        reloadKeepsOldWorkers(port -> conf(port, "new").replace("\"new\";", "\"new\""),
            "\\[emerg\\] .*conf/jinx\\.conf:\\d+");
    }

    /** Issue #36: 2,000 nested locations overflowed the master's stack on HUP; the master exited. */
    @Test
    @Timeout(120)
    void reloadOfTooDeeplyNestedLocationsKeepsTheMaster() throws Exception {
        int levels = 2000;
        StringBuilder deep = new StringBuilder();
        for (int i = 1; i <= levels; i++) {
            deep.append("location ").append("/a".repeat(i)).append(" {\n");
        }
        deep.append("}\n".repeat(levels));
        reloadKeepsOldWorkers(port -> conf(port, "new").replace("location / {", deep + "location / {"),
            "\\[emerg\\] \\d+#\\d+: blocks are nested deeper than 200 in .*conf/jinx\\.conf:\\d+\n");
    }

    private void reloadKeepsOldWorkers(IntFunction<String> broken, String emerg) throws Exception {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        try (Site site = Site.create()) {
            int port = Site.freePort();
            site.write("conf/jinx.conf", conf(port, "old"));
            Process p = Masters.start(site);
            try {
                List<ProcessHandle> old = Masters.waitForWorkers(p.toHandle(), 2, List.of());
                waitForBody(port, "old");
                site.write("conf/jinx.conf", broken.apply(port));
                Syscalls.kill(p.pid(), Platform.SIGHUP);
                String log = Masters.waitForLog(site, "[emerg]");
                assertTrue(Pattern.compile(emerg).matcher(log).find(), log);
                // the master handles a signal after the failed reload: it is alive and its loop turns
                Masters.handledBefore(p, site, 3);
                assertTrue(p.isAlive(), "the master is gone: " + site.read("logs/error.log"));
                assertEquals(2, Masters.waitForWorkers(p.toHandle(), 2, List.of()).size());
                List<ProcessHandle> now = p.toHandle().children().filter(ProcessHandle::isAlive).toList();
                assertEquals(old.size(), now.size());
                assertTrue(now.containsAll(old), "workers changed: " + old + " -> " + now);
                for (int i = 0; i < 10; i++) {
                    assertEquals("old", oneRequest(port));
                }
                log = site.read("logs/error.log");
                assertFalse(log.contains("reload abandoned"), log);
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
            }
        }
    }

    @Test
    @Timeout(120)
    void aHupDuringAReloadIsHeldAndAppliedAfterIt() throws Exception {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        try (Site site = Site.create()) {
            int port = Site.freePort();
            site.write("conf/jinx.conf", newJvmConf(port, "old"));
            Process p = Masters.start(site);
            try {
                Masters.waitForWorkers(p.toHandle(), 2, List.of());
                waitForBody(port, "old");
                // both first workers ready before the first HUP: one may serve while the other still starts
                Masters.waitForLog(site, l -> l.split(": worker process \\d+ ready in ", -1).length - 1 == 2);
                site.write("conf/jinx.conf", newJvmConf(port, "new1"));
                Syscalls.kill(p.pid(), Platform.SIGHUP);
                // the first reload is starting its workers (not ready yet: a JVM takes half a second at least)
                String started = Masters.waitForLog(site, l -> l.split(": start worker process ", -1).length > 4);
                assertEquals(0, started.split(": worker process \\d+ ready in ", -1).length - 1 - 2, started);
                site.write("conf/jinx.conf", newJvmConf(port, "new2"));
                Syscalls.kill(p.pid(), Platform.SIGHUP);
                waitForBody(port, "new2", 60);
                String log = Masters.waitForLog(site, l -> reconfigurings(l) == 2);
                // the second waited for the first: both of the first reload's workers were ready before it began
                int second = log.indexOf(": reconfiguring\n", log.indexOf(": reconfiguring\n") + 1);
                Matcher ready = Pattern.compile(": worker process \\d+ ready in \\d+ms\n").matcher(log);
                int readyBefore = 0;
                while (ready.find()) {
                    readyBefore += ready.start() < second ? 1 : 0;
                }
                assertEquals(4, readyBefore, log);
                assertEquals(2, log.split(": signal 1 \\(SIGHUP\\) received from ", -1).length - 1, log);
                assertFalse(log.contains("reload abandoned"), log);
                // a worker of the second reload serves before it reports ready, while the first's still serve
                // until both new ones are ready: wait for the six ready lines and the first reload's exits
                Masters.waitForLog(site, l -> l.split(": worker process \\d+ ready in ", -1).length - 1 == 6
                    && l.split(" exited with code 0\n", -1).length - 1 == 4);
                for (int i = 0; i < 5; i++) {
                    assertEquals("new2", oneRequest(port));
                }
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
            }
        }
    }

    @Test
    @Timeout(120)
    void reloadWhoseWorkersCannotStartIsAbandoned() throws Exception {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        try (Site site = Site.create()) {
            int port = Site.freePort();
            site.write("conf/jinx.conf", conf(port, "old"));
            Process p = Masters.start(site);
            try {
                List<ProcessHandle> old = Masters.waitForWorkers(p.toHandle(), 2, List.of());
                waitForBody(port, "old");
                // valid for the master, fatal for a worker (chdir fails: exit code 2)
                site.write("conf/jinx.conf", "working_directory " + site.root().resolve("missing") + ";\n"
                    + conf(port, "new"));
                Syscalls.kill(p.pid(), Platform.SIGHUP);
                Masters.waitForLog(site, "reload abandoned: ");
                // on a loaded machine the deadline may come first; the new workers exit with code 2 either way
                Masters.waitForLog(site, log -> log.split(" exited with code 2\n", -1).length - 1 == 2);
                List<ProcessHandle> now = Masters.waitForWorkers(p.toHandle(), 2, List.of());
                assertTrue(now.containsAll(old), "workers changed: " + old + " -> " + now);
                for (int i = 0; i < 10; i++) {
                    assertEquals("old", oneRequest(port));
                }
                // a later good reload works
                site.write("conf/jinx.conf", conf(port, "new"));
                Syscalls.kill(p.pid(), Platform.SIGHUP);
                waitForBody(port, "new");
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
            }
        }
    }

    @Test
    @Timeout(300)
    void reloadUnderLoad() throws Exception {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        try (Site site = Site.create()) {
            int port = Site.freePort();
            site.write("conf/jinx.conf", conf(port, "old"));
            Process p = Masters.start(site);
            try {
                Masters.waitForWorkers(p.toHandle(), 2, List.of());
                waitForBody(port, "old");
                int connections = 20;
                AtomicBoolean stop = new AtomicBoolean();
                AtomicLong requests = new AtomicLong();
                AtomicLong sawNew = new AtomicLong();
                List<String> failures = new ArrayList<>();
                List<Thread> clients = new ArrayList<>();
                for (int c = 0; c < connections; c++) {
                    boolean keepAlive = c % 2 == 0;
                    Thread t = new Thread(() -> load(port, keepAlive, stop, requests, sawNew, failures));
                    t.start();
                    clients.add(t);
                }
                long start = System.nanoTime();
                int reloads = 5;
                List<Long> serving = new ArrayList<>();
                for (int i = 1; i <= reloads; i++) {
                    // one HUP every 2 s (or once the previous reload serves, if that took longer)
                    long due = start + TimeUnit.SECONDS.toNanos(2L * (i - 1));
                    Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(due - System.nanoTime())));
                    String body = "new" + i;
                    site.write("conf/jinx.conf", conf(port, body));
                    long hup = System.nanoTime();
                    Syscalls.kill(p.pid(), Platform.SIGHUP);
                    int sent = i;
                    Masters.waitForLog(site, log -> reconfigurings(log) == sent);
                    waitForBody(port, body, 60);
                    serving.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - hup));
                }
                // the load goes on for 10 s at least
                Thread.sleep(Math.max(1000, TimeUnit.SECONDS.toMillis(10)
                    - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)));
                stop.set(true);
                for (Thread t : clients) {
                    t.join(15_000);
                }
                long duration = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                String log = site.read("logs/error.log");
                int done = reconfigurings(log);
                List<Long> starts = new ArrayList<>();
                Matcher m = Pattern.compile(": worker process \\d+ ready in (\\d+)ms\n").matcher(log);
                while (m.find()) {
                    starts.add(Long.parseLong(m.group(1)));
                }
                System.out.println("RELOAD-UNDER-LOAD requests=" + requests.get() + " failures=" + failures.size()
                    + " reloads=" + done + " duration=" + duration + "ms connections=" + connections);
                System.out.println("RELOAD-UNDER-LOAD new content served after HUP (ms): " + serving
                    + "; worker start, spawn to ready (ms): " + starts);
                assertTrue(failures.isEmpty(), failures.size() + " failures: "
                    + failures.subList(0, Math.min(10, failures.size())));
                assertTrue(sawNew.get() > 0, "the new content was never served");
                assertEquals(reloads, done, log);
                assertFalse(log.contains("reload abandoned"), log);
                // the new workers serve within 2 s of the HUP, or within 2.5 times the slower of the two first
                // workers' start (no load then) on a host that starts a JVM slowly: started ten nice values up, a
                // JVM is not starved by the old workers and the client. Measured on a 2-core host: first starts
                // 1.2-1.4 s; under this load 1.5-2.5 s with the boost, 5.0-7.0 s without it
                assertTrue(starts.size() >= 2, log);
                long bound = Math.max(2000, 5 * Math.max(starts.get(0), starts.get(1)) / 2);
                for (int i = 0; i < serving.size(); i++) {
                    assertTrue(serving.get(i) <= bound, "reload " + (i + 1) + " served " + serving.get(i)
                        + "ms after HUP, bound " + bound + "ms; worker starts " + starts);
                }
                // and that boost is over once they serve: every thread at the master's nice value
                int nice = ProcessSetup.nice();
                for (ProcessHandle w : Masters.waitForWorkers(p.toHandle(), 2, List.of())) {
                    Map<Long, Integer> threads = WorkerProcs.nice(w.pid());
                    assertTrue(threads.values().stream().allMatch(n -> n == nice), w.pid() + ": " + threads);
                }
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
            }
        }
    }

    /** One client connection's loop: keep-alive requests, or a new connection per request. */
    private static void load(int port, boolean keepAlive, AtomicBoolean stop, AtomicLong requests,
        AtomicLong sawNew, List<String> failures) {
        Socket s = null;
        while (!stop.get()) {
            boolean reused = s != null;
            try {
                if (s == null) {
                    s = connect(port);
                }
                Response r;
                try {
                    r = exchange(s, keepAlive);
                } catch (IOException e) {
                    // one retry, as HTTP clients do, when an idle keep-alive connection was closed before any byte
                    close(s);
                    s = null;
                    if (!reused || !(e instanceof ClosedBeforeResponse)) {
                        throw e;
                    }
                    s = connect(port);
                    r = exchange(s, keepAlive);
                }
                if (!r.body.equals("old") && !r.body.startsWith("new")) {
                    throw new IOException("unexpected body " + r.body);
                }
                if (r.body.startsWith("new")) {
                    sawNew.incrementAndGet();
                }
                requests.incrementAndGet();
                if (!keepAlive || r.close) {
                    close(s);
                    s = null;
                }
            } catch (IOException e) {
                close(s);
                s = null;
                synchronized (failures) {
                    failures.add(e.toString());
                }
            }
        }
        close(s);
    }

    /** No byte of a response came before the connection ended. */
    private static final class ClosedBeforeResponse extends IOException {
        private static final long serialVersionUID = 1L;

        ClosedBeforeResponse(String message) {
            super(message);
        }
    }

    private record Response(int status, String body, boolean close) {
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        s.setSoTimeout(10_000);
        s.setTcpNoDelay(true);
        return s;
    }

    private static void close(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                // nothing to do
            }
        }
    }

    private static String oneRequest(int port) throws IOException {
        try (Socket s = connect(port)) {
            Response r = exchange(s, false);
            if (r.status != 200) {
                throw new IOException("status " + r.status);
            }
            return r.body;
        }
    }

    /** Sends {@code GET /} and reads one complete response with a Content-Length body. */
    private static Response exchange(Socket s, boolean keepAlive) throws IOException {
        OutputStream out = s.getOutputStream();
        try {
            out.write(("GET / HTTP/1.1\r\nHost: localhost\r\n" + (keepAlive ? "" : "Connection: close\r\n")
                + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        } catch (IOException e) {
            throw new ClosedBeforeResponse("write: " + e);
        }
        InputStream in = s.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b;
            try {
                b = in.read();
            } catch (IOException e) {
                if (head.size() == 0) {
                    throw new ClosedBeforeResponse("read: " + e);
                }
                throw e;
            }
            if (b < 0) {
                if (head.size() == 0) {
                    throw new ClosedBeforeResponse("end of stream before the response");
                }
                throw new IOException("end of stream in the header: " + head);
            }
            head.write(b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1
                : (b == '\r' ? 1 : 0);
        }
        String h = head.toString(StandardCharsets.ISO_8859_1);
        String[] lines = h.split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        int length = -1;
        boolean close = false;
        for (String line : lines) {
            String lower = line.toLowerCase();
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                close = true;
            }
        }
        if (length < 0) {
            throw new IOException("no Content-Length: " + h);
        }
        byte[] body = in.readNBytes(length);
        if (body.length != length) {
            throw new IOException("short body");
        }
        return new Response(status, new String(body, StandardCharsets.ISO_8859_1), close);
    }

    private static void waitForBody(int port, String body) throws Exception {
        waitForBody(port, body, 20);
    }

    private static void waitForBody(int port, String body, int seconds) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String last = null;
        for (;;) {
            try {
                last = oneRequest(port);
                if (last.equals(body)) {
                    return;
                }
            } catch (IOException e) {
                if (System.nanoTime() > end) {
                    throw e;
                }
            }
            if (System.nanoTime() > end) {
                throw new AssertionError("still \"" + last + "\", not \"" + body + "\"");
            }
            Thread.sleep(20);
        }
    }

    private static int reconfigurings(String log) {
        return log.split(": reconfiguring\n", -1).length - 1;
    }
}
