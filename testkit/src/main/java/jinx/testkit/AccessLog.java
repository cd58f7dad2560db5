package jinx.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The access log of the server under test, {@code logs/access.log} under the kit's prefix (nginx's default
 * {@code access_log logs/access.log combined}, which the kit's configuration keeps unless a snippet sets another
 * one). A line is written when a request is finalized, which may be after its response reached the client:
 * {@link #await(int)} waits for it.
 */
public final class AccessLog {

    private final JinxExtension kit;
    private final Path file;

    AccessLog(JinxExtension kit, Path file) {
        this.kit = kit;
        this.file = file;
    }

    /**
     * Returns the log's path.
     *
     * @return the file
     */
    public Path file() {
        return file;
    }

    /**
     * Returns the lines written so far.
     *
     * @return the lines, without their newlines; empty when the file does not exist (yet)
     * @throws IOException when the file cannot be read
     */
    public List<String> lines() throws IOException {
        try {
            return List.of(Files.readString(file, StandardCharsets.ISO_8859_1).split("\n", -1)).stream()
                .filter(l -> !l.isEmpty()).toList();
        } catch (NoSuchFileException e) {
            return List.of();
        }
    }

    /**
     * Waits until the log holds at least {@code n} lines, for at most {@link JinxClient#QUIET_MS} (in memory the
     * loop is turned meanwhile), and returns the last one.
     *
     * @param n the number of lines
     * @return the {@code n}th line
     * @throws IOException when the file cannot be read
     * @throws AssertionError when the lines do not come
     */
    public String await(int n) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JinxClient.QUIET_MS);
        List<String> lines = lines();
        while (lines.size() < n) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(n + " lines expected in " + file + ", " + lines.size() + " there:\n"
                    + String.join("\n", lines));
            }
            kit.pause();
            lines = lines();
        }
        return lines.get(n - 1);
    }

    /**
     * Waits until a line holding {@code text} is in the log, for at most {@link JinxClient#QUIET_MS}, and returns
     * it: the server writes a request's line after the response was sent, so the line of an earlier request can
     * still arrive after a count of lines was taken, and waiting for a count would then return that one.
     *
     * @param text what the line holds ({@code "GET /hello?x HTTP/1.1"})
     * @return the first line holding it
     * @throws IOException when the file cannot be read
     * @throws AssertionError when no such line comes
     */
    public String await(String text) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JinxClient.QUIET_MS);
        for (;;) {
            List<String> lines = lines();
            for (String line : lines) {
                if (line.contains(text)) {
                    return line;
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no line with \"" + text + "\" in " + file + ":\n"
                    + String.join("\n", lines));
            }
            kit.pause();
        }
    }
}
