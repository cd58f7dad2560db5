package jinx.kernel.os;

import com.kenai.jffi.Library;
import com.kenai.jffi.MemoryIO;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Platform;
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

    /** The calls a libc may lack, resolved when first called: ask {@link #has(String)} first. */
    static final class Optional {
        static final LibCOptional C = LibraryLoader.create(LibCOptional.class).load("c");

        private Optional() {
        }
    }

    /** libc's own handle, for symbol lookups. */
    private static final class Handle {
        static final Library LIBC = Library.getCachedInstance(Platform.getNativePlatform().getStandardCLibraryName(),
                                                              Library.LAZY | Library.LOCAL);

        private Handle() {
        }
    }

    /**
     * Returns whether this process's libc defines a symbol ({@code dlsym}).
     *
     * @param symbol the symbol ({@code "close_range"})
     * @return whether it resolves
     */
    static boolean has(String symbol) {
        return Handle.LIBC != null && Handle.LIBC.getSymbolAddress(symbol) != 0;
    }

    /**
     * Returns libc's {@code environ}: the process's current environment, a NULL-terminated {@code char **}.
     *
     * @return the array's address
     */
    static long environ() {
        long variable = Handle.LIBC.getSymbolAddress("environ");
        if (variable == 0) {
            throw new IllegalStateException("libc has no environ: " + Library.getLastError());
        }
        return MemoryIO.getInstance().getAddress(variable);
    }
}
