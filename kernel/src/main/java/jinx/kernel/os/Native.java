package jinx.kernel.os;

import jnr.ffi.LibraryLoader;
import jnr.ffi.Runtime;

/**
 * The loaded C library, initialised on first use (so reading a constant loads nothing). Only the facades touch
 * it.
 */
final class Native {

    /** libc, every symbol resolved at load ({@code failImmediately}), errno saved after every call. */
    static final LibC C = LibraryLoader.create(LibC.class).failImmediately().load("c");

    /** The runtime that holds the saved errno. */
    static final Runtime RUNTIME = Runtime.getRuntime(C);

    private Native() {
    }
}
