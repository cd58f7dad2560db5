package jinx.tls.internal;

import jinx.tls.bind.LibSslSessions;
import jnr.ffi.LibraryLoader;

/**
 * The binding of the session cache's and the ticket keys' calls ({@link LibSslSessions}), loaded once over
 * {@code libssl.so.3} and {@code libcrypto.so.3} (the unversioned names, which only the development package
 * installs, as the fallback).
 */
public final class OpenSslSessions {

    private OpenSslSessions() {
    }

    private static final class Holder {
        static final LibSslSessions LIB = load();

        private Holder() {
        }

        private static LibSslSessions load() {
            try {
                return LibraryLoader.create(LibSslSessions.class).failImmediately().library("libssl.so.3")
                    .library("libcrypto.so.3").load();
            } catch (LinkageError | RuntimeException e) {
                return LibraryLoader.create(LibSslSessions.class).failImmediately().library("ssl")
                    .library("crypto").load();
            }
        }
    }

    /**
     * Returns the binding.
     *
     * @return it
     */
    public static LibSslSessions lib() {
        return Holder.LIB;
    }
}
