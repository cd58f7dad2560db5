package jinx.kernel.os;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link Processes} with real children: {@code posix_spawnp} with file actions and attributes, wait statuses,
 * reaping, close-on-exec. Every child is reaped by its pid or by its own process group; none is a
 * {@code ProcessBuilder} child, and nothing waits on pid -1 (which could take another test's children).
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 20, threadMode = ThreadMode.SEPARATE_THREAD)
class ProcessesTest {

    private Map<String, String> baseline;

    @BeforeEach
    void setUp() {
        baseline = Fds.baseline();
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        Fds.assertBackTo(baseline);
    }

    @Test
    void ids() throws Exception {
        assertEquals(ProcessHandle.current().pid(), Processes.getpid());
        assertEquals(ProcessHandle.current().parent().orElseThrow().pid(), Processes.getppid());
        int tid = Signals.gettid();
        int other = Children.onNewThread(Signals::gettid);
        assertTrue(tid != other && other != Processes.getpid(), tid + " " + other);
        assertTrue(java.nio.file.Files.isDirectory(Path.of("/proc/self/task/" + tid)));
    }

    @Test
    void exitStatusesOfRealChildren() throws Exception {
        Children.Output ok = Children.run(SpawnSpec.command("/bin/true"));
        assertTrue(ok.status().exited());
        assertEquals(0, ok.status().exitCode());
        assertFalse(ok.status().signaled());

        Children.Output three = Children.run(SpawnSpec.command("sh", "-c", "exit 3"));
        assertTrue(three.status().exited());
        assertEquals(3, three.status().exitCode());
        assertEquals("worker process " + three.pid() + " exited with code 3",
                     three.status().describe("worker process"));

        Children.Output killed = Children.run(SpawnSpec.command("/bin/sh", "-c", "kill -9 $$"));
        assertFalse(killed.status().exited());
        assertTrue(killed.status().signaled());
        assertEquals(Platform.SIGKILL, killed.status().termSig());
        assertFalse(killed.status().coreDumped());
        assertEquals("worker process " + killed.pid() + " exited on signal 9",
                     killed.status().describe("worker process"));
    }

    /** The Java decoding of wait statuses equals glibc's W* macros on the probe's samples. */
    @Test
    void waitStatusDecodingMatchesTheCMacros() {
        long samples = Platform.get("WAIT_SAMPLES");
        assertTrue(samples >= 8);
        for (int i = 0; i < samples; i++) {
            String p = "WAIT_SAMPLE_" + i;
            WaitStatus w = new WaitStatus(1, (int) Platform.get(p));
            String at = p + " = 0x" + Integer.toHexString(w.status());
            assertEquals(Platform.get(p + "_WIFEXITED") == 1, w.exited(), at);
            assertEquals(Platform.get(p + "_WEXITSTATUS"), w.exitCode(), at);
            assertEquals(Platform.get(p + "_WIFSIGNALED") == 1, w.signaled(), at);
            assertEquals(Platform.get(p + "_WTERMSIG"), w.termSig(), at);
            assertEquals(Platform.get(p + "_WCOREDUMP") == 1, w.coreDumped(), at);
            assertEquals(Platform.get(p + "_WIFSTOPPED") == 1, w.stopped(), at);
            assertEquals(Platform.get(p + "_WSTOPSIG"), w.stopSig(), at);
            assertEquals(Platform.get(p + "_WIFCONTINUED") == 1, w.continued(), at);
        }
        assertEquals("worker process 1 exited on signal 11 (core dumped)",
                     new WaitStatus(1, (int) Platform.get("WAIT_SAMPLE_4")).describe("worker process"));
    }

    @Test
    void dup2PlacesADescriptorAtFive() throws Exception {
        int[] pipe = Syscalls.pipe(Platform.O_CLOEXEC);
        try (NativeMemory mem = new NativeMemory()) {
            Children.Output out = Children.run(SpawnSpec.command("/bin/sh", "-c", "echo hi >&5; echo done")
                                                        .withDup2(pipe[1], 5));
            Syscalls.close(pipe[1]);
            pipe[1] = -1;
            assertEquals("done\n", out.out());
            assertEquals(0, out.status().exitCode());
            assertEquals("hi\n", Children.readAll(pipe[0], mem));
        } finally {
            Fds.closeQuietly(pipe);
        }
    }

