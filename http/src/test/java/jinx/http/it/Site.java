package jinx.http.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A server's prefix in a temporary directory: {@code conf/} (with the distribution's {@code mime.types}),
 * {@code logs/} and {@code html/}, and the files a test puts there. Paths in configurations are relative to it,
 * so nginx and Jinx can be given the same configuration text and each its own copy of the same files.
 */
final class Site implements AutoCloseable {

    /** A fixed modification time for the files, so that two copies of a site agree on Last-Modified. */
    static final Instant MTIME = Instant.parse("2024-01-02T03:04:05Z");
    /** {@link #MTIME} as HTTP writes it. */
    static final String MTIME_HTTP = "Tue, 02 Jan 2024 03:04:05 GMT";

    private final Path root;

    private Site(Path root) {
        this.root = root;
    }

    /**
     * Creates an empty site.
     *
     * @return the site
     * @throws IOException when the directories cannot be made
     */
    static Site create() throws IOException {
        Path root = Files.createTempDirectory("jinx-it");
        Files.createDirectories(root.resolve("conf"));
        Files.createDirectories(root.resolve("logs"));
        Files.createDirectories(root.resolve("html"));
        Files.copy(distribution().resolve("conf/mime.types"), root.resolve("conf/mime.types"));
        return new Site(root);
    }

    /**
     * Returns the distribution's root (the repository): {@code -Djinx.distribution}, else the parent of the
     * working directory (Maven runs the tests in {@code http/}).
     *
     * @return the directory
     */
    static Path distribution() {
        String dir = System.getProperty("jinx.distribution");
        Path path = dir != null ? Path.of(dir) : Path.of(System.getProperty("user.dir")).resolve("..");
        return path.toAbsolutePath().normalize();
    }

    /**
     * Picks a port nobody listens on now on 127.0.0.1, for servers that need the number in their configuration
     * (nginx refuses port 0). Jinx's own tests listen on {@code 127.0.0.1:0} where they can.
     *
     * @return the port
     */
    static int freePort() {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Returns the prefix.
     *
     * @return the directory
     */
    Path root() {
        return root;
    }

    /**
     * Writes a file under the prefix (its directories made), one byte per char, with {@link #MTIME}.
     *
     * @param path the path relative to the prefix
     * @param content the content
     * @return the file
     */
    Path write(String path, String content) {
        return write(path, content.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * Writes a file under the prefix (its directories made), with {@link #MTIME}.
     *
     * @param path the path relative to the prefix
     * @param content the content
     * @return the file
     */
    Path write(String path, byte[] content) {
        try {
            Path file = root.resolve(path);
            Files.createDirectories(file.getParent());
            Files.write(file, content);
            Files.setLastModifiedTime(file, FileTime.from(MTIME));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Makes a directory under the prefix.
     *
     * @param path the path relative to the prefix
     * @return the directory
     */
    Path mkdir(String path) {
        try {
            return Files.createDirectories(root.resolve(path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads a file under the prefix, one char per byte; empty when it does not exist.
     *
     * @param path the path relative to the prefix
     * @return the text
     */
    String read(String path) {
        try {
            Path file = root.resolve(path);
            return Files.exists(file) ? Files.readString(file, StandardCharsets.ISO_8859_1) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes the prefix and everything in it (symbolic links are not followed). */
    @Override
    public void close() {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
