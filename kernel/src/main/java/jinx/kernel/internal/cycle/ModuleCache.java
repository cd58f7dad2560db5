package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The content-addressed module cache, {@code <prefix>/cache/modules}: a {@code load_module} jar is copied to
 * {@code <sha256>/<its file name>} (an automatic module's name comes from the file name), a directory of jars to
 * a directory {@code <sha256>/} holding them, once; a copy whose name exists and whose content still has that
 * hash is used as it is. The master loads the copy and names it in the snapshot, so replacing the jar on disk
 * cannot make the master and its workers, or two workers, run different code. Each file is read once and written
 * from memory, so the hash is the hash of what was copied.
 */
public final class ModuleCache {

    /** The cache's directory, relative to the prefix. */
    public static final String DIR = "cache/modules";

    private static final String JAR = ".jar";

    private ModuleCache() {
    }

    /**
     * A jar in the cache.
     *
     * @param cached the copy: {@code <sha256>/<file name>}, or the directory {@code <sha256>}
     * @param sha256 the content's hash, lower-case hex
     */
    public record Entry(Path cached, String sha256) {
    }

    /**
     * Copies a jar, or the jars of a directory, into the cache, or finds the copy made before.
     *
     * @param prefix the prefix the cache lies under
     * @param source the jar or directory named by {@code load_module}
     * @return the copy
     * @throws IOException when the source cannot be read or the cache written
     */
    public static Entry store(Path prefix, Path source) throws IOException {
        Path dir = Files.createDirectories(prefix.resolve(DIR));
        if (Files.isDirectory(source)) {
            Map<String, byte[]> jars = readJars(source);
            String sha = digest(jars);
            Path target = dir.resolve(sha);
            if (!Files.isDirectory(target) || !sha.equals(digest(target))) {
                storeDirectory(dir, target, jars);
            }
            return new Entry(target, sha);
        }
        byte[] content = Files.readAllBytes(source);
        String sha = digest(content);
        // the jar keeps its file name: an automatic module's name is derived from it (a hash is no module name)
        Path target = Files.createDirectories(dir.resolve(sha)).resolve(source.getFileName());
        if (!Files.isRegularFile(target) || !sha.equals(digest(target))) {
            Path tmp = Files.createTempFile(target.getParent(), sha, ".tmp");
            try {
                Files.write(tmp, content);
                move(tmp, target, true);
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
        return new Entry(target, sha);
    }

    /**
     * Hashes a copy in the cache again, as a worker does before it loads it.
     *
     * @param cached a jar or a directory of jars
     * @return the hash, lower-case hex
     * @throws IOException when it cannot be read
     */
    public static String digest(Path cached) throws IOException {
        return Files.isDirectory(cached) ? digest(readJars(cached)) : digest(Files.readAllBytes(cached));
    }

    /** The {@code *.jar} files directly in a directory, by name: what {@code ModuleFinder.of(dir)} loads. */
    private static Map<String, byte[]> readJars(Path dir) throws IOException {
        Map<String, byte[]> jars = new TreeMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*" + JAR)) {
            for (Path entry : entries) {
                if (Files.isRegularFile(entry)) {
                    jars.put(entry.getFileName().toString(), Files.readAllBytes(entry));
                }
            }
        }
        return jars;
    }

    private static void storeDirectory(Path dir, Path target, Map<String, byte[]> jars) throws IOException {
        Path tmp = Files.createTempDirectory(dir, target.getFileName() + ".tmp");
        try {
            for (Map.Entry<String, byte[]> e : jars.entrySet()) {
                Files.write(tmp.resolve(e.getKey()), e.getValue());
            }
            if (Files.exists(target)) {
                // a damaged copy: the name promises content it no longer has
                deleteTree(target);
            }
            move(tmp, target, false);
        } finally {
            deleteTree(tmp);
        }
    }

    /** rename(2): the copy appears whole or not at all, even to a worker or another master looking now. */
    private static void move(Path from, Path to, boolean replace) throws IOException {
        try {
            if (replace) {
                Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
            // another master stored the same content meanwhile: its copy is as good as ours
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("rename() \"" + from + "\" to \"" + to + "\" failed (" + e.getMessage() + ")", e);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        List<Path> paths = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(paths::add);
        }
        for (Path p : paths) {
            Files.deleteIfExists(p);
        }
    }

    private static String digest(byte[] content) {
        MessageDigest md = sha256();
        return HexFormat.of().formatHex(md.digest(content));
    }

    /** Names and lengths go into the hash too, so two directories hash alike only when they hold the same jars. */
    private static String digest(Map<String, byte[]> jars) {
        MessageDigest md = sha256();
        for (Map.Entry<String, byte[]> e : jars.entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            md.update(ByteBuffer.allocate(12).putInt(name.length).putLong(e.getValue().length).array());
            md.update(name);
            md.update(e.getValue());
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // every Java platform must provide SHA-256 (MessageDigest's Javadoc)
            throw new IllegalStateException(e);
        }
    }
}