    @ParameterizedTest(name = "addclosefrom_np: {0}")
    @ValueSource(booleans = {true, false})
    void closeFromLeavesStdioAndTheTargetsOnly(boolean addclosefrom) throws Exception {
        assumeTrue(!addclosefrom || Processes.hasAddclosefrom(), "glibc before 2.34");
        // a descriptor this process opened without close-on-exec: a child would inherit it
        int[] leak = Sockets.socketpair(Platform.AF_UNIX, Platform.SOCK_STREAM);
        int[] pipe = Syscalls.pipe(Platform.O_CLOEXEC);
        try {
            Map<Integer, String> without = Children.fdListing(
                Children.run(SpawnSpec.command("ls", "-l", "/proc/self/fd")).out());
            assertTrue(without.containsKey(leak[0]), "without closeFrom the child inherits " + leak[0] + ": "
                                                     + without);

            SpawnSpec spec = SpawnSpec.command("ls", "-l", "/proc/self/fd").withDup2(pipe[1], 5).withCloseFrom(3);
            Map<Integer, String> with = Children.fdListing(Children.run(spec, addclosefrom).out());
            assertEquals(Set.of(0, 1, 2, 5), with.keySet(), with.toString());
            assertEquals("/dev/null", with.get(0));
            assertTrue(with.get(5).startsWith("pipe:["), with.toString());
            assertEquals(with.get(1).equals(with.get(5)), false, "fd 5 is the other pipe");
        } finally {
            Fds.closeQuietly(leak);
            Fds.closeQuietly(pipe);
        }
    }

    /** A dup2 whose source is an earlier one's target still gets the parent's descriptor, not the new copy. */
    @Test
    void dup2sThatOverlapAreRoutedThroughFreeNumbers() throws Exception {
        int[] p = Sockets.socketpair(Platform.AF_UNIX, Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC);
        int[] q = Sockets.socketpair(Platform.AF_UNIX, Platform.SOCK_STREAM | Platform.SOCK_CLOEXEC);
        try {
            String pTarget = link(p[1]);
            String qTarget = link(q[1]);
            // p[1] goes to q[1]'s number, and q[1] (the parent's, not the child's new copy) goes to 7
            SpawnSpec spec = SpawnSpec.command("ls", "-l", "/proc/self/fd")
                                      .withDup2(p[1], q[1]).withDup2(q[1], 7).withCloseFrom(3);
            Map<Integer, String> fds = Children.fdListing(Children.run(spec).out());
            assertEquals(pTarget, fds.get(q[1]), fds.toString());
            assertEquals(qTarget, fds.get(7), fds.toString());
            assertEquals(Set.of(0, 1, 2, 7, q[1]), fds.keySet());

            // a descriptor placed at its own number loses close-on-exec in the child (glibc 2.29)
            fds = Children.fdListing(Children.run(SpawnSpec.command("ls", "-l", "/proc/self/fd")
                                                           .withDup2(p[0], p[0]).withCloseFrom(3)).out());
            assertEquals(Set.of(0, 1, 2, p[0]), fds.keySet());
        } finally {
            Fds.closeQuietly(p);
            Fds.closeQuietly(q);
        }
    }

    @Test
    void sigmaskAndSigdefaultReachTheChild() throws Exception {
        try (SigSet mask = Signals.serverSet()) {
            String status = Children.run(SpawnSpec.command("cat", "/proc/self/status").withSigmask(mask)
                                                  .withSigdefault(mask)).out();
            assertEquals(Children.bits(1, 2, 3, 10, 12, 14, 15, 17, 28, 29), Children.mask(status, "SigBlk"));
            assertEquals(0, Children.mask(status, "SigIgn") & Children.bits(1, 2, 3, 10, 12, 14, 15, 17, 28, 29));
        }
        // without a mask the child inherits the calling thread's: the test threads block none of them
        String status = Children.run(SpawnSpec.command("cat", "/proc/self/status")).out();
        assertEquals(0, Children.mask(status, "SigBlk") & Children.bits(Platform.SIGUSR1, Platform.SIGHUP));
        try (SigSet usr1 = SigSet.of(Platform.SIGUSR1, Platform.SIGWINCH)) {
            String line = Children.run(SpawnSpec.command("grep", "SigBlk", "/proc/self/status")
                                                .withSigmask(usr1)).out();
            assertEquals("SigBlk:\t0000000008000200\n", line);
            // dash, Debian's /bin/sh, empties its signal mask as it starts (sigclearmask() in its main): a program
            // started through it does not inherit the mask
            if (link("/bin/sh").endsWith("dash")) {
                line = Children.run(SpawnSpec.command("/bin/sh", "-c", "grep SigBlk /proc/self/status")
                                             .withSigmask(usr1)).out();
                assertEquals("SigBlk:\t0000000000000000\n", line);
            }
        }
    }

