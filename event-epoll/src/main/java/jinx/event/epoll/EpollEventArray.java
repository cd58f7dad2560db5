package jinx.event.epoll;

import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;

/**
 * An array of {@code struct epoll_event} in native memory, nginx's {@code event_list}:
 *
 * <pre>
 * typedef union epoll_data {
 *     void     *ptr;
 *     int       fd;
 *     uint32_t  u32;
 *     uint64_t  u64;
 * } epoll_data_t;
 *
 * struct epoll_event {
 *     uint32_t     events;    // Epoll events
 *     epoll_data_t data;      // User data variable
 * } __EPOLL_PACKED;
 * </pre>
 *
 * The layout is the platform's, read by the kernel's probe ({@link Platform#SIZEOF_EPOLL_EVENT},
 * {@link Platform#OFFSETOF_EPOLL_EVENT_EVENTS}, {@link Platform#OFFSETOF_EPOLL_EVENT_DATA}): glibc packs the
 * struct on x86_64 (12 bytes, data at 4, so {@code data} is unaligned), and not on aarch64 (16 bytes, data at
 * 8). The memory is one slab of the owner's {@link NativeMemory}, freed with it; reading and writing an entry
 * allocates nothing. Not thread-safe: the loop's thread alone uses it.
 */
final class EpollEventArray {

    /** {@code sizeof(struct epoll_event)}. */
    static final int SIZE = Platform.SIZEOF_EPOLL_EVENT;
    /** {@code offsetof(struct epoll_event, events)}. */
    static final int EVENTS = Platform.OFFSETOF_EPOLL_EVENT_EVENTS;
    /** {@code offsetof(struct epoll_event, data)}. */
    static final int DATA = Platform.OFFSETOF_EPOLL_EVENT_DATA;

    private final long address;
    private final int length;

    /**
     * Allocates {@code length} zeroed entries from {@code memory}.
     *
     * @param memory the owner, which frees the array when it is closed
     * @param length the number of entries, at least 1
     */
    EpollEventArray(NativeMemory memory, int length) {
        if (length < 1) {
            throw new IllegalArgumentException("epoll event array of " + length);
        }
        this.address = memory.allocate((long) length * SIZE);
        this.length = length;
    }

    /**
     * Returns the address of entry 0, for {@code epoll_wait} and {@code epoll_ctl}.
     *
     * @return the address
     */
    long address() {
        return address;
    }

    /**
     * Returns the number of entries ({@code maxevents}).
     *
     * @return the length
     */
    int length() {
        return length;
    }

    /**
     * Returns entry {@code i}'s event mask.
     *
     * @param i the entry
     * @return {@code events}
     */
    int events(int i) {
        return NativeMemory.getInt(address + (long) i * SIZE + EVENTS);
    }

    /**
     * Returns entry {@code i}'s user data as {@code u64}.
     *
     * @param i the entry
     * @return {@code data.u64}
     */
    long data(int i) {
        return NativeMemory.getLong(address + (long) i * SIZE + DATA);
    }

    /**
     * Sets entry {@code i}.
     *
     * @param i the entry
     * @param events the event mask
     * @param data {@code data.u64}
     */
    void set(int i, int events, long data) {
        long entry = address + (long) i * SIZE;
        NativeMemory.putInt(entry + EVENTS, events);
        NativeMemory.putLong(entry + DATA, data);
    }
}
