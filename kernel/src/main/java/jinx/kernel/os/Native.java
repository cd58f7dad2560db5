package jinx.kernel.os;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

import com.kenai.jffi.Library;
import com.kenai.jffi.MemoryIO;
import jnr.ffi.LibraryLoader;
import jnr.ffi.LibraryOption;
import jnr.ffi.Platform;
import jnr.ffi.Runtime;
import jnr.ffi.mapper.FunctionMapper;

/**
 * The loaded C library, initialised on first use (so reading a constant loads nothing). Only the facades touch
 * it.
 */
final class Native {

    /** libc, every symbol resolved at load ({@code failImmediately}), errno saved after every call. */
    static final LibC C = LibraryLoader.create(LibC.class).failImmediately().load("c");

    /** The runtime that holds the saved errno. */
    static final Runtime RUNTIME = Runtime.getRuntime(C);

    /** The file name of libjinxio, looked for in the directories of {@code jffi.boot.library.path}. */
    static final String IO_LIBRARY = "libjinxio.so";

    /**
     * libjinxio's hot calls, without errno saving, when the library is beside jffi's (bin/jinx and distributions
     * point {@code jffi.boot.library.path} at it); null where it is not, and the facades call {@link #C}.
     */
    static final LibJinxIo IO = loadIo(System.getProperty(JinxIoLibrary.LIBRARY_PATH));

    private Native() {
    }

    /** Loads libjinxio from the first directory of {@code path} that has it, or returns null. */
    static LibJinxIo loadIo(String path) {
        return loadIo(LibJinxIo.class, path);
    }

    /**
     * Binds {@code binding} to libjinxio, each method to the symbol {@code jinx_} + its name, from the first
     * directory of {@code path} that has the library; null where none has it, or the library lacks a symbol.
     */
    static <T> T loadIo(Class<T> binding, String path) {
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty() || !Files.isReadable(Path.of(dir, IO_LIBRARY))) {
                continue;
            }
            try {
                return LibraryLoader.create(binding)
                    .option(LibraryOption.FunctionMapper, (FunctionMapper) (name, context) -> "jinx_" + name)
                    .search(dir)
                    .failImmediately()
                    .load("jinxio");
            } catch (LinkageError | RuntimeException e) {
                // a library built for another machine: libc serves the same calls, and every syscall needs this
                // class to initialise
                return null;
            }
        }
        return null;
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
