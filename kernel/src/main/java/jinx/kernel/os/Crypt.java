package jinx.kernel.os;

import jnr.ffi.LibraryLoader;
import jnr.ffi.Runtime;

/**
 * The facade of {@link LibCrypt}: nginx's {@code ngx_libc_crypt()} ({@code src/os/unix/ngx_user.c}), the system's
 * {@code crypt(3)} with every method it has ({@code $1$}, {@code $5$}, {@code $6$}, {@code $y$}, {@code $2b$},
 * DES). The library is loaded on first use, by its development name and else by its run-time one.
 */
public final class Crypt {

    private static final Object LOCK = new Object();

    private Crypt() {
    }

    /** The library, loaded when first needed. */
    private static final class Holder {
        static final LibCrypt LIB = load();

        private Holder() {
        }

        private static LibCrypt load() {
            try {
                return LibraryLoader.create(LibCrypt.class).failImmediately().load("crypt");
            } catch (LinkageError | RuntimeException e) {
                // only libcrypt.so.1 is installed without the development package
                return LibraryLoader.create(LibCrypt.class).failImmediately().load("libcrypt.so.1");
            }
        }
    }

    /**
     * Hashes a password with the method and salt of {@code setting}.
     *
     * @param phrase the password
     * @param setting the stored hash
     * @return the hash, which equals {@code setting} when the password is right; a method the library does not
     *     know gives a failure token ({@code *0}) that equals no stored hash
     * @throws NativeIoException when {@code crypt()} returns NULL ({@code crypt() failed}, as nginx logs it)
     */
    public static String crypt(String phrase, String setting) throws NativeIoException {
        String value;
        int errno;
        synchronized (LOCK) {
            value = Holder.LIB.crypt(phrase, setting);
            errno = value == null ? Runtime.getRuntime(Holder.LIB).getLastError() : 0;
        }
        if (value == null) {
            throw Errors.failure("crypt()", errno);
        }
        return value;
    }
}
