package jinx.event.poll.bind;

import jnr.ffi.types.intptr_t;
import jnr.ffi.types.u_int64_t;

/**
 * The one C library call the poll method makes, mirroring its prototype. Not API: called only through the
 * module's facade, which turns errno into {@code jinx.kernel.os.NativeIoException}.
 *
 * <p>The array is a raw native address ({@code @intptr_t long}) the caller owns, never a jnr {@code Pointer} or
 * {@code Struct}, so a call allocates nothing. jnr-ffi saves errno after the call (no {@code @IgnoreError}).
 */
public interface LibPoll {

    /**
     * {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout);} ({@code nfds_t} is {@code unsigned long}:
     * 64 bits on the LP64 Linux Jinx targets).
     *
     * @param fds the address of {@code nfds} {@code struct pollfd}, or 0 when {@code nfds} is 0
     * @param nfds the number of entries
     * @param timeout the longest wait in ms, -1 for none
     * @return the number of entries with {@code revents} set, 0 on timeout, or -1 with errno set
     */
    int poll(@intptr_t long fds, @u_int64_t long nfds, int timeout);
}
