package jinx.event.epoll;

import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.os.NativeMemory;

/**
 * The reads ahead of one loop's wait ({@link jinx.kernel.spi.EventActions#preread}): libjinxio's
 * {@code jinx_epoll_wait_preread} receives, in the call that waits, the next bytes of each connection armed here that
 * the wait returns readable, so that its read handler finds them in the read event instead of calling {@code recv}.
 * A keep-alive request then costs the loop two calls into native code (its read ahead shares the wait's) instead of
 * three; each call from Java costs about 0.14 us beyond its system call on JDK 17. nginx has nothing like it: a C
 * worker's {@code recv} costs no more than its system call.
 *
 * <p>The native block ({@code struct jinx_preread}): the table's address, the area's, the results', then the table's
 * length and the area's size. A table entry ({@code struct jinx_preread_entry}, one per connection slot): the
 * registration's {@code data.u64} that arms it (slot and instance bit: a slot lent again does not match), the
 * descriptor, the most to read (0: not armed). The read spends the entry: its data becomes all ones, which no
 * registration has (the notifier's is -1 too, but its slot is beyond any table). A result: the read's offset in the
 * area in the upper 32 bits and its count or {@code -errno} in the lower, or {@link #NOT_READ}.
 *
 * <p>The bytes stay in the area until the next wait that reads ahead: a wait reads ahead only when every read event
 * given bytes in the last one has taken them ({@link #idle()}), so nothing waiting to be taken is overwritten.
 * Not thread-safe: the loop's thread alone uses it.
 */
final class EpollPreread {

    /** A result for an event that was not read ahead. */
    static final long NOT_READ = Long.MIN_VALUE;
    /** The area: what one wait reads ahead at most; an entry that no longer fits is left to its handler's recv. */
    static final int AREA_SIZE = 64 * 1024;

    private static final int ENTRY_SIZE = 16;
    private static final int ENTRY_DATA = 0;
    private static final int ENTRY_FD = 8;
    private static final int ENTRY_SIZE_FIELD = 12;

    private final long block;
    private final long table;
    private final long area;
    private final long results;
    private final int slots;
    private final Event[] given;
    private int givenCount;

    /**
     * The block, table, area and result array, in {@code memory}.
     *
     * @param memory the loop's native memory, which frees them
     * @param slots the loop's connection slots
     * @param nevents the wait's event array length
     */
    EpollPreread(NativeMemory memory, int slots, int nevents) {
        this.slots = slots;
        this.block = memory.allocate(32);
        this.table = memory.allocate((long) slots * ENTRY_SIZE);
        this.area = memory.allocate(AREA_SIZE);
        this.results = memory.allocate((long) nevents * 8);
        this.given = new Event[nevents];
        NativeMemory.putLong(block, table);
        NativeMemory.putLong(block + 8, area);
        NativeMemory.putLong(block + 16, results);
        NativeMemory.putInt(block + 24, slots);
        NativeMemory.putInt(block + 28, AREA_SIZE);
    }

    /** Returns the address of the native block, for the wait. */
    long block() {
        return block;
    }

    /**
     * Arms a connection's entry: its next readable event in a wait that reads ahead reads at most {@code size}
     * bytes.
     *
     * @param c the connection
     * @param data its registration's {@code data.u64}
     * @param size the most to read, at least 1
     */
    void arm(Connection c, long data, int size) {
        int slot = c.slot();
        if (slot >= slots) {
            return;
        }
        long entry = table + (long) slot * ENTRY_SIZE;
        NativeMemory.putLong(entry + ENTRY_DATA, data);
        NativeMemory.putInt(entry + ENTRY_FD, c.fd());
        NativeMemory.putInt(entry + ENTRY_SIZE_FIELD, size);
    }

    /**
     * Disarms a connection's entry; what it was given and has not taken stays for its next receive.
     *
     * @param c the connection
     */
    void disarm(Connection c) {
        int slot = c.slot();
        if (slot < slots) {
            NativeMemory.putInt(table + (long) slot * ENTRY_SIZE + ENTRY_SIZE_FIELD, 0);
        }
    }

    /**
     * Disarms a connection's entry and drops what it was given and has not taken: the connection is being closed.
     *
     * @param c the connection
     */
    void cancel(Connection c) {
        disarm(c);
        c.read.preread = false;
    }

    /**
     * Tells whether the next wait may read ahead: every read event given bytes by the last one that did has taken
     * them (or was closed). Forgets those events when so.
     *
     * @return whether the area is free
     */
    boolean idle() {
        for (int i = 0; i < givenCount; i++) {
            if (given[i].preread) {
                return false;
            }
        }
        givenCount = 0;
        return true;
    }

    /**
     * Gives the read event of the wait's entry {@code i} what was read ahead for it, if anything.
     *
     * @param i the entry of the event array
     * @param rev the read event of the entry's connection, not stale
     */
    void give(int i, Event rev) {
        long r = NativeMemory.getLong(results + (long) i * 8);
        if (r == NOT_READ) {
            return;
        }
        long entry = table + (long) rev.connection().slot() * ENTRY_SIZE;
        rev.preread = true;
        rev.prereadAddress = area + (r >>> 32);
        rev.prereadCount = (int) r;
        rev.prereadSize = NativeMemory.getInt(entry + ENTRY_SIZE_FIELD);
        given[givenCount++] = rev;
    }
}
