package jinx.kernel;

/**
 * A lock in a shared zone, nginx's {@code ngx_shmtx_t} on its atomic path: one 8-byte word holding the owner's
 * process id, 0 when free. It excludes processes, and threads of one process too; only the holder unlocks. A
 * process that dies holding it would stop every other one, so the master calls {@link #forceUnlock(long)} with
 * the pid of each worker it reaps (nginx's {@code ngx_shmtx_force_unlock()} from {@code ngx_unlock_mutexes()}).
 *
 * <p>Not reentrant. Hold it briefly: waiters spin, then yield, then park for short moments, as nginx's
 * {@code ngx_shmtx_lock()} spins and then calls {@code sched_yield()}.
 */
public interface ZoneLock {

    /**
     * Takes the lock if it is free, without waiting ({@code ngx_shmtx_trylock()}).
     *
     * @return true when taken
     */
    boolean tryLock();

    /**
     * Takes the lock, waiting as long as it takes ({@code ngx_shmtx_lock()}).
     */
    void lock();

    /**
     * Releases the lock if this process holds it ({@code ngx_shmtx_unlock()}); does nothing otherwise (the lock
     * may have been forced open meanwhile).
     */
    void unlock();

    /**
     * Releases the lock if {@code pid} holds it: the master, after reaping that process.
     *
     * @param pid the dead process
     * @return true when it held the lock
     */
    boolean forceUnlock(long pid);

    /**
     * Returns the holder's pid, or 0 when free.
     *
     * @return the pid
     */
    long owner();

    /**
     * Returns the offset of the lock word in its zone.
     *
     * @return the offset
     */
    long offset();
}
