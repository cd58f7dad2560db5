package jinx.kernel.internal.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import jinx.kernel.ErrorLog;
import jinx.kernel.os.Signals;

/**
 * A JVM of its own for {@link WorkerInitTest}: its main thread unboosts the others to its own nice value plus five,
 * then prints {@code <main's nice> <the nice of every other thread it had...>}. Raising a nice value needs no privilege.
 */
final class UnboostProbe {

    private UnboostProbe() {
    }

    public static void main(String[] args) throws Exception {
        int self = Signals.gettid();
        int base = nice(self);
        List<Integer> before = tids();
        WorkerInit.unboostOtherThreads(Math.min(19, base + 5), ErrorLog.open(List.of(), System.err));
        StringBuilder out = new StringBuilder().append(nice(self));
        // threads started since by this one inherit its nice value, as documented
        for (int tid : before) {
            if (tid != self && Files.exists(Path.of("/proc/self/task/" + tid))) {
                out.append(' ').append(nice(tid));
            }
        }
        System.out.println(out);
    }

    private static List<Integer> tids() throws Exception {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            return tasks.map(t -> Integer.parseInt(t.getFileName().toString())).toList();
        }
    }

    static int nice(int tid) throws Exception {
        String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
        return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19 - 3]);
    }
}
