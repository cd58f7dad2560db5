package jinx.kernel.os;

import jnr.ffi.types.intptr_t;

/**
 * C library calls newer than the oldest glibc Jinx runs on, loaded lazily: a method whose symbol this libc lacks
 * throws {@code UnsatisfiedLinkError} when called, so callers ask {@link Native#has(String)} first and fall back.
 * Same rules as {@link LibC}.
 */
public interface LibCOptional {

    /**
     * {@code int close_range(unsigned int first, unsigned int last, int flags);} (glibc 2.34, Linux 5.9;
     * {@code CLOSE_RANGE_CLOEXEC} Linux 5.11)
     *
     * @param first the lowest descriptor
     * @param last the highest descriptor ({@code ~0U}: -1)
     * @param flags {@code CLOSE_RANGE_CLOEXEC} to mark instead of close
     * @return 0, or -1 with errno set
     */
    int close_range(int first, int last, int flags);

    /**
     * {@code int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *file_actions, int from);}
     * (glibc 2.34)
     *
     * @param fileActions the file actions
     * @param from the lowest descriptor the child closes; it closes every one above too
     * @return 0, or an error number
     */
    int posix_spawn_file_actions_addclosefrom_np(@intptr_t long fileActions, int from);
}
