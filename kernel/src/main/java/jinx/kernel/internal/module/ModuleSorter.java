package jinx.kernel.internal.module;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import jinx.kernel.ConfException;
import jinx.kernel.spi.JinxModule;

/**
 * Puts the modules of a cycle in their order. nginx takes the order of {@code auto/modules} for the built-in
 * modules and inserts a dynamic module where its {@code order} array says ({@code ngx_add_module()}); Jinx keeps
 * the built-in list and sorts every module topologically by {@link JinxModule#after()} and
 * {@link JinxModule#before()}.
 *
 * <p>The order never depends on the order the modules were found in (Kahn's algorithm): among the modules whose
 * predecessors are all placed, the next one is the module with the smallest rank, then the smallest name. A
 * built-in module's rank is its place in the built-in list; another module takes the rank of the first built-in
 * module it must stand before, or ranks after every built-in module. Built-in modules keep the relative order of
 * the list, so a constraint that contradicts it is reported as a cycle.
 *
 * <p>An edge {@code a -> b} reads "a stands before b", the direction the cycle error prints.
 */
public final class ModuleSorter {

    private ModuleSorter() {
    }

    /**
     * Returns the modules in their order.
     *
     * @param modules the modules, in any order; their names must be unique
     * @param builtinOrder the kernel's built-in order; names of modules that are not loaded are skipped
     * @return a new list with the same modules, sorted
     * @throws ConfException for a duplicate name ({@code module "x" is already loaded}), an {@code after()} or
     *     {@code before()} name no module has ({@code module "a" is ordered after "x", which is not loaded}) or a
     *     cycle ({@code modules "a" and "b" are ordered in a cycle: a -> b -> a})
     */
    public static List<JinxModule> sort(List<JinxModule> modules, List<String> builtinOrder) throws ConfException {
        checkUnique(modules);
        Map<String, JinxModule> byName = new TreeMap<>();
        for (JinxModule m : modules) {
            byName.put(m.name(), m);
        }
        checkDependencies(byName);
        Map<String, Set<String>> successors = edges(byName, builtinOrder);
        Map<String, Integer> rank = rank(builtinOrder, byName, successors);
        return kahn(byName, successors, rank);
    }

    /**
     * Refuses a second module with the name of one before it, as nginx's {@code ngx_add_module()} does.
     *
     * @param modules the modules, in the order they were loaded
     * @throws ConfException {@code module "x" is already loaded}, for the first name seen twice
     */
    public static void checkUnique(List<JinxModule> modules) throws ConfException {
        Set<String> seen = new HashSet<>();
        for (JinxModule m : modules) {
            if (!seen.add(m.name())) {
                throw new ConfException("module \"" + m.name() + "\" is already loaded");
            }
        }
    }

    private static void checkDependencies(Map<String, JinxModule> byName) throws ConfException {
        // byName is sorted, so with several missing names the one reported does not depend on the input order.
        for (JinxModule m : byName.values()) {
            for (String other : m.after()) {
                if (!byName.containsKey(other)) {
                    throw new ConfException("module \"" + m.name() + "\" is ordered after \"" + other
                                            + "\", which is not loaded");
                }
            }
            for (String other : m.before()) {
                if (!byName.containsKey(other)) {
                    throw new ConfException("module \"" + m.name() + "\" is ordered before \"" + other
                                            + "\", which is not loaded");
                }
            }
        }
    }

    /**
     * Ranks each module by the earliest built-in module it stands before, itself included, or after them all. A
     * module ordered before {@code events} thus shares the rank of {@code events} and is placed right ahead of it,
     * rather than ahead of every unconstrained module while {@code events} waits for it; and a module without
     * constraints is placed only once every built-in module is.
     */
    private static Map<String, Integer> rank(List<String> builtinOrder, Map<String, JinxModule> byName,
                                             Map<String, Set<String>> successors) {
        Map<String, Integer> own = new HashMap<>();
        for (String name : builtinOrder) {
            if (byName.containsKey(name)) {
                own.putIfAbsent(name, own.size());
            }
        }
        Map<String, Integer> rank = new HashMap<>();
        for (String name : byName.keySet()) {
            int min = Integer.MAX_VALUE;
            Set<String> seen = new HashSet<>();
            Deque<String> queue = new ArrayDeque<>();
            queue.add(name);
            seen.add(name);
            while (!queue.isEmpty()) {
                String n = queue.poll();
                min = Math.min(min, own.getOrDefault(n, Integer.MAX_VALUE));
                for (String next : successors.get(n)) {
                    if (seen.add(next)) {
                        queue.add(next);
                    }
                }
            }
            rank.put(name, min);
        }
        return rank;
    }

