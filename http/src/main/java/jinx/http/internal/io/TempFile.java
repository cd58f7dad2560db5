package jinx.http.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.os.Errors;
import jinx.kernel.os.Files;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * A temporary file for a request body: nginx's {@code ngx_temp_file_t} with {@code ngx_create_temp_file()} and
 * {@code ngx_write_chain_to_temp_file()}. The name is the path, the level directories ({@code levels=1:2} gives
 * {@code 3/12/0000000123}, the directories taken from the end of the number) and a ten-digit number; the file is
 * created exclusively with mode 0600 and, unless it is to stay ({@code client_body_in_file_only}),
 * unlinked at once so that it vanishes with its descriptor.
 */
final class TempFile {

    /* nginx's ngx_temp_number: a process-wide counter that starts somewhere random */
    private static final AtomicLong NUMBER = new AtomicLong(ThreadLocalRandom.current().nextInt(123456));

    private static final Set<PosixFilePermission> OWNER_RW =
        EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final Set<PosixFilePermission> OWNER_RWX =
        EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private final String name;
    private final int fd;
    private final boolean persistent;
    private final boolean clean;
    private long offset;
    private boolean closed;

    private TempFile(String name, int fd, boolean persistent, boolean clean) {
        this.name = name;
        this.fd = fd;
        this.persistent = persistent;
        this.clean = clean;
    }

    /**
     * Creates a temporary file: nginx's {@code ngx_create_temp_file()}. Missing directories are made (0700).
     *
     * @param path the directory
     * @param levels the level directories' widths, or null
     * @param persistent keep the name after the descriptor is closed
     * @param clean remove a persistent file when the request ends
     * @return the file
     * @throws IOException {@code open() "/path/0000000001" failed (13: Permission denied)}, or a directory
     *     that cannot be made
     */
    static TempFile create(Path path, int[] levels, boolean persistent, boolean clean) throws IOException {
        for (int collisions = 0; ; collisions++) {
            String number = String.format("%010d", NUMBER.incrementAndGet() & 0xffffffffL);
            String name = hashedName(path.toString(), levels, number);
            if (!createFile(Path.of(name))) {
                if (collisions < 16) {
                    continue;
                }
                throw failure(name, "17: File exists");
            }
            int fd = Files.open(name, Platform.O_RDWR | Platform.O_CLOEXEC, 0);
            if (!persistent) {
                Files.unlink(name);
            }
            return new TempFile(name, fd, persistent, clean);
        }
    }

    /**
     * Creates the file, exclusively, with mode 0600 (nginx's {@code ngx_open_tempfile()}), making missing
     * directories with mode 0700 (nginx's {@code ngx_create_path()}).
     *
     * @return false when the name is taken
     */
    private static boolean createFile(Path file) throws IOException {
        String name = file.toString();
        try {
            try {
                java.nio.file.Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_RW));
            } catch (NoSuchFileException e) {
                java.nio.file.Files.createDirectories(file.getParent(),
                    PosixFilePermissions.asFileAttribute(OWNER_RWX));
                java.nio.file.Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_RW));
            }
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (NoSuchFileException e) {
            throw failure(name, "2: No such file or directory");
        } catch (AccessDeniedException e) {
            throw failure(name, "13: Permission denied");
        } catch (FileSystemException e) {
            throw failure(name, e.getReason() == null ? e.getMessage() : e.getReason());
        }
    }

    private static IOException failure(String name, String reason) {
        return new IOException("open() \"" + name + "\" failed (" + reason + ")");
    }

    /** nginx's {@code ngx_create_hashed_filename()}: level directories from the end of the number. */
    static String hashedName(String dir, int[] levels, String number) {
        StringBuilder sb = new StringBuilder(dir.length() + 24).append(dir);
        int end = number.length();
        if (levels != null) {
            for (int level : levels) {
                if (level <= 0) {
                    break;
                }
                sb.append('/').append(number, end - level, end);
                end -= level;
            }
        }
        return sb.append('/').append(number).toString();
    }

    /**
     * Returns the file's name.
     *
     * @return the path
     */
    String name() {
        return name;
    }

    /**
     * Returns the descriptor.
     *
     * @return the descriptor
     */
    int fd() {
        return fd;
    }

    /**
     * Returns the bytes written so far (nginx's {@code tf->offset}).
     *
     * @return bytes
     */
    long offset() {
        return offset;
    }

    /**
     * Appends the memory buffers of a chain, consuming them: nginx's {@code ngx_write_chain_to_temp_file()}.
     *
     * @param in the chain
     * @return the bytes written
     * @throws NativeIoException {@code write() "/path" failed (...)}
     */
    long write(BufChain in) throws NativeIoException {
        long n = 0;
        for (BufChain cl = in; cl != null; cl = cl.next) {
            Buf b = cl.buf;
            if (!b.inMemory()) {
                continue;
            }
            ByteBuffer m = b.mem.isDirect() ? b.mem
                : ByteBuffer.allocateDirect(b.mem.remaining()).put(b.mem.duplicate()).flip();
            long base = NativeMemory.address(m);
            for (int pos = m.position(); pos < m.limit(); ) {
                int w;
                try {
                    w = Syscalls.write(fd, base + pos, m.limit() - pos);
                } catch (NativeIoException e) {
                    throw new NativeIoException("write() \"" + name + "\"", e.errno(), Errors.text(e.errno()));
                }
                pos += w;
                n += w;
            }
            b.mem.position(b.mem.limit());
        }
        offset += n;
        return n;
    }

    /**
     * Closes the descriptor, and removes a persistent file marked clean (nginx's pool cleanup of the file).
     */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Syscalls.close(fd);
        } catch (NativeIoException e) {
            // the descriptor is gone either way
        }
        if (persistent && clean) {
            try {
                Files.unlink(name);
            } catch (NativeIoException e) {
                // nginx ignores it too (ngx_pool_delete_file logs at crit unless ENOENT)
            }
        }
    }
}
