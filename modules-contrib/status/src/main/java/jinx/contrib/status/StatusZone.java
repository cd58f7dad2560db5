package jinx.contrib.status;

import jinx.kernel.SharedZone;

/**
 * The counters in shared memory, nginx's {@code ngx_stat_*} atomics (which nginx keeps in the shared memory
 * {@code ngx_event_module_init()} maps): accepted, handled and requests as totals every worker adds to, writing
 * as a gauge, and one slot per serving process for what only the process can see of its own connections (active
 * and waiting), which it publishes. A process that is gone is recognised by its pid and its slot taken back.
 *
 * <p>Layout at the root the slab allocated (found again through {@code slab().data()} by the workers and after a
 * reload that kept the zone): {@code accepted, handled, requests, writing} (8 bytes each) at 0..31, then
 * {@link #SLOT_COUNT} slots of {@code pid, active, waiting} from {@link #SLOTS}.
 */
final class StatusZone {

    /** The zone's name; one zone serves every {@code stub_status} location. */
    static final String NAME = "jinx_status";
    /** The zone's size: a few pages, the slab's own header included. */
    static final long SIZE = 8 * SharedZone.PAGE_SIZE;

    static final int ACCEPTED = 0;
    static final int HANDLED = 8;
    static final int REQUESTS = 16;
    static final int WRITING = 24;
    private static final int SLOTS = 64;
    private static final int SLOT_SIZE = 24;
    /** More serving processes than this share the last counts they could not publish: 64 workers at most. */
    static final int SLOT_COUNT = 64;
    private static final long ROOT_SIZE = SLOTS + (long) SLOT_COUNT * SLOT_SIZE;

    /** What the status page prints. */
    record Totals(long accepted, long handled, long requests, long active, long reading, long writing,
                  long waiting) {
    }

    private final SharedZone zone;
    private long root;
    private long slot;
    private long pid;

    StatusZone(SharedZone zone) {
        this.zone = zone;
    }

    /**
     * The master's part (initModule): the root is allocated in a new zone, or found in one kept by a reload. A
     * configuration test maps no memory, and then nothing is done.
     */
    void init() {
        if (!zone.isMapped()) {
            return;
        }
        long data = zone.slab().data();
        if (zone.reused() && data != 0) {
            root = data;
            return;
        }
        root = zone.slab().calloc(ROOT_SIZE);
        if (root == 0) {
            throw new IllegalStateException("no memory for the status counters in zone \"" + NAME + "\"");
        }
        zone.slab().data(root);
    }

    /** A serving process's part (initProcess): finds the root and claims a slot. */
    void attach(long processId) {
        pid = processId;
        root = zone.slab().data();
        for (int i = 0; i < SLOT_COUNT && slot == 0; i++) {
            long at = root + SLOTS + (long) i * SLOT_SIZE;
            long owner = zone.getLongVolatile(at);
            if ((owner == 0 || owner != pid && !alive(owner)) && zone.compareAndSetLong(at, owner, pid)) {
                zone.setLongRelease(at + 8, 0);
                zone.setLongRelease(at + 16, 0);
                slot = at;
            }
        }
    }

    boolean ready() {
        return root != 0;
    }

    void add(int field, long delta) {
        zone.getAndAddLong(root + field, delta);
    }

    /** Publishes this process's connection counts. */
    void publish(long active, long waiting) {
        if (slot != 0) {
            zone.setLongRelease(slot + 8, active);
            zone.setLongRelease(slot + 16, waiting);
        }
    }

    /** Gives the slot back (exitProcess). */
    void release() {
        if (slot != 0) {
            zone.compareAndSetLong(slot, pid, 0);
            slot = 0;
        }
    }

    /** Sums every live process's slot; a dead process's slot is freed on the way. */
    Totals totals() {
        long active = 0;
        long waiting = 0;
        for (int i = 0; i < SLOT_COUNT; i++) {
            long at = root + SLOTS + (long) i * SLOT_SIZE;
            long owner = zone.getLongVolatile(at);
            if (owner == 0) {
                continue;
            }
            if (owner != pid && !alive(owner)) {
                zone.compareAndSetLong(at, owner, 0);
                continue;
            }
            active += zone.getLongVolatile(at + 8);
            waiting += zone.getLongVolatile(at + 16);
        }
        long writing = Math.max(0, zone.getLongVolatile(root + WRITING));
        long reading = Math.max(0, active - writing - waiting);
        return new Totals(zone.getLongVolatile(root + ACCEPTED), zone.getLongVolatile(root + HANDLED),
            zone.getLongVolatile(root + REQUESTS), active, reading, writing, waiting);
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
