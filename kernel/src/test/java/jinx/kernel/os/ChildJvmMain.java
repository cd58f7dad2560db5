package jinx.kernel.os;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The program {@link ChildJvmTest} runs in a child JVM: what a Jinx process does with signals, exec and
 * credentials, printing what it sees, one line each, to stdout.
 */
public final class ChildJvmMain {

    private ChildJvmMain() {
    }

    /**
     * Runs one scenario.
     *
     * @param args {@code signals}, {@code execve SHELL SCRIPT} or {@code credentials}
     * @throws Exception to fail the child
     */
    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "signals" -> signals();
            case "execve" -> execve(args[1], args[2]);
            case "credentials" -> credentials();
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    /** The master's loop, reduced: every server signal from a blocking signalfd; HUP spawns, CHLD reaps. */
    private static void signals() throws Exception {
        try (SigSet server = Signals.serverSet(); SigSet mask = Signals.threadMask();
             NativeMemory mem = new NativeMemory()) {
            out("main thread blocks the server set: " + mask.signals().containsAll(server.signals()));
            long bits = 0;
            for (int s : server.signals()) {
                bits |= 1L << (s - 1);
            }
            int threads = 0;
            int blocking = 0;
            for (String status : taskStatuses()) {
                threads++;
                if ((Children.mask(status, "SigBlk") & bits) == bits) {
                    blocking++;
                }
            }
            out(blocking == threads && threads > 5 ? "every thread blocks the server set" : threads + " threads, "
                + blocking + " blocking");
            int fd = Signals.signalfd(-1, server, Platform.SFD_CLOEXEC);
            SignalInfo info = new SignalInfo(mem, 8);
            out("ready " + Processes.getpid());
            for (;;) {
                int n = Signals.read(fd, info);
                for (int i = 0; i < n; i++) {
                    int signo = info.signo(i);
                    out("signal " + signo + " (" + Signals.name(signo) + ") received from " + info.pid(i) + " code "
                        + info.code(i) + " status " + info.status(i));
                    if (signo == Platform.SIGHUP) {
                        out("start process " + Processes.spawn(SpawnSpec.command("/bin/sh", "-c", "exit 7")));
                    } else if (signo == Platform.SIGCHLD) {
                        for (WaitStatus w : Processes.reap()) {
                            out(w.describe("process"));
                        }
                    } else if (signo == Platform.SIGTERM) {
                        out("exit");
                        System.exit(0);
                    }
                }
            }
        }
    }

    /** The launcher's re-exec: close-on-exec from 3 but fd 5, then execve a shell in place of this JVM. */
    private static void execve(String shell, String script) throws Exception {
        out("pid " + Processes.getpid());
        Processes.closeRangeCloexec(3);
        Processes.clearCloexec(5);
        Processes.execve(shell, List.of("sh", "-c", script), null);
    }

    /** A worker dropping privileges as root: setsid, chdir, setgid, initgroups, setuid, then trying back. */
    private static void credentials() throws Exception {
        out("setsid " + (ProcessSetup.setsid() == Processes.getpid()));
        out(attempt(ProcessSetup::setsid));
        ProcessSetup.chdir("/tmp");
        out("cwd " + java.nio.file.Files.readSymbolicLink(Path.of("/proc/self/cwd")));
        ProcessSetup.setgid(65534);
        ProcessSetup.initgroups("nobody", 65534);
        ProcessSetup.setuid(65534);
        TreeSet<String> ids = new TreeSet<>();
        int threads = 0;
        for (String status : taskStatuses()) {
            threads++;
            ids.add(field(status, "Uid") + " / " + field(status, "Gid") + " / " + field(status, "Groups"));
        }
        out((threads > 5 ? "every thread: " : threads + " threads: ") + ids);
        out(attempt(() -> ProcessSetup.setuid(0)));
        out(attempt(() -> ProcessSetup.initgroups("root", 0)));
        out(attempt(() -> ProcessSetup.setpriority(-5)));
        System.exit(0);
    }

    private interface Call {
        void run() throws NativeIoException;
    }

    private static String attempt(Call call) {
        try {
            call.run();
            return "no error";
        } catch (NativeIoException e) {
            return e.getMessage();
        }
    }

    private static List<String> taskStatuses() throws IOException {
        try (Stream<Path> tasks = java.nio.file.Files.list(Path.of("/proc/self/task"))) {
            return tasks.map(t -> {
                try {
                    return java.nio.file.Files.readString(t.resolve("status"));
                } catch (IOException e) {
                    return null; // a thread that ended meanwhile
                }
            }).filter(s -> s != null).toList();
        }
    }

    private static String field(String status, String name) {
        for (String line : status.split("\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim().replaceAll("\\s+", " ");
            }
        }
        return "?";
    }

    private static void out(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
