package jinx.stream.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;

/**
 * An access log file, opened for appending (several workers write whole lines to it): nginx's
 * {@code ngx_open_file_t} without a buffer, reopened on {@code USR1}.
 */
final class AccessLogFile {

    private final Path path;
    private WritableByteChannel channel;

    private AccessLogFile(Path path, WritableByteChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    /** Opens the file as a file of the cycle ({@link Cycle#openFile}). */
    static AccessLogFile open(Cycle cycle, Path path) throws ConfException {
        try {
            return new AccessLogFile(path, cycle.openFile(path));
        } catch (IOException e) {
            throw new ConfException(e.getMessage().startsWith("open()") ? e.getMessage() : openFailed(path, e));
        }
    }

    private static FileChannel channel(Path path) throws IOException {
        return FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    private static String openFailed(Path path, IOException e) {
        String why = e instanceof NoSuchFileException ? "2: No such file or directory"
            : e instanceof AccessDeniedException ? "13: Permission denied" : e.getMessage();
        return "open() \"" + path + "\" failed (" + why + ")";
    }

    synchronized void write(String line) {
        if (channel == null) {
            return;
        }
        ByteBuffer b = ByteBuffer.wrap(line.getBytes(StandardCharsets.ISO_8859_1));
        try {
            while (b.hasRemaining()) {
                channel.write(b);
            }
        } catch (IOException e) {
            // a failed write loses this file's lines until the next reopen; the session is not affected
            channel = null;
        }
    }

    synchronized void reopen(Cycle cycle) {
        close();
        try {
            channel = channel(path);
            cycle.ownReopenedFile(path);
        } catch (IOException e) {
            cycle.log().alert(openFailed(path, e));
        }
    }

    synchronized void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing more is written to it
            }
            channel = null;
        }
    }
}
