package jinx.http.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * What the tests of {@code master_process on} share: waiting for a master's workers and for its error log,
 * stopping it with TERM, and killing it and its workers by pid when a test ends.
 */
final class Masters {

    private Masters() {
    }

    /** Waits until the master has {@code n} live children, none of them in {@code gone}. */
    static List<ProcessHandle> waitForWorkers(ProcessHandle master, int n, List<ProcessHandle> gone)
        throws InterruptedException {
        return waitForWorkers(master, n, gone, 20);
    }

    /** As {@link #waitForWorkers(ProcessHandle, int, List)}, waiting {@code seconds} at most. */
    static List<ProcessHandle> waitForWorkers(ProcessHandle master, int n, List<ProcessHandle> gone, int seconds)
        throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<ProcessHandle> children = List.of();
        while (System.nanoTime() < end) {
            children = master.children().filter(ProcessHandle::isAlive).filter(h -> !gone.contains(h)).toList();
            if (children.size() == n) {
                return children;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("workers: " + children);
    }

    /** Waits (60 s at most: a loaded machine starts JVMs slowly) until the error log contains {@code text}. */
    static String waitForLog(Site site, String text) throws Exception {
        return waitForLog(site, log -> log.contains(text), 60, "\"" + text + "\" not in the error log:\n");
    }

    /** Waits (30 s at most) until {@code done} holds for the site's error log; returns the log. */
    static String waitForLog(Site site, Predicate<String> done) throws Exception {
        return waitForLog(site, done, 30, "the error log:\n");
    }

    private static String waitForLog(Site site, Predicate<String> done, int seconds, String failure)
        throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String log = "";
        while (System.nanoTime() < end) {
            log = Files.exists(site.root().resolve("logs/error.log")) ? site.read("logs/error.log") : "";
            if (done.test(log)) {
                return log;
            }
            Thread.sleep(20);
        }
        throw new AssertionError(failure + log);
    }

    /**
     * Sends USR1 to the master and waits until {@code processes} more "reopening logs" lines are in the error log
     * (the master's, and each live worker's once the master's REOPEN came over its channel): then the master, and
     * the workers through their channels, handled whatever came before. What a test waits on before it asserts
     * that something did not happen (a respawn, a stop), instead of sleeping.
     */
    static void handledBefore(Process master, Site site, int processes) throws Exception {
        int before = site.read("logs/error.log").split(": reopening logs\n", -1).length - 1;
        Syscalls.kill(master.pid(), Platform.SIGUSR1);
        waitForLog(site, log -> log.split(": reopening logs\n", -1).length - 1 >= before + processes);
    }

    /**
     * Waits until the master logged worker {@code pid} ready (its loop turns, READY on its channel) and returns
     * its start time, spawn to ready, in ms.
     */
    static long waitForReady(Site site, long pid) throws Exception {
        java.util.regex.Pattern ready = java.util.regex.Pattern.compile(": worker process " + pid
            + " ready in (\\d+)ms\n");
        String log = waitForLog(site, l -> ready.matcher(l).find(), 60, "worker " + pid + " never ready:\n");
        java.util.regex.Matcher m = ready.matcher(log);
        m.find();
        return Long.parseLong(m.group(1));
    }

    /** TERM to the master: it must exit within 20 s and remove its pid file. */
    static void stopMaster(Process p, Site site) throws Exception {
        Syscalls.kill(p.pid(), Platform.SIGTERM);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the master is still running after SIGTERM");
        assertFalse(Files.exists(site.root().resolve("logs/jinx.pid")), "the pid file is left");
    }

    /**
     * A {@code master_process on} configuration: {@code workers} workers, the main-context lines {@code main},
     * access log on, {@code /v} returning {@code body} and {@code /pid} the serving worker's pid.
     */
    static String conf(int port, int workers, String main, String body) {
        String user = Syscalls.geteuid() == 0 ? "user root;\n" : "";
        return "master_process on;\ndaemon off;\nworker_processes " + workers + ";\n" + user + main
            + "error_log logs/error.log notice;\npid logs/jinx.pid;\n"
            + "events { worker_connections 64; }\n"
            + "http { access_log logs/access.log; server { listen 127.0.0.1:" + port + "; root html;\n"
            + "location = /v { return 200 \"" + body + "\"; }\n"
            + "location = /pid { return 200 \"$pid\"; } } }\n";
    }

    /** Starts {@code bin/jinx -p site}, its output in the site's {@code stdout.log}. */
    static Process start(Site site) throws java.io.IOException {
        return start(site, java.util.Map.of());
    }

