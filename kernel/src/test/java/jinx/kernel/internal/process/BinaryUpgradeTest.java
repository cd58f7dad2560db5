package jinx.kernel.internal.process;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ErrorLog;
import jinx.kernel.Listening;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.core.ErrlogCoreModule;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.CycleBuilder;
import jinx.kernel.internal.cycle.CycleOptions;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Processes;
import jinx.kernel.os.SigSet;
import jinx.kernel.os.SockAddr;
import jinx.kernel.os.SpawnSpec;
import jinx.kernel.os.WaitStatus;
import jinx.kernel.spi.JinxModule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link BinaryUpgrade} without starting a master: the {@code JINX} value and the spawn's descriptors and
 * environment, the {@code .oldbin} name, nginx's rule for ignoring USR2, and the failure to rename the pid file.
 * The upgrade itself runs in {@code UpgradeIT}.
 */
@EnabledOnOs(OS.LINUX)
class BinaryUpgradeTest {

    @TempDir
    Path tmp;

    @AfterEach
    void forgetOrigin() {
        BinaryUpgrade.origin(-1, false);
    }

    private static Listening open(String addr, int fd) {
        Listening ls = new Listening(SockAddr.parse(addr));
        ls.open(fd, false);
        return ls;
    }

    @Test
    void theVariableNamesEveryOpenSocketAsNginxDoes() {
        List<Listening> sockets = List.of(open("127.0.0.1:80", 5), open("127.0.0.1:81", -1),
            open("127.0.0.1:82", 12));
        assertEquals("5;12;", BinaryUpgrade.variable(sockets));
        assertEquals("", BinaryUpgrade.variable(List.of()));
    }

    @Test
    void theNewMasterGetsTheSocketsAtTheirNumbersAndNothingElse() {
        List<Listening> sockets = List.of(open("127.0.0.1:80", 7), open("127.0.0.1:81", 9));
        try (SigSet mask = SigSet.of(Platform.SIGHUP)) {
            SpawnSpec spec = BinaryUpgrade.spec("/usr/bin/java", List.of("/usr/bin/java", "-Xrs", "Main"), sockets,
                mask);
            assertEquals("/usr/bin/java", spec.program());
            assertEquals(List.of(new SpawnSpec.Dup2(7, 7), new SpawnSpec.Dup2(9, 9)), spec.dup2s());
            assertEquals(3, spec.closeFrom());
            assertTrue(spec.sigmask() == mask);
            assertFalse(spec.setsid(), "the new master stays in the old one's session");
            List<String> jinx = new ArrayList<>();
            for (String e : spec.env()) {
                if (e.startsWith("JINX=")) {
                    jinx.add(e);
                }
            }
            assertEquals(List.of("JINX=7;9;"), jinx);
            // the rest of the environment is this process's
            assertEquals(Processes.environment().stream().filter(e -> !e.startsWith("JINX=")).toList(),
                spec.env().stream().filter(e -> !e.startsWith("JINX=")).toList());
        }
    }

    @Test
    void theOldPidFileIsDotOldbin() {
        assertEquals(Path.of("/var/run/jinx.pid.oldbin"), BinaryUpgrade.oldPid(Path.of("/var/run/jinx.pid")));
        BinaryUpgrade upgrade = new BinaryUpgrade();
        assertFalse(upgrade.running());
        assertEquals(Path.of("/a/jinx.pid"), upgrade.pidFileAtExit(Path.of("/a/jinx.pid")));
        assertFalse(upgrade.reaped(new WaitStatus(12345, 0), null), "not the new binary");
    }

    @Test
    void usr2IsIgnoredWhileTheParentIsTheOneAtStart() {
        BinaryUpgrade upgrade = new BinaryUpgrade();
        // a master in the foreground, or a new binary whose old master still runs
        BinaryUpgrade.origin(Processes.getppid(), false);
        assertEquals(", ignoring", upgrade.action());
        // a daemon: its parent at start has exited since
        BinaryUpgrade.origin(Processes.getppid() + 100_000, true);
        assertEquals(", changing binary", upgrade.action());
        assertTrue(BinaryUpgrade.daemonized());
    }

    @Test
    void aMissingPidFileStopsTheUpgradeWithNginxsMessage() throws Exception {
        Path conf = tmp.resolve("conf/jinx.conf");
        Files.createDirectories(conf.getParent());
        Files.createDirectories(tmp.resolve("logs"));
        Files.writeString(conf, "error_log logs/error.log notice;\npid logs/jinx.pid;\n");
        PrintStream err = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.ISO_8859_1);
        ErrorLog early = ErrorLog.early(err, null);
        CycleOptions options = new CycleOptions(tmp, conf, null, null, CycleOptions.Purpose.TEST,
            BinaryUpgradeTest::modules, BuiltinOrder.NAMES, err, early, null);
        KernelCycle cycle = CycleBuilder.build(options, null);
        try {
            BinaryUpgrade upgrade = new BinaryUpgrade();
            assertEquals(-1, upgrade.start(cycle));
            assertFalse(upgrade.running());
            String log = Files.readString(tmp.resolve("logs/error.log"), StandardCharsets.ISO_8859_1);
            String java = Path.of("/proc/self/exe").toRealPath().toString();
            assertTrue(log.contains("[alert] " + ProcessHandle.current().pid() + "#"), log);
            assertTrue(log.contains(": rename() " + tmp.resolve("logs/jinx.pid") + " to "
                + tmp.resolve("logs/jinx.pid.oldbin") + " failed before executing new binary process \"" + java
                + "\" (2: No such file or directory)\n"), log);
        } finally {
            cycle.log().close();
            early.close();
        }
    }

    private static List<JinxModule> modules() {
        return new ArrayList<>(List.of(new MainCoreModule(), new ErrlogCoreModule()));
    }
}
