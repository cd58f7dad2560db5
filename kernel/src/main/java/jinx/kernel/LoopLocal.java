package jinx.kernel;

import java.util.function.Supplier;

/**
 * A value per loop thread, for the scratch state a module keeps beside a loop (buffers to reuse, a builder):
 * a {@code ThreadLocal} that answers the thread that asked last without a lookup. A worker runs its requests on one
 * loop thread, and a {@code ThreadLocal.get()} (hash, probe, weak reference) at each of the few places a request
 * takes such state cost about a twentieth of a worker's Java time on a hello request; here the common case is a
 * field load and a compare with {@code Thread.currentThread()}.
 *
 * <p>Safe from any thread without a lock: the last answer is an immutable pair of thread and value, published
 * through its final fields, so a thread that reads another thread's pair sees that thread, not its own, and falls
 * back to the thread-local. Two threads that alternate only pay the lookup.
 *
 * @param <T> the value's type
 */
public final class LoopLocal<T> {

    /** A thread's value. */
    private record Owned<T>(Thread owner, T value) {
    }

    private final ThreadLocal<Owned<T>> values;
    /** The pair answered last; written and read without synchronization by design (see the class comment). */
    private Owned<T> last;

    /**
     * Creates a loop-local whose value is made on a thread's first {@link #get()}.
     *
     * @param initial makes a thread's value, on that thread
     */
    public LoopLocal(Supplier<? extends T> initial) {
        this.values = ThreadLocal.withInitial(() -> new Owned<>(Thread.currentThread(), initial.get()));
    }

    /**
     * Returns the calling thread's value, made on its first call.
     *
     * @return the value
     */
    public T get() {
        Owned<T> o = last;
        if (o != null && o.owner == Thread.currentThread()) {
            return o.value;
        }
        o = values.get();
        last = o;
        return o.value;
    }
}
