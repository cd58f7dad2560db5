package jinx.http.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.kernel.os.Syscalls;

/**
 * Worker processes as the master starts and sets them up, read from {@code /proc}: their JVM options from the
 * server's one options file (and never the master's own), jffi's library loaded from the distribution rather than
 * extracted into java.io.tmpdir, their environment as nginx's {@code env} leaves it plus what the JVM needs,
 * {@code user} (workers run as nobody while the master stays root), {@code worker_priority},
 * {@code worker_rlimit_nofile}, {@code worker_cpu_affinity} on the loop thread, nginx's messages when a setting
 * fails, and {@code -t} refusing an unknown user with nginx's words.
 */
@Tag("slow")
class WorkerSetupIT {

    private static final Pattern AFFINITY = Pattern.compile("(\\d+)#\\d+: sched_setaffinity\\(\\): using cpu #(\\d+)");

    @Test
    @Timeout(120)
    void workersGetTheirOptionsEnvironmentUserAndLimits() throws Exception {
        assumeBuilt();
        assumeTrue(Syscalls.geteuid() == 0, "the master runs as root to start workers as another user");
        assumeTrue(Syscalls.getpwnam("nobody") == 65534, "user nobody is 65534");
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two CPUs for worker_cpu_affinity auto");
        String group = Syscalls.getgrnam("nogroup") != -1 ? "nogroup" : "nobody";
        try (Site site = Site.create()) {
            int port = Site.freePort();
            Path tmp = site.mkdir("tmp");
            Path options = site.write("jvm.options", "# the test's options\n-Djinx.it.both=yes\n"
                + "master: -Djinx.it.master=yes\nworker: -Djava.io.tmpdir=" + tmp + "\n");
            site.write("conf/jinx.conf", "master_process on;\ndaemon off;\nworker_processes 2;\n"
                + "user nobody " + group + ";\nworker_priority 5;\nworker_rlimit_nofile 2048;\n"
                + "worker_cpu_affinity auto;\nenv FOO=bar;\nenv JINX_IT_KEEP;\n"
                + "error_log logs/error.log notice;\npid logs/jinx.pid;\n"
                + "events { worker_connections 64; }\n"
                + "http { access_log off; server { listen 127.0.0.1:" + port + ";\n"
                + "location / { return 200 \"$pid\\n\"; } } }\n");
            Map<String, String> env = new HashMap<>();
            env.put("JINX_JVM_OPTIONS_FILE", options.toString());
            env.put("JINX_IT_KEEP", "kept");
            env.put("JINX_IT_SECRET", "1");
            env.put("JAVA_HOME", System.getProperty("java.home"));
            Process p = WorkerProcs.start(site, env);
            try {
                List<ProcessHandle> workers = WorkerProcs.workers(p, site, 2);
                // a worker that answers is past its set-up: privileges dropped, limits set
                java.util.Set<Long> answered = new java.util.HashSet<>();
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (answered.size() < 2 && System.nanoTime() < end) {
                    answered.add(Long.parseLong(WorkerProcs.waitForBody(port, "/").strip()));
                }
                assertEquals(java.util.Set.of(workers.get(0).pid(), workers.get(1).pid()), answered);
                String log = Masters.waitForLog(site, l -> AFFINITY.matcher(l).results().count() == 2);
                String nativeDir = "-Djffi.boot.library.path=" + Site.distribution().resolve("kernel/target/native");

                assertEquals("0\t0\t0\t0", WorkerProcs.status(p.pid(), "Uid"), "the master stays root");
                List<String> master = WorkerProcs.cmdline(p.pid());
                assertTrue(master.containsAll(List.of("-Djinx.it.both=yes", "-Djinx.it.master=yes", "-Xrs",
                    nativeDir)), master.toString());
                assertFalse(master.contains("-Djava.io.tmpdir=" + tmp), master.toString());
                assertJffiFromTheDistribution(p.pid());

                Map<Long, Integer> cpuOf = new HashMap<>();
                Matcher m = AFFINITY.matcher(log);
                while (m.find()) {
                    cpuOf.put(Long.parseLong(m.group(1)), Integer.parseInt(m.group(2)));
                }
                assertEquals(List.of(0, 1), cpuOf.values().stream().sorted().toList(), log);
                for (ProcessHandle w : workers) {
                    long pid = w.pid();
                    assertEquals("65534\t65534\t65534\t65534", WorkerProcs.status(pid, "Uid"));
                    assertEquals(Syscalls.getgrnam(group) + "\t" + Syscalls.getgrnam(group) + "\t"
                        + Syscalls.getgrnam(group) + "\t" + Syscalls.getgrnam(group), WorkerProcs.status(pid, "Gid"));

                    List<String> argv = WorkerProcs.cmdline(pid);
                    assertTrue(argv.containsAll(List.of("-Djinx.it.both=yes", "-Djava.io.tmpdir=" + tmp, "-Xrs",
                        "-XX:+ExitOnOutOfMemoryError", "-XX:-UsePerfData", "-XX:ActiveProcessorCount=1",
                        nativeDir)), argv.toString());
                    assertFalse(argv.contains("-Djinx.it.master=yes"), argv.toString());
                    assertJffiFromTheDistribution(pid);

                    List<String> environ = WorkerProcs.environ(pid);
                    assertTrue(environ.containsAll(List.of("FOO=bar", "JINX_IT_KEEP=kept", "_JAVA_SR_SIGNUM=39",
                        "JAVA_HOME=" + System.getProperty("java.home"))), environ.toString());
                    assertTrue(environ.stream().noneMatch(e -> e.startsWith("JINX_IT_SECRET=")
                        || e.startsWith("JINX_JVM_OPTIONS_FILE=")), environ.toString());

                    String limits = Files.readString(Path.of("/proc/" + pid + "/limits"));
                    assertTrue(limits.matches("(?s).*\\nMax open files +2048 +2048 +files.*"), limits);
                    Map<Long, Integer> nice = WorkerProcs.nice(pid);
                    assertTrue(nice.values().stream().allMatch(n -> n == 5), "every thread at nice 5: " + nice);
                    Integer cpu = cpuOf.get(pid);
                    assertTrue(cpu != null, pid + " logged its CPU: " + log);
                    Map<Long, String> cpus = WorkerProcs.cpus(pid);
                    assertTrue(cpus.containsValue(String.valueOf(cpu)), "the loop thread on CPU " + cpu + ": " + cpus);
                }
                try (Stream<Path> extracted = Files.list(tmp)) {
                    assertEquals(List.of(), extracted.toList(), "nothing extracted into the workers' java.io.tmpdir");
                }
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
            }
        }
    }

