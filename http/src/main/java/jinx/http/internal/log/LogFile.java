package jinx.http.internal.log;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.GZIPOutputStream;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.ErrorLog;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;

/**
 * One access log file, shared by every {@code access_log} naming the same path in a cycle: nginx's
 * {@code ngx_open_file_t} with its {@code ngx_http_log_buf_t}. Opened once per cycle with {@code O_APPEND}
 * (several processes write whole lines to it), reopened on {@code USR1}. With {@code buffer=} lines gather in
 * memory and are written when the next line does not fit, when the {@code flush=} timer fires, on reopen and at
 * exit; with {@code gzip} every write is one gzip member.
 *
 * <p>Writes come from the loop thread; {@link #flush()} and {@link #reopen} may come from another thread (a
 * signal), so the methods are synchronized.
 */
final class LogFile {

    /** nginx's throttle of write error messages: one a minute per file. */
    private static final long ERROR_INTERVAL_MS = 60_000;

    private final Path path;
    /** Where the first {@code access_log} naming the file stands, for an {@code open()} that fails; or null. */
    private String declaredIn;
    private int declaredAt;
    private WritableByteChannel channel;

    private byte[] buffer;
    private int pos;
    private long flushMs;
    private int gzip;
    private Event flushEvent;
    private EventLoop timerLoop;
    private ErrorLog errorLog;
    private long lastError = Long.MIN_VALUE;

    /**
     * A file not opened yet.
     *
     * @param path the absolute path
     */
    LogFile(Path path) {
        this.path = path;
    }

    Path path() {
        return path;
    }

    /** Remembers the first place the file is named at: the line a failed {@code open()} is reported at. */
    void declaredAt(String file, int line) {
        if (declaredIn == null && file != null) {
            declaredIn = file;
            declaredAt = line;
        }
    }

    /**
     * A failed {@code open()} at the {@code access_log} line that named the file (issue #36: it stood at the
     * closing brace of {@code http}, where the files are opened); without one, at the parser's place.
     */
    ConfException openFailed(IOException e) {
        return declaredIn == null ? new ConfException(e.getMessage(), e)
            : ConfException.at(e.getMessage(), declaredIn, declaredAt);
    }

    boolean isBuffered() {
        return buffer != null;
    }

    int bufferSize() {
        return buffer == null ? 0 : buffer.length;
    }

    long flushMs() {
        return flushMs;
    }

    int gzip() {
        return gzip;
    }

    /**
     * Gives the file a buffer (the first {@code access_log} with {@code buffer=} for this path does).
     *
     * @param size the buffer's size
     * @param flush the flush interval in ms, 0 for none
     * @param level the gzip level, 0 for none
     */
    void buffer(int size, long flush, int level) {
        buffer = new byte[size];
        pos = 0;
        flushMs = flush;
        gzip = level;
        if (flush > 0) {
            flushEvent = new Event();
            flushEvent.data = this;
            flushEvent.cancelable = true;
            flushEvent.handler = ev -> flush();
        }
    }

    /**
     * Opens the file for appending, creating it, as a file of the cycle ({@link Cycle#openFile}: a worker
     * reloading in place as another user writes to the master's).
     *
     * @param cycle the cycle
     * @param log where to report the failures of writes no request asked for (the flush timer's), or null
     * @throws IOException with nginx's words: {@code open() "/x" failed (13: Permission denied)}
     */
    synchronized void open(Cycle cycle, ErrorLog log) throws IOException {
        errorLog = log;
        if (flushEvent != null) {
            flushEvent.log = log;
        }
        if (channel == null) {
            channel = cycle.openFile(path);
        }
    }

    private static FileChannel openChannel(Path path) throws IOException {
        try {
            return FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new IOException("open() \"" + path + "\" failed (" + reason(e) + ")", e);
        }
    }

