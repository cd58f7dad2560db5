package jinx.kernel;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import jinx.kernel.internal.IoErrors;

/**
 * The error log, nginx's {@code ngx_log_t}: lines such as
 * {@code 2026/11/30 15:38:18 [notice] 1234#1: message}, written to files or stderr, each target with its own
 * level. Before the configuration is read, the early log writes {@code jinx: [emerg] message} to stderr, as
 * nginx does, unless it writes its lines to stderr already.
 */
public final class ErrorLog {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss");

    private final List<Sink> sinks;
    private final boolean early;
    private final PrintStream stderr;
    /** The most verbose level any target takes: the hot path asks isEnabled(DEBUG) often, so it must not loop. */
    private final int mostVerbose;
    private final long pid = ProcessHandle.current().pid();

    /**
     * Where one error log writes, and from which level on.
     *
     * @param file the absolute file, or null for stderr
     * @param level the least severe level written
     */
    public record Target(Path file, LogLevel level) {

        /**
         * Creates a target.
         *
         * @param file the absolute file, or null for stderr
         * @param level the least severe level written
         */
        public Target {
            Objects.requireNonNull(level, "level");
        }

        @Override
        public String toString() {
            return (file == null ? "stderr" : file.toString()) + " " + level.label();
        }
    }

    private ErrorLog(List<Sink> sinks, boolean early, PrintStream stderr) {
        this.sinks = sinks;
        this.early = early;
        this.stderr = stderr;
        int verbose = early ? LogLevel.WARN.ordinal() : -1;
        for (Sink s : sinks) {
            verbose = Math.max(verbose, s.target.level().ordinal());
        }
        this.mostVerbose = verbose;
    }

    /**
     * The log in force before the configuration is read, as nginx's {@code ngx_log_init()}: every level up to
     * {@code notice} goes to {@code file} (the {@code -e} file or the default one), and up to {@code warn} also
     * to stderr as {@code jinx: [level] message}. With no file ({@code -e stderr}), or when the file cannot be
     * opened, which is said on stderr, the log's own lines go to stderr instead, and nothing else: nginx's
     * {@code ngx_log_init()} then makes stderr the log's file, and {@code ngx_log_error_core()} skips the
     * {@code nginx: [level]} copy once a line was written to stderr.
     *
     * @param stderr the stream standing for stderr
     * @param file the default error log, or null for stderr
     * @return the log
     */
    public static ErrorLog early(PrintStream stderr, Path file) {
        FileChannel channel = null;
        if (file != null) {
            try {
                channel = openFile(file);
            } catch (IOException e) {
                stderr.print("jinx: [alert] could not open error log file: " + e.getMessage() + "\n");
                stderr.flush();
            }
        }
        Path target = channel != null ? file : null;
        return new ErrorLog(List.of(new Sink(new Target(target, LogLevel.NOTICE), channel)), true, stderr);
    }

    /**
     * Opens (creating, appending to) the files of {@code targets}.
     *
     * @param targets where to write
     * @param stderr the stream standing for stderr
     * @return the log
     * @throws IOException when a file cannot be opened; the message names the file
     */
    public static ErrorLog open(List<Target> targets, PrintStream stderr) throws IOException {
        return open(targets, stderr, null);
    }

    /**
     * Opens (creating, appending to) the files of {@code targets} as files of {@code cycle}
     * ({@link Cycle#openFile}): a worker reloading in place as another user writes to the master's. Added in
     * SPI 1.4.
     *
     * @param targets where to write
     * @param stderr the stream standing for stderr
     * @param cycle the cycle the log belongs to, or null to open the files directly
     * @return the log
     * @throws IOException when a file cannot be opened; the message names the file
     */
    public static ErrorLog open(List<Target> targets, PrintStream stderr, Cycle cycle) throws IOException {
        List<Sink> sinks = new ArrayList<>();
        try {
            for (Target t : targets) {
                WritableByteChannel ch = null;
                if (t.file() != null) {
                    ch = cycle != null ? cycle.openFile(t.file()) : openFile(t.file());
                }
                sinks.add(new Sink(t, ch));
            }
        } catch (IOException e) {
            closeAll(sinks);
            throw e;
        }
        return new ErrorLog(List.copyOf(sinks), false, stderr);
    }

    private static FileChannel openFile(Path file) throws IOException {
        try {
            return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new IOException("open() \"" + file + "\" failed (" + IoErrors.reason(e) + ")", e);
        }
    }

    /**
     * Returns where this log writes, the early log's {@code jinx: [level]} copies on stderr not counted.
     *
     * @return the targets
     */
    public List<Target> targets() {
        List<Target> targets = new ArrayList<>();
        for (Sink s : sinks) {
            targets.add(s.target);
        }
        return targets;
    }

