package jinx.kernel.os;

import jnr.constants.platform.Errno;
import jnr.constants.platform.Signal;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Runtime;
import jnr.posix.Group;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;
import jnr.posix.Passwd;

/**
 * The one facade over the C library: retries {@code EINTR} and throws {@link NativeIoException} naming the call
 * for any other failure. Nothing else calls {@link LibC}.
 */
public final class Syscalls {

    private static final class Holder {
        static final LibC C = LibraryLoader.create(LibC.class).failImmediately().load("c");
        static final Runtime RUNTIME = Runtime.getRuntime(C);
        static final POSIX POSIX = POSIXFactory.getNativePOSIX();
    }

    private static final int EINTR = Errno.EINTR.intValue();

    private Syscalls() {
    }

    /**
     * Returns the number of a signal by its name without {@code SIG} ({@code "HUP"}), read from the platform.
     *
     * @param name the signal's name
     * @return its number
     */
    public static int signal(String name) {
        return Signal.valueOf("SIG" + name).intValue();
    }

    /**
     * Sends a signal: {@code kill(pid, sig)}.
     *
     * @param pid the process
     * @param sig the signal
     * @throws NativeIoException {@code kill(pid, sig) failed (errno: text)}
     */
    public static void kill(long pid, int sig) throws NativeIoException {
        for (;;) {
            if (Holder.C.kill((int) pid, sig) == 0) {
                return;
            }
            int errno = Holder.RUNTIME.getLastError();
            if (errno != EINTR) {
                throw failure("kill(" + pid + ", " + sig + ")", errno);
            }
        }
    }

    /**
     * Returns the effective user id.
     *
     * @return {@code geteuid()}
     */
    public static int geteuid() {
        return Holder.C.geteuid();
    }

    /**
     * Looks up a user.
     *
     * @param name the user's name
     * @return the user id, or -1 when there is no such user
     */
    public static int getpwnam(String name) {
        Passwd pwd = Holder.POSIX.getpwnam(name);
        return pwd == null ? -1 : (int) pwd.getUID();
    }

    /**
     * Looks up a group.
     *
     * @param name the group's name
     * @return the group id, or -1 when there is no such group
     */
    public static int getgrnam(String name) {
        Group grp = Holder.POSIX.getgrnam(name);
        return grp == null ? -1 : (int) grp.getGID();
    }

    private static NativeIoException failure(String call, int errno) {
        return new NativeIoException(call, errno, Holder.C.strerror(errno));
    }
}
