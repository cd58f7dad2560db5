package jinx.kernel.os;

/**
 * libjinxio ({@code kernel/src/main/c/jinxio.c}) for the event methods' own bindings: their hot calls live in the
 * kernel's library beside {@link LibJinxIo}'s, each returning {@code -errno} instead of setting errno, so that
 * jnr-ffi calls them without its errno save ({@code @IgnoreError}).
 *
 * <p>Not API: see the package.
 */
public final class JinxIoLibrary {

    /**
     * The system property naming the directories of jffi's native library, where libjinxio is looked for too; the
     * master passes it on to every worker it starts.
     */
    public static final String LIBRARY_PATH = "jffi.boot.library.path";

    private JinxIoLibrary() {
    }

    /**
     * Binds an interface to libjinxio, each method to the symbol {@code jinx_} + its name, from the directories of
     * {@code jffi.boot.library.path} (bin/jinx and distributions point it at the library). Not hot: a binding
     * loads once, into a constant.
     *
     * @param binding the interface, mirroring the C prototypes
     * @param <T> its type
     * @return the binding, or null where the library is not found or lacks a symbol: the caller calls libc then
     */
    public static <T> T load(Class<T> binding) {
        return Native.loadIo(binding, System.getProperty(LIBRARY_PATH));
    }
}