    private static Map<String, Set<String>> edges(Map<String, JinxModule> byName, List<String> builtinOrder) {
        Map<String, Set<String>> successors = new TreeMap<>();
        for (String name : byName.keySet()) {
            successors.put(name, new TreeSet<>());
        }
        for (JinxModule m : byName.values()) {
            for (String other : m.after()) {
                successors.get(other).add(m.name());
            }
            for (String other : m.before()) {
                successors.get(m.name()).add(other);
            }
        }
        // Chain the loaded built-in modules, so that no constraint can reorder them: auto/modules is the truth.
        String previous = null;
        Set<String> chained = new HashSet<>();
        for (String name : builtinOrder) {
            if (!byName.containsKey(name) || !chained.add(name)) {
                continue;
            }
            if (previous != null) {
                successors.get(previous).add(name);
            }
            previous = name;
        }
        return successors;
    }

    private static List<JinxModule> kahn(Map<String, JinxModule> byName, Map<String, Set<String>> successors,
                                         Map<String, Integer> rank) throws ConfException {
        Map<String, Integer> indegree = new HashMap<>();
        for (String name : byName.keySet()) {
            indegree.put(name, 0);
        }
        for (Set<String> next : successors.values()) {
            for (String name : next) {
                indegree.merge(name, 1, Integer::sum);
            }
        }
        Comparator<String> byRank = Comparator.<String>comparingInt(rank::get).thenComparing(Comparator.naturalOrder());
        PriorityQueue<String> ready = new PriorityQueue<>(byRank);
        for (Map.Entry<String, Integer> e : indegree.entrySet()) {
            if (e.getValue() == 0) {
                ready.add(e.getKey());
            }
        }
        List<JinxModule> sorted = new ArrayList<>(byName.size());
        while (!ready.isEmpty()) {
            String name = ready.poll();
            sorted.add(byName.get(name));
            for (String next : successors.get(name)) {
                if (indegree.merge(next, -1, Integer::sum) == 0) {
                    ready.add(next);
                }
            }
        }
        if (sorted.size() < byName.size()) {
            Set<String> left = new TreeSet<>(byName.keySet());
            for (JinxModule m : sorted) {
                left.remove(m.name());
            }
            throw cycle(left, successors);
        }
        return sorted;
    }

    /**
     * Describes one cycle among the modules Kahn's algorithm could not place: the one through the smallest name
     * that lies on a cycle, along the shortest path, successors tried by name. The modules left over also hold
     * those that merely stand after a cycle, hence the search for a name that reaches itself.
     */
    private static ConfException cycle(Set<String> left, Map<String, Set<String>> successors) {
        for (String start : left) {
            List<String> path = shortestCycle(start, left, successors);
            if (path != null) {
                return new ConfException("modules \"" + path.get(0) + "\" and \"" + path.get(1)
                                         + "\" are ordered in a cycle: " + String.join(" -> ", path));
            }
        }
        // Unreachable: Kahn's algorithm leaves modules over only when there is a cycle.
        throw new IllegalStateException("no cycle among " + left);
    }

    private static List<String> shortestCycle(String start, Set<String> left, Map<String, Set<String>> successors) {
        Map<String, String> parent = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>();
        queue.add(start);
        while (!queue.isEmpty()) {
            String name = queue.poll();
            for (String next : successors.get(name)) {
                if (!left.contains(next)) {
                    continue;
                }
                if (next.equals(start)) {
                    return path(start, name, parent);
                }
                if (!parent.containsKey(next)) {
                    parent.put(next, name);
                    queue.add(next);
                }
            }
        }
        return null;
    }

    private static List<String> path(String start, String last, Map<String, String> parent) {
        List<String> path = new ArrayList<>();
        path.add(start);
        for (String name = last; !name.equals(start); name = parent.get(name)) {
            path.add(1, name);
        }
        path.add(start);
        return path;
    }
}
