package jinx.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The intrusive red-black timer tree, nginx's {@code ngx_rbtree.c} with {@code ngx_rbtree_insert_timer_value()}.
 */
class TimerTreeTest {

    private static Event event(int key) {
        Event ev = new Event();
        ev.timerKey = key;
        return ev;
    }

    private static List<Event> inOrder(TimerTree tree) {
        List<Event> out = new ArrayList<>();
        tree.forEach(out::add);
        return out;
    }

    /* Removes the minimum until the tree is empty, checking the invariants each time. */
    private static List<Integer> drain(TimerTree tree) {
        List<Integer> keys = new ArrayList<>();
        for (Event ev = tree.min(); ev != null; ev = tree.min()) {
            tree.delete(ev);
            keys.add(ev.timerKey);
            assertNull(ev.timerParent);
            assertNull(ev.timerLeft);
            assertNull(ev.timerRight);
            checkInvariants(tree);
        }
        return keys;
    }

    /**
     * Checks a red-black tree's invariants: the root is black and has no parent, every child points back at its
     * parent, no red node has a red child, every path has the same number of black nodes, the keys are in order
     * (by signed difference) and the count matches {@code size()}.
     */
    static void checkInvariants(TimerTree tree) {
        Event root = tree.root();
        if (root == null) {
            assertTrue(tree.isEmpty());
            assertEquals(0, tree.size());
            assertNull(tree.min());
            return;
        }
        assertFalse(tree.isEmpty());
        assertNull(root.timerParent, "root has a parent");
        assertFalse(root.timerRed, "root is red");
        int[] count = new int[1];
        blackHeight(root, count);
        assertEquals(tree.size(), count[0], "size");
        Event prev = null;
        int seen = 0;
        for (Event ev = tree.min(); ev != null; ev = tree.next(ev)) {
            if (prev != null && ev.timerKey - prev.timerKey < 0) {
                fail("keys out of order: " + prev.timerKey + " before " + ev.timerKey);
            }
            prev = ev;
            seen++;
        }
        assertEquals(tree.size(), seen, "in-order walk");
    }

    private static int blackHeight(Event node, int[] count) {
        if (node == null) {
            return 1;
        }
        count[0]++;
        for (Event child : new Event[] {node.timerLeft, node.timerRight}) {
            if (child == null) {
                continue;
            }
            assertSame(node, child.timerParent, "parent link");
            if (node.timerRed && child.timerRed) {
                fail("red node " + node.timerKey + " has red child " + child.timerKey);
            }
        }
        int left = blackHeight(node.timerLeft, count);
        int right = blackHeight(node.timerRight, count);
        assertEquals(left, right, "black height under " + node.timerKey);
        return left + (node.timerRed ? 0 : 1);
    }

    @Test
    @Timeout(5)
    void emptyTreeHasNoMin() {
        TimerTree tree = new TimerTree();
        assertTrue(tree.isEmpty());
        assertEquals(0, tree.size());
        assertNull(tree.min());
        checkInvariants(tree);
    }

    @Test
    @Timeout(5)
    void keepsEventsInKeyOrder() {
        TimerTree tree = new TimerTree();
        int[] keys = {50, 10, 70, 30, 90, 20, 60, 40, 80, 0, 100};
        for (int k : keys) {
            tree.insert(event(k));
            checkInvariants(tree);
        }
        assertEquals(keys.length, tree.size());
        assertEquals(0, tree.min().timerKey);
        assertEquals(List.of(0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100), drain(tree));
        assertTrue(tree.isEmpty());
    }