    /**
     * Tells whether a message of {@code level} would be written anywhere.
     *
     * @param level the level
     * @return true when some target takes it
     */
    public boolean isEnabled(LogLevel level) {
        return level.ordinal() <= mostVerbose;
    }

    /**
     * Writes a message.
     *
     * @param level the level
     * @param message the message
     */
    public void log(LogLevel level, String message) {
        log(level, 0, message);
    }

    /**
     * Writes a message about a connection, marked {@code *N} as nginx does.
     *
     * @param level the level
     * @param connection the connection number, or 0 for none
     * @param message the message
     */
    public void log(LogLevel level, long connection, String message) {
        if (!isEnabled(level)) {
            return;
        }
        if (early && level.compareTo(LogLevel.WARN) <= 0 && sinks.get(0).target.file() != null) {
            stderr.print("jinx: [" + level.label() + "] " + message + "\n");
            stderr.flush();
        }
        StringBuilder line = new StringBuilder(64 + message.length());
        line.append(LocalDateTime.now().format(TIME)).append(" [").append(level.label()).append("] ")
            .append(pid).append('#').append(Thread.currentThread().getId()).append(": ");
        if (connection != 0) {
            line.append('*').append(connection).append(' ');
        }
        line.append(message).append('\n');
        byte[] bytes = line.toString().getBytes(StandardCharsets.ISO_8859_1);
        for (Sink s : sinks) {
            if (level.compareTo(s.target.level()) <= 0) {
                s.write(bytes, stderr);
            }
        }
    }

    /**
     * Returns the system's text of an errno as nginx prints it after a message ({@code Connection refused}), for a
     * module that logs {@code upstream timed out (110: Connection timed out)} without the OS layer. Added in
     * SPI 1.4.
     *
     * @param errno the error number
     * @return the text
     */
    public static String strerror(int errno) {
        return jinx.kernel.os.Errors.text(errno);
    }

    /**
     * Writes an {@code emerg} message.
     *
     * @param message the message
     */
    public void emerg(String message) {
        log(LogLevel.EMERG, message);
    }

    /**
     * Writes an {@code alert} message.
     *
     * @param message the message
     */
    public void alert(String message) {
        log(LogLevel.ALERT, message);
    }

    /**
     * Writes an {@code error} message.
     *
     * @param message the message
     */
    public void error(String message) {
        log(LogLevel.ERROR, message);
    }

    /**
     * Writes a {@code warn} message.
     *
     * @param message the message
     */
    public void warn(String message) {
        log(LogLevel.WARN, message);
    }

    /**
     * Writes a {@code notice} message.
     *
     * @param message the message
     */
    public void notice(String message) {
        log(LogLevel.NOTICE, message);
    }

    /**
     * Reopens every file, for log rotation (USR1): the old file, renamed, is closed; the name is created anew.
     *
     * @throws IOException when a file cannot be reopened; the others are reopened all the same
     */
    public void reopen() throws IOException {
        IOException failure = null;
        for (Sink s : sinks) {
            if (s.target.file() == null) {
                continue;
            }
            try {
                s.swap(openFile(s.target.file()));
            } catch (IOException e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Points {@code System.err} at the first file of this log, so what libraries print there (slf4j-simple
     * writes to stderr) lands in the error log, as nginx points its stderr at its error log. Does nothing when
     * the log has no file.
     */
    public void captureStderr() {
        for (Sink s : sinks) {
            if (s.target.file() != null) {
                System.setErr(new PrintStream(new SinkStream(s), true, StandardCharsets.ISO_8859_1));
                return;
            }
        }
    }

    /**
     * Closes every file.
     */
    public void close() {
        closeAll(sinks);
    }

    private static void closeAll(List<Sink> sinks) {
        for (Sink s : sinks) {
            s.close();
        }
    }

    private static final class Sink {
        final Target target;
        private WritableByteChannel channel;

        Sink(Target target, WritableByteChannel channel) {
            this.target = target;
            this.channel = channel;
        }

        synchronized void write(byte[] bytes, PrintStream stderr) {
            if (channel == null) {
                stderr.write(bytes, 0, bytes.length);
                stderr.flush();
                return;
            }
            try {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    channel.write(buf);
                }
            } catch (IOException e) {
                // nothing better to do than nginx: the write is lost, the server goes on
            }
        }

        synchronized void swap(WritableByteChannel fresh) {
            close();
            channel = fresh;
        }

        synchronized void close() {
            if (channel == null) {
                return;
            }
            try {
                channel.close();
            } catch (IOException e) {
                // closing a log file cannot be helped further
            }
        }
    }

    private static final class SinkStream extends OutputStream {
        private final Sink sink;

        SinkStream(Sink sink) {
            this.sink = sink;
        }

        @Override
        public void write(int b) {
            sink.write(new byte[] {(byte) b}, System.out);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            byte[] copy = new byte[len];
            System.arraycopy(b, off, copy, 0, len);
            sink.write(copy, System.out);
        }
    }
}
