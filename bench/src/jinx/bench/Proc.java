package jinx.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What {@code /proc} tells about a server's processes: CPU ticks from {@code /proc/<pid>/stat} (utime and stime,
 * the 14th and 15th fields, counted after the command's closing parenthesis because a command may hold spaces),
 * {@code VmRSS} from {@code /proc/<pid>/status}, {@code Pss} from {@code /proc/<pid>/smaps_rollup}, and a
 * process's children found by their parent pid.
 */
final class Proc {

    private Proc() {
    }

    /** User and system ticks of one process, or zeros when it is gone. */
    static long[] ticks(int pid) {
        try {
            return ticks(Path.of("/proc", Integer.toString(pid), "stat"));
        } catch (IOException | RuntimeException e) {
            return new long[2];
        }
    }

    /** User and system ticks from a process's or a thread's {@code stat} file. */
    private static long[] ticks(Path statFile) throws IOException {
        String stat = Files.readString(statFile);
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // f[0] is field 3 (state): utime is field 14, stime field 15
        return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])};
    }

    /**
     * User and system ticks, summed, of the JIT compiler threads of the processes ({@code C1 CompilerThre},
     * {@code C2 CompilerThre} in {@code /proc/<pid>/task/<tid>/comm}); zero for a process without any.
     */
    static long compilerTicks(List<Integer> pids) {
        return sumOverThreads(pids, task -> {
            if (!Files.readString(task.resolve("comm")).contains("CompilerThre")) {
                return 0;
            }
            long[] t = ticks(task.resolve("stat"));
            return t[0] + t[1];
        });
    }

    /** A figure of one thread, from its {@code /proc/<pid>/task/<tid>} directory. */
    private interface ThreadFigure {
        long of(Path task) throws IOException;
    }

    /** Sums a figure over the threads of processes; a process or thread that is gone adds nothing. */
    private static long sumOverThreads(List<Integer> pids, ThreadFigure figure) {
        long sum = 0;
        for (int pid : pids) {
            Path dir = Path.of("/proc", Integer.toString(pid), "task");
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(dir)) {
                for (Path task : tasks) {
                    sum += figure.of(task);
                }
            } catch (IOException | RuntimeException e) {
                // the process or one of its threads is gone
            }
        }
        return sum;
    }

    /** The parent pid of a process, or -1. */
    static int parent(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Integer.toString(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(f[1]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The live children of a process. */
    static List<Integer> children(int pid) {
        List<Integer> out = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path p : dir) {
                int child = Integer.parseInt(p.getFileName().toString());
                if (parent(child) == pid && !zombie(child)) {
                    out.add(child);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc", e);
        }
        out.sort(null);
        return out;
    }

    private static boolean zombie(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Integer.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) == 'Z';
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /** Resident memory of a process in KiB ({@code VmRSS}), or 0 when it is gone. */
    static long rssKb(int pid) {
        return field(Path.of("/proc", Integer.toString(pid), "status"), "VmRSS:");
    }

    /**
     * Proportional resident memory of a process in KiB ({@code Pss} of {@code /proc/<pid>/smaps_rollup}: each
     * shared page divided by the number of processes mapping it), or 0 when it is gone or unreadable.
     */
    static long pssKb(int pid) {
        return field(Path.of("/proc", Integer.toString(pid), "smaps_rollup"), "Pss:");
    }

    /** The number after {@code name} in a {@code /proc} file of "name: value kB" lines, or 0. */
    private static long field(Path file, String name) {
        try {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith(name)) {
                    return Long.parseLong(line.substring(name.length()).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }

    /**
     * Time on a CPU of processes, summed over their threads, in nanoseconds: the first field of each
     * {@code /proc/<pid>/task/<tid>/schedstat}. Threads that exited are not counted (a JVM's live for its run).
     */
    static long cpuNanos(List<Integer> pids) {
        return sumOverThreads(pids, task -> {
            String s = Files.readString(task.resolve("schedstat"));
            return Long.parseLong(s.substring(0, s.indexOf(' ')));
        });
    }

    /** Open descriptors of a process (the entries of {@code /proc/<pid>/fd}), or -1 when it is gone. */
    static int fdCount(int pid) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Integer.toString(pid), "fd"))) {
            int n = 0;
            for (Path ignored : fds) {
                n++;
            }
            return n;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * The client ports of a process's TCP connections to {@code serverPort} on 127.0.0.1: its descriptors' socket
     * inodes ({@code socket:[N]} links in {@code /proc/<pid>/fd}) looked up in {@code /proc/net/tcp}, where such a
     * connection's local address is the server's and its remote one the client's.
     */
    static List<Integer> clientPorts(int pid, int serverPort) {
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Integer.toString(pid), "fd"))) {
            for (Path fd : fds) {
                try {
                    String link = Files.readSymbolicLink(fd).toString();
                    if (link.startsWith("socket:[")) {
                        inodes.add(link.substring(8, link.length() - 1));
                    }
                } catch (IOException e) {
                    // closed while listed
                }
            }
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        String local = String.format("0100007F:%04X", serverPort);
        List<Integer> ports = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/net/tcp"))) {
                String[] f = line.trim().split("\\s+");
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
                if (f.length > 9 && f[1].equals(local) && inodes.contains(f[9])) {
                    ports.add(Integer.parseInt(f[2].substring(f[2].indexOf(':') + 1), 16));
                }
            }
        } catch (IOException | RuntimeException e) {
            return ports;
        }
        return ports;
    }

    /** Sums user and system ticks over processes. */
    static long[] ticks(List<Integer> pids) {
        long[] sum = new long[2];
        for (int pid : pids) {
            long[] t = ticks(pid);
            sum[0] += t[0];
            sum[1] += t[1];
        }
        return sum;
    }
}
