package jinx.kernel;

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

import jinx.kernel.os.Errors;
import jinx.kernel.os.Files;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * A temporary file, for a request body or a proxied response: nginx's {@code ngx_temp_file_t} with
 * {@code ngx_create_temp_file()} and {@code ngx_write_chain_to_temp_file()}. The name is the path, the level
 * directories ({@code levels=1:2} gives {@code 3/12/0000000123}, see {@link TempPath#hashedName}) and a ten-digit
 * number; the file is created exclusively with mode 0600 and, unless it is to stay ({@code client_body_in_file_only}),
 * unlinked at once so that it vanishes with its descriptor. Written at its end only, with {@code pwrite} or, for
 * several buffers, {@code pwritev}; a failure reads as nginx's ({@code pwritev() "/x/0000000001" failed (28: No space
 * left on device)}). One loop's, not thread-safe.
 *
 * <p>Added in SPI 1.6 (the HTTP core's request body file before).
 */
public final class TempFile {

    /* nginx's ngx_temp_number: a process-wide counter that starts somewhere random */
    private static final AtomicLong NUMBER = new AtomicLong(ThreadLocalRandom.current().nextInt(123456));

    /* nginx's NGX_IOVS_PREALLOCATE: buffers gathered by one pwritev() */
    private static final int IOVS = 64;
    private static final ThreadLocal<ByteBuffer> IOV = ThreadLocal.withInitial(
        () -> ByteBuffer.allocateDirect(IOVS * Platform.SIZEOF_IOVEC));

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
     * @param path the directory and its levels
     * @param persistent keep the name after the descriptor is closed
     * @param clean remove a persistent file when it is closed
     * @return the file
     * @throws IOException {@code open() "/path/0000000001" failed (13: Permission denied)}, or a directory
     *     that cannot be made
     */
    public static TempFile create(TempPath path, boolean persistent, boolean clean) throws IOException {
        for (int collisions = 0; ; collisions++) {
            String number = String.format("%010d", NUMBER.incrementAndGet() & 0xffffffffL);
            String name = path.hashedName(number);
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

    /**
     * Returns the file's name.
     *
     * @return the path
     */
    public String name() {
        return name;
    }

    /**
     * Returns the descriptor, for file buffers over what was written.
     *
     * @return the descriptor
     */
    public int fd() {
        return fd;
    }

    /**
     * Returns the bytes written so far (nginx's {@code tf->offset}).
     *
     * @return bytes
     */
    public long offset() {
        return offset;
    }

    /**
     * Appends the memory buffers of a chain, consuming them: nginx's {@code ngx_write_chain_to_temp_file()} with
     * {@code ngx_write_chain_to_file()}: one buffer with {@code pwrite()}, several gathered with {@code pwritev()}.
     * Buffers not in memory are skipped. A short write goes on where it stopped, so a full disk fails on the call
     * that finds no room.
     *
     * @param in the chain
     * @return the bytes written
     * @throws NativeIoException {@code pwrite() "/path" failed (28: No space left on device)}; what was written
     *     before is counted in {@link #offset()}
     */
    public long write(BufChain in) throws NativeIoException {
        long n = 0;
        BufChain cl = in;
        ByteBuffer iov = IOV.get();
        long iovBase = NativeMemory.address(iov);
        while (cl != null) {
            // gather up to IOVS memory buffers; heap ones are copied to direct memory first
            int count = 0;
            long size = 0;
            BufChain first = cl;
            // heap buffers' direct copies, alive until written
            ByteBuffer[] copies = null;
            for (; cl != null && count < IOVS; cl = cl.next) {
                Buf b = cl.buf;
                if (!b.inMemory() || !b.mem.hasRemaining()) {
                    continue;
                }
                ByteBuffer m = b.mem;
                if (!m.isDirect()) {
                    m = ByteBuffer.allocateDirect(m.remaining()).put(m.duplicate()).flip();
                    copies = copies == null ? new ByteBuffer[IOVS] : copies;
                    copies[count] = m;
                }
                long at = iovBase + (long) count * Platform.SIZEOF_IOVEC;
                NativeMemory.putLong(at + Platform.OFFSETOF_IOV_BASE, NativeMemory.address(m) + m.position());
                NativeMemory.putLong(at + Platform.OFFSETOF_IOV_LEN, m.remaining());
                size += m.remaining();
                count++;
            }
            if (count == 0) {
                break;
            }
            long done = writeFully(iovBase, count, size);
            n += done;
            java.lang.ref.Reference.reachabilityFence(copies);
            for (BufChain c = first; c != cl; c = c.next) {
                if (c.buf.inMemory()) {
                    c.buf.mem.position(c.buf.mem.limit());
                }
            }
        }
        return n;
    }

    /** Writes {@code size} bytes the iovecs describe at the end of the file, going on after a short write. */
    private long writeFully(long iovBase, int count, long size) throws NativeIoException {
        String call = count == 1 ? "pwrite()" : "pwritev()";
        long done = 0;
        int first = 0;
        while (done < size) {
            long w;
            try {
                long at = iovBase + (long) first * Platform.SIZEOF_IOVEC;
                w = count - first == 1
                    ? Syscalls.pwrite(fd, NativeMemory.getLong(at + Platform.OFFSETOF_IOV_BASE),
                        NativeMemory.getLong(at + Platform.OFFSETOF_IOV_LEN), offset)
                    : Syscalls.pwritev(fd, at, count - first, offset);
            } catch (NativeIoException e) {
                throw new NativeIoException(call + " \"" + name + "\"", e.errno(), Errors.text(e.errno()));
            }
            offset += w;
            done += w;
            // skip the iovecs written whole, and shorten the one written in part
            while (w > 0 && first < count) {
                long at = iovBase + (long) first * Platform.SIZEOF_IOVEC;
                long len = NativeMemory.getLong(at + Platform.OFFSETOF_IOV_LEN);
                if (w >= len) {
                    w -= len;
                    first++;
                } else {
                    NativeMemory.putLong(at + Platform.OFFSETOF_IOV_BASE,
                        NativeMemory.getLong(at + Platform.OFFSETOF_IOV_BASE) + w);
                    NativeMemory.putLong(at + Platform.OFFSETOF_IOV_LEN, len - w);
                    w = 0;
                }
            }
        }
        return done;
    }

    /**
     * Closes the descriptor, and removes a persistent file marked clean (nginx's pool cleanup of the file).
     * Idempotent.
     */
    public void close() {
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