    @Test
    void sessionAndProcessGroup() throws Exception {
        // /proc/PID/stat: pid (comm) state ppid pgrp session ...
        Children.Output s = Children.run(SpawnSpec.command("/bin/sh", "-c", "cat /proc/$$/stat").withSetsid());
        String[] f = s.out().substring(s.out().lastIndexOf(')') + 2).split(" ");
        assertEquals(String.valueOf(Processes.getpid()), f[1], "ppid");
        assertEquals(String.valueOf(s.pid()), f[2], "pgrp");
        assertEquals(String.valueOf(s.pid()), f[3], "session");

        Children.Output g = Children.run(SpawnSpec.command("/bin/sh", "-c", "cat /proc/$$/stat").withPgroup(0));
        f = g.out().substring(g.out().lastIndexOf(')') + 2).split(" ");
        assertEquals(String.valueOf(g.pid()), f[2], "pgrp");
        assertFalse(f[3].equals(String.valueOf(g.pid())), "same session");
    }

    /** waitpid(WNOHANG) until 0 or ECHILD, over a process group of our own (pid -1 could reap others' children). */
    @Test
    void reapCollectsEveryFinishedChild() throws Exception {
        int[] hold = Syscalls.pipe(Platform.O_CLOEXEC);
        int devnull = Files.open("/dev/null", Platform.O_RDWR | Platform.O_CLOEXEC, 0);
        List<Integer> pids = new ArrayList<>();
        try {
            // the leader waits on a pipe so its group exists while the others join it
            int leader = Processes.spawn(SpawnSpec.command("/bin/sh", "-c", "read x; exit 3").withPgroup(0)
                                                  .withDup2(hold[0], 0).withDup2(devnull, 1).withDup2(devnull, 2));
            pids.add(leader);
            assertEquals(List.of(), Processes.reap(-leader), "nothing finished yet");
            assertNull(Processes.waitpid(leader, Platform.WNOHANG));
            pids.add(Processes.spawn(SpawnSpec.command("/bin/true").withPgroup(leader).withDup2(devnull, 0)));
            pids.add(Processes.spawn(SpawnSpec.command("/bin/sh", "-c", "kill -9 $$").withPgroup(leader)
                                              .withDup2(devnull, 0)));
            Syscalls.close(hold[1]);
            hold[1] = -1;

            List<WaitStatus> reaped = new ArrayList<>();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (reaped.size() < 3 && System.nanoTime() < deadline) {
                reaped.addAll(Processes.reap(-leader));
                Thread.sleep(5);
            }
            assertEquals(3, reaped.size(), reaped.toString());
            for (WaitStatus w : reaped) {
                pids.remove((Integer) w.pid());
                if (w.pid() == leader) {
                    assertEquals(3, w.exitCode());
                } else if (w.signaled()) {
                    assertEquals(Platform.SIGKILL, w.termSig());
                } else {
                    assertEquals(0, w.status());
                }
            }
            assertEquals(List.of(), pids);
            // none left: ECHILD ends the loop, it is not an error
            assertEquals(List.of(), Processes.reap(-leader));
            NativeIoException e = assertThrows(NativeIoException.class, () -> Processes.waitpid(leader, 0));
            assertEquals("waitpid() failed (10: No child processes)", e.getMessage());
        } finally {
            for (int pid : pids) {
                Children.killAndReap(pid);
            }
            Fds.closeQuietly(devnull, hold[0], hold[1]);
        }
    }

