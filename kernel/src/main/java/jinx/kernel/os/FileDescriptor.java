package jinx.kernel.os;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A descriptor that is closed exactly once, whichever thread closes it and however often: the first
 * {@link #close()} closes it, later ones do nothing. After closing, {@link #fd()} is -1, so a stale holder fails
 * with {@code EBADF} instead of touching a descriptor number the kernel has since handed to someone else.
 */
public final class FileDescriptor implements AutoCloseable {

    private static final VarHandle FD;

    static {
        try {
            FD = MethodHandles.lookup().findVarHandle(FileDescriptor.class, "fd", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int fd;

    /**
     * Owns a descriptor.
     *
     * @param fd an open descriptor
     * @throws IllegalArgumentException when {@code fd} is negative
     */
    public FileDescriptor(int fd) {
        if (fd < 0) {
            throw new IllegalArgumentException("fd " + fd);
        }
        this.fd = fd;
    }

    /**
     * Returns the descriptor, or -1 once closed.
     *
     * @return the descriptor
     */
    public int fd() {
        return fd;
    }

    /**
     * Returns whether the descriptor is still open (not closed through this object).
     *
     * @return whether open
     */
    public boolean isOpen() {
        return fd >= 0;
    }

    /**
     * Closes the descriptor the first time; does nothing afterwards.
     *
     * @throws NativeIoException when {@code close()} fails (the descriptor is released all the same)
     */
    @Override
    public void close() throws NativeIoException {
        int old = (int) FD.getAndSet(this, -1);
        if (old >= 0) {
            Syscalls.close(old);
        }
    }

    @Override
    public String toString() {
        return "fd:" + fd;
    }
}
