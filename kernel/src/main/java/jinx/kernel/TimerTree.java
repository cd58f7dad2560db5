package jinx.kernel;

import java.util.function.Consumer;

/**
 * The timer tree: an intrusive red-black tree over {@link Event}s, nginx's {@code src/core/ngx_rbtree.c} with
 * {@code ngx_rbtree_insert_timer_value()} as its insert function. The node is embedded in the event itself
 * ({@code timerLeft}, {@code timerRight}, {@code timerParent}, {@code timerRed}, keyed by {@code timerKey}), so
 * inserting and deleting allocate nothing. Where nginx points empty links at a sentinel node, this tree leaves
 * them null: a static sentinel would be shared by the trees of several loops, and a null costs no object.
 *
 * <p>Keys are wrapping 32-bit milliseconds, compared as nginx compares them: by the sign of their difference in
 * {@code int} arithmetic, {@code (a - b) < 0}, so the order survives the wrap at 2^32 as long as the keys in the
 * tree lie within 2^31 ms (24.8 days) of each other ({@code ngx_rbtree.c} lines 129–139). Equal keys are allowed
 * and go to the right, as in nginx, so timers with the same key come out in the order they went in.
 *
 * <p>The algorithm is the one nginx takes from Cormen, Leiserson and Rivest's "Introduction to Algorithms",
 * with nginx's delete, which moves the successor node into the deleted node's place instead of copying keys, as
 * an intrusive tree must. The tree is its loop thread's alone.
 */
final class TimerTree {

    private Event root;
    private int size;

    /**
     * Inserts {@code ev} keyed by {@code ev.timerKey}: nginx's {@code ngx_rbtree_insert()}. The event must not
     * be in a tree already.
     *
     * @param ev the event
     */
    void insert(Event ev) {
        ev.timerLeft = null;
        ev.timerRight = null;
        size++;
        if (root == null) {
            ev.timerParent = null;
            ev.timerRed = false;
            root = ev;
            return;
        }
        insertTimerValue(ev);
        insertFixup(ev);
    }

    /* nginx's ngx_rbtree_insert_timer_value(): a plain binary-tree insert, equal keys to the right. */
    private void insertTimerValue(Event ev) {
        Event temp = root;
        for (;;) {
            if (ev.timerKey - temp.timerKey < 0) {
                if (temp.timerLeft == null) {
                    temp.timerLeft = ev;
                    break;
                }
                temp = temp.timerLeft;
            } else {
                if (temp.timerRight == null) {
                    temp.timerRight = ev;
                    break;
                }
                temp = temp.timerRight;
            }
        }
        ev.timerParent = temp;
        ev.timerRed = true;
    }

    /* The re-balancing of ngx_rbtree_insert(): recolour while the uncle is red, rotate once or twice if not. */
    private void insertFixup(Event node) {
        while (node != root && node.timerParent.timerRed) {
            Event parent = node.timerParent;
            Event grand = parent.timerParent;
            if (parent == grand.timerLeft) {
                Event uncle = grand.timerRight;
                if (isRed(uncle)) {
                    parent.timerRed = false;
                    uncle.timerRed = false;
                    grand.timerRed = true;
                    node = grand;
                    continue;
                }
                if (node == parent.timerRight) {
                    node = parent;
                    rotateLeft(node);
                }
                node.timerParent.timerRed = false;
                grand.timerRed = true;
                rotateRight(grand);
            } else {
                Event uncle = grand.timerLeft;
                if (isRed(uncle)) {
                    parent.timerRed = false;
                    uncle.timerRed = false;
                    grand.timerRed = true;
                    node = grand;
                    continue;
                }
                if (node == parent.timerLeft) {
                    node = parent;
                    rotateRight(node);
                }
                node.timerParent.timerRed = false;
                grand.timerRed = true;
                rotateLeft(grand);
            }
        }
        root.timerRed = false;
    }

    /**
     * Removes {@code ev}, which must be in this tree: nginx's {@code ngx_rbtree_delete()}. Its links are left
     * null.
     *
     * @param ev the event
     */
    void delete(Event ev) {
        size--;
        Event subst;
        Event temp;
        if (ev.timerLeft == null) {
            temp = ev.timerRight;
            subst = ev;
        } else if (ev.timerRight == null) {
            temp = ev.timerLeft;
            subst = ev;
        } else {
            subst = min(ev.timerRight);
            temp = subst.timerRight;
        }

        if (subst == root) {
            // subst is ev, with one child at most: the child becomes the root
            root = temp;
            if (temp != null) {
                temp.timerParent = null;
                temp.timerRed = false;
            }
            unlink(ev);
            return;
        }

        boolean red = subst.timerRed;
        Event substParent = subst.timerParent;
        if (subst == substParent.timerLeft) {
            substParent.timerLeft = temp;
        } else {
            substParent.timerRight = temp;
        }

        // nginx writes temp->parent even when temp is the sentinel; with null links the parent is kept aside
        Event tempParent;
        if (subst == ev) {
            tempParent = substParent;
        } else {
            tempParent = substParent == ev ? subst : substParent;
            replace(ev, subst);
        }
        if (temp != null) {
            temp.timerParent = tempParent;
        }
        unlink(ev);

        if (!red) {
            deleteFixup(temp, tempParent);
        }
    }