    /** As {@link #start(Site)}, with {@code env} added to the launcher's environment. */
    static Process start(Site site, java.util.Map<String, String> env) throws java.io.IOException {
        ProcessBuilder pb = new ProcessBuilder(Site.distribution().resolve("bin/jinx").toString(), "-p",
            site.root().toString()).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(site.root().resolve("stdout.log").toFile()));
        pb.environment().putAll(env);
        return pb.start();
    }

    /**
     * The environment that gives the workers {@code bin/jvm.options} and {@code more}, written to the site's
     * {@code jvm.options} (later options win: {@code worker: -XX:-DisableAttachMechanism} lets jcmd attach).
     */
    static java.util.Map<String, String> jvmOptions(Site site, String more) throws java.io.IOException {
        String base = Files.readString(Site.distribution().resolve("bin/jvm.options"));
        java.nio.file.Path file = site.write("jvm.options", base + "\n" + more + "\n");
        return java.util.Map.of("JINX_JVM_OPTIONS_FILE", file.toString());
    }

    /** What a test does with a running master and its ready workers. */
    interface WithWorkers {
        /**
         * Runs the test.
         *
         * @param p the master
         * @param workers its workers, ready; workers the test adds to the list are killed after it too
         * @throws Exception what the test throws
         */
        void run(Process p, List<ProcessHandle> workers) throws Exception;
    }

    /**
     * Starts {@code bin/jinx -p site}, waits for its {@code n} workers to report ready, runs {@code test}, and then
     * kills the master and every worker in the list, by pid, whatever happened.
     */
    static void withWorkers(Site site, int n, WithWorkers test) throws Exception {
        withWorkers(site, n, java.util.Map.of(), test);
    }

    /** As {@link #withWorkers(Site, int, WithWorkers)}, with {@code env} added to the launcher's environment. */
    static void withWorkers(Site site, int n, java.util.Map<String, String> env, WithWorkers test) throws Exception {
        Process p = start(site, env);
        List<ProcessHandle> workers = new java.util.ArrayList<>();
        try {
            workers.addAll(startReady(site, p, n));
            test.run(p, workers);
        } finally {
            kill(p);
            workers.forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** Starts a master and waits until its {@code n} workers reported ready; returns them. */
    static List<ProcessHandle> startReady(Site site, Process p, int n) throws Exception {
        // a loaded machine may take long to start the master's JVM and then the workers'
        List<ProcessHandle> workers;
        try {
            workers = waitForWorkers(p.toHandle(), n, List.of(), 60);
        } catch (AssertionError e) {
            java.nio.file.Path out = site.root().resolve("stdout.log");
            java.nio.file.Path log = site.root().resolve("logs/error.log");
            throw new AssertionError(e.getMessage() + "; master alive: " + p.isAlive() + "\nstdout:\n"
                + (Files.exists(out) ? Files.readString(out) : "") + "\nerror.log:\n"
                + (Files.exists(log) ? Files.readString(log) : ""), e);
        }
        for (ProcessHandle w : workers) {
            waitForReady(site, w.pid());
        }
        return workers;
    }

    /**
     * The slot (worker number) a worker JVM was spawned for: the argument after WorkerMain's class name. A child
     * caught between posix_spawn's fork and its exec still shows the master's command line: waited for (10 s).
     */
    static int slotOf(ProcessHandle worker) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String[] args = new String[0];
        while (System.nanoTime() < end) {
            args = Files.readString(java.nio.file.Path.of("/proc/" + worker.pid() + "/cmdline"),
                java.nio.charset.StandardCharsets.ISO_8859_1).split("\0");
            for (int i = 0; i < args.length - 1; i++) {
                if (args[i].endsWith("WorkerMain")) {
                    return Integer.parseInt(args[i + 1]);
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("not a worker: " + String.join(" ", args));
    }

    /** Asserts nothing accepts on the port any more. */
    static void assertRefused(int port) throws java.io.IOException {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            throw new AssertionError("still accepting on " + port);
        } catch (java.net.ConnectException e) {
            // released
        }
    }

    /** Waits (20 s at most) until every process in {@code procs} has exited. */
    static void assertAllExit(List<ProcessHandle> procs) throws Exception {
        for (ProcessHandle h : procs) {
            try {
                h.onExit().get(20, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError("process " + h.pid() + " is still running");
            }
        }
    }

    /** Kills the master and its workers, whatever state the test left them in. */
    static void kill(Process p) throws InterruptedException {
        List<ProcessHandle> children = p.toHandle().children().toList();
        p.toHandle().destroyForcibly();
        for (ProcessHandle c : children) {
            c.destroyForcibly();
        }
        p.waitFor(10, TimeUnit.SECONDS);
    }
}
