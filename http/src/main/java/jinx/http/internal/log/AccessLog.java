package jinx.http.internal.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import jinx.http.HttpRequest;
import jinx.http.spi.ComplexValue;
import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;

/**
 * One {@code access_log}: where it writes, in which format, and its {@code if=} condition; nginx's
 * {@code ngx_http_log_t}. A path with variables is evaluated per request and the file opened, written and closed
 * each time (nginx keeps such files in {@code open_log_file_cache}, which Jinx does not have yet).
 */
final class AccessLog {

    private final LogFile file;
    private final ComplexValue script;
    private final LogFormat format;
    private final ComplexValue filter;

    /**
     * A log to a file opened at configuration time.
     *
     * @param file the file
     * @param format the format
     * @param filter the {@code if=} condition, or null
     */
    AccessLog(LogFile file, LogFormat format, ComplexValue filter) {
        this(file, null, format, filter);
    }

    private AccessLog(LogFile file, ComplexValue script, LogFormat format, ComplexValue filter) {
        this.file = file;
        this.script = script;
        this.format = format;
        this.filter = filter;
    }

    /**
     * A log whose path has variables.
     *
     * @param script the absolute path, compiled
     * @param format the format
     * @param filter the {@code if=} condition, or null
     * @return the log
     */
    static AccessLog script(ComplexValue script, LogFormat format, ComplexValue filter) {
        return new AccessLog(null, script, format, filter);
    }

    LogFile file() {
        return file;
    }

    LogFormat format() {
        return format;
    }

    /**
     * Writes the request's line unless {@code if=} says no: an empty value or {@code "0"} skips it.
     *
     * @param r the request
     */
    void log(HttpRequest r) {
        if (filter != null) {
            String v = filter.evaluate(r);
            if (v.isEmpty() || v.equals("0")) {
                return;
            }
        }
        StringBuilder line = new StringBuilder(256);
        format.render(r, line);
        line.append('\n');
        byte[] bytes = latin1(line);
        if (r.connection() != null && r.connection().warmUp) {
            // rendered, so that the warm-up compiles the format too, and not written
            return;
        }
        if (file != null) {
            file.write(bytes, r.loop(), r.log());
            return;
        }
        writeScript(r, bytes);
    }

    private void writeScript(HttpRequest r, byte[] bytes) {
        String name = script.evaluate(r);
        try (FileChannel ch = FileChannel.open(Path.of(name), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.APPEND)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
        } catch (IOException | InvalidPathException e) {
            ErrorLog log = r.log();
            if (log != null) {
                String why = e instanceof IOException io ? LogFile.reason(io) : e.getMessage();
                log.log(LogLevel.CRIT, "open() \"" + name + "\" failed (" + why + ")");
            }
        }
    }

    /**
     * Encodes a line of one-byte chars.
     *
     * @param line the line
     * @return its bytes
     */
    static byte[] latin1(CharSequence line) {
        byte[] bytes = new byte[line.length()];
        for (int i = 0; i < bytes.length; i++) {
            char c = line.charAt(i);
            bytes[i] = c <= 0xff ? (byte) c : (byte) '?';
        }
        return bytes;
    }
}