    @Test
    void spawnFailuresAreWordedAsNginx() throws Exception {
        NativeIoException e = assertThrows(NativeIoException.class,
            () -> Processes.spawn(SpawnSpec.command("no-such-program-jinx", "x")));
        assertEquals("posix_spawnp() \"no-such-program-jinx\" failed (2: No such file or directory)",
                     e.getMessage());
        e = assertThrows(NativeIoException.class, () -> Processes.spawn(SpawnSpec.command("/etc/passwd")));
        assertEquals("posix_spawnp() \"/etc/passwd\" failed (13: Permission denied)", e.getMessage());
        // a dup2 of a descriptor that is not open fails in the child, and comes back the same way
        e = assertThrows(NativeIoException.class,
            () -> Processes.spawn(SpawnSpec.command("/bin/true").withDup2(9999, 5)));
        assertEquals("posix_spawnp() \"/bin/true\" failed (9: Bad file descriptor)", e.getMessage());
        e = assertThrows(NativeIoException.class,
            () -> Processes.execve("/no/such/program", List.of("x"), null));
        assertEquals("execve() \"/no/such/program\" failed (2: No such file or directory)", e.getMessage());

        assertThrows(IllegalArgumentException.class, () -> SpawnSpec.command("/bin/true").withCloseFrom(2));
        assertThrows(IllegalArgumentException.class, () -> SpawnSpec.command("/bin/true").withDup2(-1, 3));
        assertThrows(IllegalArgumentException.class,
            () -> Processes.spawn(SpawnSpec.command("/bin/sh", "-c", "a\0b")));
    }

    @Test
    void environmentIsPassedByteForByte() throws Exception {
        Children.Output out = Children.run(SpawnSpec.command("/bin/sh", "-c", "echo \"$JINX|$A|$HOME\"")
                                                    .withEnv(List.of("JINX=5;6;", "A=b")));
        assertEquals("5;6;|b|\n", out.out());

        // one char per byte: 0xE9 stays one byte, not UTF-8's two
        out = Children.run(SpawnSpec.command("/bin/sh", "-c", "printf %s \"$X\" | od -An -tx1")
                                    .withEnv(List.of("X=\u00e9t\u00e9", "PATH=/usr/bin:/bin")));
        assertEquals("e9 74 e9", out.out().trim());

        // null: this process's own environ, as libc holds it
        List<String> env = Processes.environment();
        assertTrue(env.contains("PATH=" + System.getenv("PATH")), env.toString());
        out = Children.run(SpawnSpec.command("/bin/sh", "-c", "echo \"$PATH\""));
        assertEquals(System.getenv("PATH") + "\n", out.out());
    }

    @Test
    void commandLineIsThisJvms() throws Exception {
        List<String> args = Processes.commandLine();
        assertTrue(args.get(0).endsWith("java"), args.toString());
        assertEquals(ProcessHandle.current().info().arguments().map(List::of).orElseThrow(),
                     args.subList(1, args.size()));
    }

    @Test
    void closeRangeCloexecAndItsSweepFallback() throws Exception {
        int[] sv = Sockets.socketpair(Platform.AF_UNIX, Platform.SOCK_STREAM);
        try {
            assertFalse(Syscalls.isCloexec(sv[0]));
            assertFalse(Syscalls.isCloexec(sv[1]));
            Processes.closeRangeCloexec(sv[0], sv[0]);
            assertTrue(Syscalls.isCloexec(sv[0]));
            assertFalse(Syscalls.isCloexec(sv[1]));

            Processes.sweepCloexec(sv[1], sv[1]);
            assertTrue(Syscalls.isCloexec(sv[1]));

            Processes.clearCloexec(sv[0]);
            Processes.clearCloexec(sv[0]);
            assertFalse(Syscalls.isCloexec(sv[0]));
            assertTrue(Processes.hasCloseRange() || !Processes.hasAddclosefrom(), "both came with glibc 2.34");
        } finally {
            Fds.closeQuietly(sv);
        }
        assertThrows(IllegalArgumentException.class, () -> Processes.closeRangeCloexec(5, 4));
        assertThrows(IllegalArgumentException.class, () -> Processes.closeRangeCloexec(-1));
    }

    private static String link(int fd) throws java.io.IOException {
        return link("/proc/self/fd/" + fd);
    }

    private static String link(String path) throws java.io.IOException {
        return java.nio.file.Files.readSymbolicLink(Path.of(path)).toString();
    }
}
