package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;

import jinx.kernel.os.Files;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

/**
 * A file opened for appending on a descriptor of our own, nginx's {@code ngx_open_file_t}: unlike a
 * {@code FileChannel}, its descriptor can be sent to a worker ({@code SCM_RIGHTS}) and one received can be written
 * to, whoever owns the file ({@link OpenFiles}). Writes are whole {@code write(2)} calls on an {@code O_APPEND}
 * descriptor, so lines of several processes do not mix.
 */
public final class AppendFile implements WritableByteChannel {

    /** nginx's {@code NGX_FILE_DEFAULT_ACCESS}. */
    private static final int MODE = 0644;

    private int fd;

    private AppendFile(int fd) {
        this.fd = fd;
    }

    /**
     * Opens (creating) a file for appending, close-on-exec.
     *
     * @param file the path
     * @return the file
     * @throws NativeIoException {@code open() "/x" failed (13: Permission denied)}
     */
    public static AppendFile open(Path file) throws NativeIoException {
        return new AppendFile(Files.open(file.toString(), Platform.O_WRONLY | Platform.O_APPEND | Platform.O_CREAT
            | Platform.O_CLOEXEC, MODE));
    }

    /**
     * Takes a descriptor: it is closed with the file.
     *
     * @param fd an open descriptor
     * @return the file
     */
    static AppendFile of(int fd) {
        return new AppendFile(fd);
    }

    /**
     * The descriptor, while open.
     *
     * @return the descriptor, -1 once closed
     */
    synchronized int fd() {
        return fd;
    }

    @Override
    public synchronized int write(ByteBuffer src) throws IOException {
        if (fd == -1) {
            throw new ClosedChannelException();
        }
        int len = src.remaining();
        byte[] bytes;
        if (src.hasArray() && src.arrayOffset() + src.position() == 0) {
            bytes = src.array();
        } else {
            bytes = new byte[len];
            src.duplicate().get(bytes);
        }
        int n = Files.write(fd, bytes, len);
        src.position(src.position() + n);
        return n;
    }

    @Override
    public synchronized boolean isOpen() {
        return fd != -1;
    }

    @Override
    public synchronized void close() throws IOException {
        if (fd == -1) {
            return;
        }
        int was = fd;
        fd = -1;
        Syscalls.close(was);
    }
}
