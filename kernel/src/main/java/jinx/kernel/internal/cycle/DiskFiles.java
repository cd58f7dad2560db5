package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;

import jinx.kernel.ConfException;

/**
 * The configuration on disk, as the kernel read it before snapshots: files read whole, globs expanded component
 * by component in sorted order, hidden files only when the pattern names them, as glob(3) does
 * ({@code ngx_open_glob()} in src/os/unix/ngx_files.c), and jars loaded where they lie.
 */
final class DiskFiles implements FileSource {

    static final DiskFiles INSTANCE = new DiskFiles();

    private DiskFiles() {
    }

    @Override
    public byte[] read(Path file) throws IOException {
        return Files.readAllBytes(file);
    }

    @Override
    public Path moduleJar(Path path) {
        return path;
    }

    /** Expands a pattern component by component, so wildcards may stand in directory names too. */
    @Override
    public List<Path> glob(Path pattern) throws ConfException {
        Path root = pattern.getRoot();
        List<Path> found = new ArrayList<>();
        found.add(root != null ? root : Path.of(""));
        for (Path part : pattern.normalize()) {
            String component = part.toString();
            List<Path> next = new ArrayList<>();
            for (Path dir : found) {
                if (!isGlob(component)) {
                    Path child = dir.resolve(component);
                    if (Files.exists(child)) {
                        next.add(child);
                    }
                    continue;
                }
                next.addAll(matches(dir, component));
            }
            found = next;
        }
        found.sort(null);
        return found;
    }

    /**
     * Tells whether a name holds a wildcard: {@code *}, {@code ?} or {@code [}.
     *
     * @param name the name
     * @return true for a pattern
     */
    static boolean isGlob(String name) {
        return name.indexOf('*') >= 0 || name.indexOf('?') >= 0 || name.indexOf('[') >= 0;
    }

    private static List<Path> matches(Path dir, String component) throws ConfException {
        List<Path> list = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return list;
        }
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + component);
        boolean hidden = component.startsWith(".");
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                Path name = entry.getFileName();
                if (matcher.matches(name) && (hidden || !name.toString().startsWith("."))) {
                    list.add(entry);
                }
            }
        } catch (IOException e) {
            throw new ConfException("glob() \"" + dir.resolve(component) + "\" failed (" + e.getMessage() + ")");
        }
        return list;
    }
}
