package jinx.kernel.internal.shm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import jinx.kernel.ConfException;
import jinx.kernel.ErrorLog;
import jinx.kernel.SharedZone;

/**
 * One cycle's shared zones, nginx's {@code cycle->shared_memory} list with the code of {@code ngx_cycle.c} that
 * works on it: {@link #add} is {@code ngx_shared_memory_add()}, {@link #create} the "create shared memory" loop of
 * {@code ngx_init_cycle()} (a zone of the old cycle with the same name, tag and size is taken over, anything else
 * is made anew), {@link #release} the freeing of a cycle's zones — of the old cycle once the new one is in
 * force, or of a new cycle that failed; memory both hold survives, as it is counted.
 *
 * <p>Not thread-safe: the master builds cycles on one thread.
 */
public final class ZoneTable {

    private final List<Zone> zones = new ArrayList<>();
    private boolean released;

    /**
     * Declares a zone, or returns the one already declared under that name (nginx's
     * {@code ngx_shared_memory_add()}). A size of 0 refers to a zone another directive sizes.
     *
     * @param name the name
     * @param size bytes, 0 for "as declared elsewhere"
     * @param tag the owning module's name
     * @return the zone
     * @throws ConfException with nginx's texts when the name is taken by another module or another size
     */
    public SharedZone add(String name, long size, String tag) throws ConfException {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tag, "tag");
        if (size < 0 || size > Zone.MAX_SIZE) {
            throw new ConfException("the size " + size + " of shared memory zone \"" + name + "\" is invalid");
        }
        for (Zone z : zones) {
            if (!z.name().equals(name)) {
                continue;
            }
            if (!z.tag().equals(tag)) {
                throw new ConfException("the shared memory zone \"" + name + "\" is already declared for a "
                                        + "different use");
            }
            if (z.declared() == 0) {
                z.declared(size);
            }
            if (size != 0 && size != z.declared()) {
                throw new ConfException("the size " + size + " of shared memory zone \"" + name
                                        + "\" conflicts with already declared size " + z.declared());
            }
            return z;
        }
        Zone z = new Zone(name, size, tag);
        zones.add(z);
        return z;
    }

    /**
     * Gives every declared zone its memory, in the master: the old cycle's zone of the same name, tag and size,
     * contents kept, or a new, empty one. On failure the zones bound so far stay bound; {@link #release()} frees
     * them.
     *
     * @param old the old cycle's zones, or null at start
     * @param log the new cycle's log, for the allocators
     * @throws ConfException {@code zero size shared memory zone "x"}, or when memory cannot be made
     */
    public void create(ZoneTable old, ErrorLog log) throws ConfException {
        for (Zone z : zones) {
            if (z.isMapped()) {
                continue;
            }
            if (z.declared() == 0) {
                throw new ConfException("zero size shared memory zone \"" + z.name() + "\"");
            }
            Zone previous = old == null ? null : old.reusable(z);
            if (previous != null) {
                z.reuse(previous, log);
                continue;
            }
            try {
                z.create(log);
            } catch (IOException e) {
                throw new ConfException(e.getMessage(), e);
            }
        }
    }

    /**
     * The old zone this one may take over: same name, tag and size, still holding its memory.
     */
    private Zone reusable(Zone z) {
        for (Zone o : zones) {
            if (!o.name().equals(z.name())) {
                continue;
            }
            boolean same = o.tag().equals(z.tag()) && o.declared() == z.declared();
            return same && o.isMapped() && !o.isReleased() ? o : null;
        }
        return null;
    }

    /**
     * Maps every declared zone from the descriptors a worker inherited, in the worker's attach mode.
     *
     * @param fds each zone's descriptor by name; each becomes the zone's (closed on release or failure)
     * @param log the worker's log
     * @throws ConfException when a zone's descriptor is missing or is not that zone
     */
    public void attach(Map<String, Integer> fds, ErrorLog log) throws ConfException {
        for (Zone z : zones) {
            if (z.isMapped()) {
                continue;
            }
            Integer fd = fds.get(z.name());
            if (fd == null) {
                throw new ConfException("shared memory zone \"" + z.name() + "\" was not inherited");
            }
            try {
                z.attach(fd, log);
            } catch (IOException e) {
                throw new ConfException(e.getMessage(), e);
            }
        }
    }

    /**
     * Releases the lock of every zone that the reaped process {@code pid} held (nginx's
     * {@code ngx_unlock_mutexes()}), logging {@code shared memory zone "x" was locked by PID} at {@code alert}
     * for each, except for the accept mutex's zone, which nginx unlocks silently.
     *
     * @param pid the reaped process
     * @param log the master's log
     * @param silentTag the tag of zones released without a message, or null
     * @return how many zones were unlocked: none once this table is {@linkplain #release() released}, whose
     *     memory is not this table's to touch any more
     */
    public int forceUnlock(long pid, ErrorLog log, String silentTag) {
        if (released) {
            return 0;
        }
        int n = 0;
        for (Zone z : zones) {
            if (!z.isMapped() || !z.lock().forceUnlock(pid)) {
                continue;
            }
            n++;
            if (log != null && !z.tag().equals(silentTag)) {
                log.alert("shared memory zone \"" + z.name() + "\" was locked by " + pid);
            }
        }
        return n;
    }

    /**
     * Drops this cycle's hold on every zone's memory; memory a newer cycle took over lives on with it.
     * Idempotent.
     */
    public void release() {
        if (released) {
            return;
        }
        released = true;
        for (Zone z : zones) {
            z.release();
        }
    }

    /**
     * Returns the zones in the order declared.
     *
     * @return the zones
     */
    public List<SharedZone> zones() {
        return Collections.unmodifiableList(zones);
    }
}