    @Test
    @Timeout(120)
    void aSettingThatFailsIsLoggedAsNginxAndTheWorkerServes() throws Exception {
        assumeBuilt();
        assumeTrue(Syscalls.geteuid() == 0, "as root, only a limit above fs.nr_open fails");
        // readAllLines: Files.readString takes a /proc file's size (0) at its word
        long nrOpen = Long.parseLong(Files.readAllLines(Path.of("/proc/sys/fs/nr_open")).get(0).strip());
        long tooMany = nrOpen + 1;
        try (Site site = Site.create()) {
            int port = Site.freePort();
            site.write("conf/jinx.conf", "master_process on;\ndaemon off;\nworker_processes 1;\nuser root;\n"
                + "worker_rlimit_nofile " + tooMany + ";\nworker_cpu_affinity 1" + "0".repeat(1000) + ";\n"
                + "error_log logs/error.log notice;\npid logs/jinx.pid;\n"
                + "events { worker_connections 64; }\n"
                + "http { access_log off; server { listen 127.0.0.1:" + port + ";\n"
                + "location / { return 200 \"$pid\\n\"; } } }\n");
            Process p = WorkerProcs.start(site, Map.of());
            try {
                List<ProcessHandle> workers = WorkerProcs.workers(p, site, 1);
                String body = WorkerProcs.waitForBody(port, "/");
                assertEquals(String.valueOf(workers.get(0).pid()), body.strip(), site.read("logs/error.log"));
                String log = Masters.waitForLog(site, "sched_setaffinity() failed (22: Invalid argument)\n");
                assertTrue(log.contains("[alert] " + workers.get(0).pid() + ItSupport.MAIN_TID
                    + ": setrlimit(RLIMIT_NOFILE, " + tooMany + ") failed (1: Operation not permitted)\n"), log);
                assertTrue(log.contains(": sched_setaffinity(): using cpu #1000\n"), log);
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
            }
        }
    }

    @Test
    @Timeout(60)
    void anUnknownUserFailsTheTest() throws Exception {
        assumeBuilt();
        assumeTrue(Syscalls.geteuid() == 0, "nginx checks the user only when the master runs as root");
        try (Site site = Site.create()) {
            Path conf = site.write("conf/jinx.conf", "master_process on;\nworker_processes 2;\n"
                + "user no_such_user_jinx;\nevents { }\n");
            Process p = WorkerProcs.start(site, Map.of(), "-t");
            try {
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertTrue(p.waitFor(30, TimeUnit.SECONDS));
                assertEquals(1, p.exitValue(), out);
                assertEquals("jinx: [emerg] getpwnam(\"no_such_user_jinx\") failed in " + conf + ":3\n"
                    + "jinx: configuration file " + conf + " test failed\n", out);
            } finally {
                Masters.kill(p);
            }
        }
    }

    private static void assumeBuilt() {
        assumeTrue(Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
    }

    /** jffi's library is mapped from the distribution's kernel/target/native, never from an extracted copy. */
    private static void assertJffiFromTheDistribution(long pid) throws Exception {
        List<String> jffi = Files.readAllLines(Path.of("/proc/" + pid + "/maps")).stream()
            .filter(l -> l.contains("jffi")).map(l -> l.substring(l.indexOf('/'))).distinct().toList();
        assertEquals(List.of(Site.distribution().resolve("kernel/target/native/libjffi-1.2.so").toString()), jffi);
    }
}