    /**
     * Writes a line (with its line feed), through the buffer when there is one: nginx's
     * {@code ngx_http_log_handler()} from {@code buffer = log[l].file->data} on.
     *
     * @param line the line's bytes
     * @param loop the loop to set the flush timer on, or null
     * @param log where to report a failed write
     */
    synchronized void write(byte[] line, EventLoop loop, ErrorLog log) {
        if (buffer == null) {
            writeOut(line, 0, line.length, log);
            return;
        }
        if (line.length > buffer.length - pos) {
            writeOut(buffer, 0, pos, log);
            pos = 0;
        }
        if (line.length <= buffer.length - pos) {
            if (flushEvent != null && pos == 0 && loop != null) {
                timerLoop = loop;
                loop.addTimer(flushEvent, flushMs);
            }
            System.arraycopy(line, 0, buffer, pos, line.length);
            pos += line.length;
            return;
        }
        // a line longer than the whole buffer goes out on its own
        cancelTimer();
        writeOut(line, 0, line.length, log);
    }

    /**
     * Writes what the buffer holds: nginx's {@code ngx_http_log_flush()}.
     */
    synchronized void flush() {
        flush(errorLog);
    }

    private void flush(ErrorLog log) {
        if (buffer == null) {
            return;
        }
        if (pos > 0) {
            writeOut(buffer, 0, pos, log);
            pos = 0;
        }
        cancelTimer();
    }

    private void cancelTimer() {
        if (flushEvent != null && flushEvent.timerSet() && timerLoop != null) {
            timerLoop.deleteTimer(flushEvent);
        }
    }

    /**
     * Flushes, then opens the path anew and closes the old file (log rotation).
     *
     * @param log where to report a failure, or null
     * @return true when reopened
     */
    synchronized boolean reopen(ErrorLog log) {
        flush(log);
        WritableByteChannel fresh;
        try {
            fresh = openChannel(path);
        } catch (IOException e) {
            if (log != null) {
                log.emerg(e.getMessage());
            }
            return false;
        }
        closeChannel();
        channel = fresh;
        return true;
    }

    /**
     * Flushes and closes the file.
     */
    synchronized void close() {
        flush(errorLog);
        closeChannel();
    }

    private void closeChannel() {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            // the data was written; a close error leaves nothing to do
        }
        channel = null;
    }

    private void writeOut(byte[] data, int off, int len, ErrorLog log) {
        if (len == 0) {
            return;
        }
        try {
            if (channel == null) {
                throw new IOException("file is not open");
            }
            ByteBuffer b = gzip > 0 ? ByteBuffer.wrap(gzip(data, off, len, gzip)) : ByteBuffer.wrap(data, off, len);
            while (b.hasRemaining()) {
                channel.write(b);
            }
        } catch (IOException e) {
            long now = System.currentTimeMillis();
            ErrorLog to = log != null ? log : errorLog;
            if (to != null && (lastError == Long.MIN_VALUE || now - lastError >= ERROR_INTERVAL_MS)) {
                to.alert("write() to \"" + path + "\" failed (" + reason(e) + ")");
                lastError = now;
            }
        }
    }

    /**
     * Compresses data into one gzip member, as nginx's {@code ngx_http_log_gzip()} does per write.
     *
     * @param data the bytes
     * @param off the first
     * @param len how many
     * @param level the compression level, 1 to 9
     * @return the gzip member
     * @throws IOException never, in memory
     */
    static byte[] gzip(byte[] data, int off, int len, int level) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(len / 2 + 64);
        try (LevelGzip z = new LevelGzip(out, level)) {
            z.write(data, off, len);
        }
        return out.toByteArray();
    }

    private static final class LevelGzip extends GZIPOutputStream {
        LevelGzip(OutputStream out, int level) throws IOException {
            super(out);
            def.setLevel(level);
        }
    }

    /**
     * nginx's {@code (errno: text)} for an I/O exception.
     *
     * @param e the exception
     * @return the words
     */
    static String reason(IOException e) {
        if (e.getCause() instanceof IOException cause && e.getMessage() != null
            && e.getMessage().startsWith("open()")) {
            return reason(cause);
        }
        if (e instanceof NoSuchFileException) {
            return "2: No such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "13: Permission denied";
        }
        if (e instanceof NotDirectoryException) {
            return "20: Not a directory";
        }
        String reason = e instanceof FileSystemException fse ? fse.getReason() : e.getMessage();
        if ("Is a directory".equals(reason)) {
            return "21: Is a directory";
        }
        if ("No space left on device".equals(reason)) {
            return "28: No space left on device";
        }
        return reason == null ? e.getClass().getSimpleName() : reason;
    }
}