    /* Puts subst, already cut out of the tree, in node's place, with node's links and colour. */
    private void replace(Event node, Event subst) {
        subst.timerLeft = node.timerLeft;
        subst.timerRight = node.timerRight;
        subst.timerParent = node.timerParent;
        subst.timerRed = node.timerRed;

        if (node == root) {
            root = subst;
        } else if (node == node.timerParent.timerLeft) {
            node.timerParent.timerLeft = subst;
        } else {
            node.timerParent.timerRight = subst;
        }
        if (subst.timerLeft != null) {
            subst.timerLeft.timerParent = subst;
        }
        if (subst.timerRight != null) {
            subst.timerRight.timerParent = subst;
        }
    }

    /*
     * The re-balancing of ngx_rbtree_delete(): temp (maybe null, then a black leaf) carries an extra black that
     * is pushed up or resolved by rotations. Its sibling cannot be null: the removed black node gave that side a
     * black height of one at least.
     */
    private void deleteFixup(Event temp, Event parent) {
        while (temp != root && !isRed(temp)) {
            if (temp == parent.timerLeft) {
                Event w = parent.timerRight;
                if (w.timerRed) {
                    w.timerRed = false;
                    parent.timerRed = true;
                    rotateLeft(parent);
                    w = parent.timerRight;
                }
                if (!isRed(w.timerLeft) && !isRed(w.timerRight)) {
                    w.timerRed = true;
                    temp = parent;
                    parent = temp.timerParent;
                    continue;
                }
                if (!isRed(w.timerRight)) {
                    w.timerLeft.timerRed = false;
                    w.timerRed = true;
                    rotateRight(w);
                    w = parent.timerRight;
                }
                w.timerRed = parent.timerRed;
                parent.timerRed = false;
                w.timerRight.timerRed = false;
                rotateLeft(parent);
            } else {
                Event w = parent.timerLeft;
                if (w.timerRed) {
                    w.timerRed = false;
                    parent.timerRed = true;
                    rotateRight(parent);
                    w = parent.timerLeft;
                }
                if (!isRed(w.timerLeft) && !isRed(w.timerRight)) {
                    w.timerRed = true;
                    temp = parent;
                    parent = temp.timerParent;
                    continue;
                }
                if (!isRed(w.timerLeft)) {
                    w.timerRight.timerRed = false;
                    w.timerRed = true;
                    rotateLeft(w);
                    w = parent.timerLeft;
                }
                w.timerRed = parent.timerRed;
                parent.timerRed = false;
                w.timerLeft.timerRed = false;
                rotateRight(parent);
            }
            temp = root;
        }
        if (temp != null) {
            temp.timerRed = false;
        }
    }

    /**
     * Returns the event with the earliest key: nginx's {@code ngx_rbtree_min()} from the root.
     *
     * @return the event, or null when the tree is empty
     */
    Event min() {
        return root == null ? null : min(root);
    }

    /**
     * Returns the event after {@code ev} in key order: nginx's {@code ngx_rbtree_next()}.
     *
     * @param ev an event in this tree
     * @return the next event, or null after the last
     */
    Event next(Event ev) {
        if (ev.timerRight != null) {
            return min(ev.timerRight);
        }
        Event node = ev;
        for (;;) {
            Event parent = node.timerParent;
            if (parent == null) {
                return null;
            }
            if (node == parent.timerLeft) {
                return parent;
            }
            node = parent;
        }
    }

    /**
     * Calls {@code action} with every event, in key order. The action must not change the tree.
     *
     * @param action what to do with each event
     */
    void forEach(Consumer<Event> action) {
        for (Event ev = min(); ev != null; ev = next(ev)) {
            action.accept(ev);
        }
    }

    /**
     * Tells whether the tree is empty.
     *
     * @return true when no event is in it
     */
    boolean isEmpty() {
        return root == null;
    }

    /**
     * Returns the number of events in the tree.
     *
     * @return the count
     */
    int size() {
        return size;
    }

    /** The root, for tests that check the tree's invariants. */
    Event root() {
        return root;
    }

    private static Event min(Event node) {
        while (node.timerLeft != null) {
            node = node.timerLeft;
        }
        return node;
    }

    private static boolean isRed(Event node) {
        return node != null && node.timerRed;
    }

    private static void unlink(Event ev) {
        ev.timerLeft = null;
        ev.timerRight = null;
        ev.timerParent = null;
        ev.timerRed = false;
    }

    /* nginx's ngx_rbtree_left_rotate(). */
    private void rotateLeft(Event node) {
        Event temp = node.timerRight;
        node.timerRight = temp.timerLeft;
        if (temp.timerLeft != null) {
            temp.timerLeft.timerParent = node;
        }
        temp.timerParent = node.timerParent;
        if (node == root) {
            root = temp;
        } else if (node == node.timerParent.timerLeft) {
            node.timerParent.timerLeft = temp;
        } else {
            node.timerParent.timerRight = temp;
        }
        temp.timerLeft = node;
        node.timerParent = temp;
    }

    /* nginx's ngx_rbtree_right_rotate(). */
    private void rotateRight(Event node) {
        Event temp = node.timerLeft;
        node.timerLeft = temp.timerRight;
        if (temp.timerRight != null) {
            temp.timerRight.timerParent = node;
        }
        temp.timerParent = node.timerParent;
        if (node == root) {
            root = temp;
        } else if (node == node.timerParent.timerRight) {
            node.timerParent.timerRight = temp;
        } else {
            node.timerParent.timerLeft = temp;
        }
        temp.timerRight = node;
        node.timerParent = temp;
    }
}
