package jinx.kernel.internal.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

class WorkerCommandTest {

    private static final List<String> MASTER = List.of("PATH=/usr/bin", "HOME=/root", "JAVA_HOME=/opt/jdk",
        "LANG=C.UTF-8", "TZ=Europe/Paris", "SECRET=1", "JDK_JAVA_OPTIONS=-Xmx1m", "JINX=5;6;",
        "_JAVA_SR_SIGNUM=12", "KEEP=yes");

    @Test
    void theFilesOptionsComeFirstAndTheRequiredOnesWin() {
        List<String> argv = WorkerCommand.command("/opt/jdk/bin/java",
            List.of("-Xmx64m", "-XX:-ExitOnOutOfMemoryError"), Path.of("/srv/jinx/kernel/target/native"), null,
            "/a.jar:/b.jar");
        int n = argv.size();
        assertEquals("/opt/jdk/bin/java", argv.get(0));
        assertEquals(List.of("-Xmx64m", "-XX:-ExitOnOutOfMemoryError", "-Xrs", "-XX:+ExitOnOutOfMemoryError",
            "-XX:-UsePerfData", "-XX:ActiveProcessorCount=1",
            "-Djffi.boot.library.path=/srv/jinx/kernel/target/native"), argv.subList(1, 8));
        assertEquals(List.of("-cp", "/a.jar:/b.jar", WorkerMain.class.getName()), argv.subList(n - 3, n));
    }

    @Test
    void onTheModulePathTheWorkerIsAModule() {
        List<String> argv = WorkerCommand.command("java", List.of(), null, "/m1:/m2", "ignored");
        assertEquals(List.of("java", "-Xrs", "-XX:+ExitOnOutOfMemoryError", "-XX:-UsePerfData",
            "-XX:ActiveProcessorCount=1"), argv.subList(0, 5));
        int p = argv.indexOf("-p");
        assertEquals(List.of("-p", "/m1:/m2", "--add-modules", "ALL-MODULE-PATH", "-m",
            WorkerMain.class.getModule().getName() + "/" + WorkerMain.class.getName()), argv.subList(p, p + 6));
    }

    /** Issue #36: a worker on Java 25 starts without the restricted-method and Unsafe warnings. */
    @Test
    void newerJvmsGetTheOptionsTheyKnow() {
        assertEquals(List.of(), WorkerCommand.newerJvmOptions(17, true));
        assertEquals(List.of(), WorkerCommand.newerJvmOptions(21, false));
        assertEquals(List.of("--enable-native-access=ALL-UNNAMED"), WorkerCommand.newerJvmOptions(22, false));
        assertEquals(List.of("--enable-native-access=org.jnrproject.jffi,jinx.kernel",
            "--sun-misc-unsafe-memory-access=allow"), WorkerCommand.newerJvmOptions(25, true));
        assertEquals(List.of("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"),
            WorkerCommand.newerJvmOptions(25, false));
    }

    /** The jffi module name the options grant native access to is the jar's own. */
    @Test
    void jffisModuleNameIsTheJarsAutomaticModuleName() throws Exception {
        java.net.URL jar = com.kenai.jffi.Platform.class.getProtectionDomain().getCodeSource().getLocation();
        try (java.util.jar.JarFile f = new java.util.jar.JarFile(Path.of(jar.toURI()).toFile())) {
            assertEquals(WorkerCommand.JFFI_MODULE, f.getManifest().getMainAttributes()
                .getValue("Automatic-Module-Name"));
        }
    }

    @Test
    void theLaunchersCdsArchiveIsMappedByEveryWorker() {
        List<String> argv = WorkerCommand.command("java", List.of(), null, Path.of("/srv/jinx/kernel/target/jinx.jsa"),
            "/m1:/m2", "ignored");
        int cds = argv.indexOf("-XX:SharedArchiveFile=/srv/jinx/kernel/target/jinx.jsa");
        assertTrue(cds > 0 && cds < argv.indexOf("-p"), argv.toString());
        assertTrue(argv.contains("-Xlog:cds=off"), argv.toString());
        assertFalse(WorkerCommand.command("java", List.of(), null, null, "/m1:/m2", "ignored").stream()
            .anyMatch(a -> a.startsWith("-XX:SharedArchiveFile")));
    }

    @Test
    void jffisLibraryIsFoundBesideTheKernelClasses() {
        // the build unpacks it into target/native, beside target/classes
        Path dir = WorkerCommand.jffiPath();
        assertNotNull(dir, "kernel/target/native");
        assertTrue(Files.isRegularFile(dir.resolve("libjffi-1.2.so")), dir.toString());
    }

    @Test
    void withoutEnvAWorkerKeepsTzAndWhatTheJvmNeeds() {
        assertEquals(List.of("JAVA_HOME=/opt/jdk", "LANG=C.UTF-8", "TZ=Europe/Paris", "_JAVA_SR_SIGNUM=39"),
            WorkerCommand.environment(List.of(), MASTER));
    }

    @Test
    void envKeepsOrSetsVariablesAsNginx() {
        List<String> env = WorkerCommand.environment(List.of("KEEP", "NEW=a b", "ABSENT", "TZ=UTC", "PATH"), MASTER);
        assertEquals(List.of("JAVA_HOME=/opt/jdk", "LANG=C.UTF-8", "KEEP=yes", "NEW=a b", "TZ=UTC",
            "PATH=/usr/bin", "_JAVA_SR_SIGNUM=39"), env);
    }

    @Test
    void envCannotTakeAwayOrChangeWhatTheJvmNeeds() {
        List<String> env = WorkerCommand.environment(List.of("_JAVA_SR_SIGNUM=12", "JAVA_HOME=/other"), MASTER);
        assertTrue(env.contains("_JAVA_SR_SIGNUM=39"), env.toString());
        assertEquals(1, env.stream().filter(e -> e.startsWith("_JAVA_SR_SIGNUM=")).count(), env.toString());
        // a variable the configuration sets explicitly is the operator's choice
        assertTrue(env.contains("JAVA_HOME=/other"), env.toString());
    }
}
