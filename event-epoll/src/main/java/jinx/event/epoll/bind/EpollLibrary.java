package jinx.event.epoll.bind;

import jinx.kernel.os.JinxIoLibrary;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Runtime;

/**
 * The loaded binding: the C library with every epoll symbol resolved at load ({@code failImmediately}), and the
 * errno jnr-ffi saved after the calling thread's last call. Loading happens on first use, so a system without
 * epoll fails there ({@link UnsatisfiedLinkError}), not when the module is discovered.
 *
 * <p>Not API: see the package.
 */
public final class EpollLibrary {

    /** libc's epoll calls. */
    public static final LibEpoll EPOLL = LibraryLoader.create(LibEpoll.class).failImmediately().load("c");

    /** libjinxio's {@code epoll_wait}, without errno saving; null where the library is not found. */
    public static final LibEpollIo IO = JinxIoLibrary.load(LibEpollIo.class);

    private static final Runtime RUNTIME = Runtime.getRuntime(EPOLL);

    private EpollLibrary() {
    }

    /**
     * Returns the errno saved after this thread's last call through {@link #EPOLL}.
     *
     * @return errno
     */
    public static int lastError() {
        return RUNTIME.getLastError();
    }
}
