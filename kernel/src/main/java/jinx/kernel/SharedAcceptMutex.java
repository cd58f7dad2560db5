package jinx.kernel;

/**
 * The accept mutex of several workers ({@code accept_mutex on}), nginx's {@code ngx_accept_mutex}: a
 * {@link ZoneLock} in a zone of its own, one page, declared by the event core while the configuration is parsed
 * and mapped by every worker. nginx keeps it in the shared memory it calls {@code nginx_shared_zone}; this zone is
 * {@value #ZONE_NAME}, owned by {@value #TAG}. A worker that dies holding it is covered like any zone's lock: the
 * master releases it when it reaps that worker.
 *
 * <p>Use: {@link #declare(Cycle)} at configuration time (when {@code accept_mutex} is on and there are several
 * workers), then {@link #of(SharedZone)} in {@code initProcess}, handed to the loop in
 * {@link EventLoop.AcceptSettings}.
 */
public final class SharedAcceptMutex implements EventLoop.AcceptMutex {

    /** The zone's name. */
    public static final String ZONE_NAME = "jinx_shared_zone";

    /** The zone's tag: the event core module's name. */
    public static final String TAG = "event_core";

    private final ZoneLock lock;

    /**
     * Wraps a lock.
     *
     * @param lock the lock
     */
    public SharedAcceptMutex(ZoneLock lock) {
        this.lock = lock;
    }

    /**
     * Declares the accept mutex's zone in a cycle being configured.
     *
     * @param cycle the cycle
     * @return the zone, mapped once the cycle has created (or, in a worker, attached) its zones
     * @throws ConfException when the name is taken by another module's zone
     */
    public static SharedZone declare(Cycle cycle) throws ConfException {
        return cycle.sharedZone(ZONE_NAME, SharedZone.PAGE_SIZE, TAG);
    }

    /**
     * Returns the accept mutex over a mapped zone's lock.
     *
     * @param zone the zone {@link #declare(Cycle)} returned
     * @return the mutex
     */
    public static SharedAcceptMutex of(SharedZone zone) {
        return new SharedAcceptMutex(zone.lock());
    }

    @Override
    public boolean tryLock() {
        return lock.tryLock();
    }

    @Override
    public void unlock() {
        lock.unlock();
    }

    /**
     * Returns the lock underneath.
     *
     * @return the lock
     */
    public ZoneLock lock() {
        return lock;
    }
}