    @Test
    @Timeout(5)
    void equalKeysComeOutInInsertionOrder() {
        TimerTree tree = new TimerTree();
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Event ev = event(i % 3 == 0 ? 500 : 1000);
            events.add(ev);
            tree.insert(ev);
        }
        checkInvariants(tree);
        List<Event> expected = new ArrayList<>();
        events.stream().filter(e -> e.timerKey == 500).forEach(expected::add);
        events.stream().filter(e -> e.timerKey == 1000).forEach(expected::add);
        assertEquals(expected, inOrder(tree));
        for (Event ev : expected) {
            assertSame(ev, tree.min());
            tree.delete(ev);
        }
        assertTrue(tree.isEmpty());
    }

    @Test
    @Timeout(5)
    void deletesFromTheMiddle() {
        TimerTree tree = new TimerTree();
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            Event ev = event(i);
            events.add(ev);
            tree.insert(ev);
        }
        // the root and inner nodes with two children, then the rest
        for (int i = 1; i < 64; i += 2) {
            tree.delete(events.get(i));
            checkInvariants(tree);
        }
        List<Integer> evens = new ArrayList<>();
        for (int i = 0; i < 64; i += 2) {
            evens.add(i);
        }
        assertEquals(evens, drain(tree));
    }

    @Test
    @Timeout(10)
    void randomInsertsAndDeletesMatchAReference() {
        long seed = 0x5EEDL;
        Random random = new Random(seed);
        TimerTree tree = new TimerTree();
        // keys straddle Integer.MAX_VALUE, where a plain comparison of ints would break
        int base = Integer.MAX_VALUE - 50_000;
        List<Event> reference = new ArrayList<>();
        for (int op = 0; op < 10_000; op++) {
            if (reference.isEmpty() || random.nextInt(100) < 55) {
                Event ev = event(base + random.nextInt(100_000));
                tree.insert(ev);
                insertSorted(reference, ev);
            } else {
                Event ev = reference.remove(random.nextInt(reference.size()));
                tree.delete(ev);
                assertNull(ev.timerParent);
            }
            assertEquals(reference.size(), tree.size(), "seed " + seed + ", op " + op);
            assertSame(reference.isEmpty() ? null : reference.get(0), tree.min(), "seed " + seed + ", op " + op);
            checkInvariants(tree);
            if (op % 100 == 99) {
                assertEquals(reference, inOrder(tree), "seed " + seed + ", op " + op);
            }
        }
        checkInvariants(tree);
        List<Integer> expected = new ArrayList<>();
        reference.forEach(ev -> expected.add(ev.timerKey));
        assertEquals(expected, drain(tree));
    }

    /* After the last event whose key is not after ev's: equal keys in insertion order. */
    private static void insertSorted(List<Event> list, Event ev) {
        int i = list.size();
        while (i > 0 && ev.timerKey - list.get(i - 1).timerKey < 0) {
            i--;
        }
        list.add(i, ev);
    }

    @Test
    @Timeout(5)
    void deletingTheMinRepeatedlyYieldsSortedOrder() {
        Random random = new Random(42);
        TimerTree tree = new TimerTree();
        List<Integer> keys = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            int k = random.nextInt(1_000_000);
            keys.add(k);
            tree.insert(event(k));
        }
        checkInvariants(tree);
        keys.sort(null);
        assertEquals(keys, drain(tree));
    }

    @Test
    @Timeout(5)
    void ordersKeysAcrossTheWrap() {
        TimerTree tree = new TimerTree();
        // as unsigned 32-bit ms: 2^31 - 10, 2^31 + 5 (past MAX_VALUE), 2^32 - 1, and 3 and 100 past the 2^32 wrap
        int beforeSignWrap = Integer.MAX_VALUE - 10;
        int afterSignWrap = Integer.MIN_VALUE + 5;
        tree.insert(event(afterSignWrap));
        tree.insert(event(beforeSignWrap));
        tree.insert(event(Integer.MAX_VALUE));
        tree.insert(event(Integer.MIN_VALUE));
        checkInvariants(tree);
        assertEquals(List.of(beforeSignWrap, Integer.MAX_VALUE, Integer.MIN_VALUE, afterSignWrap), drain(tree));

        tree.insert(event(100));
        tree.insert(event(-1));
        tree.insert(event(3));
        tree.insert(event(-200));
        checkInvariants(tree);
        assertEquals(List.of(-200, -1, 3, 100), drain(tree));
    }
}
