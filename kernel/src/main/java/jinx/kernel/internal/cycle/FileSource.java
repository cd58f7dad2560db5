package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import jinx.kernel.ConfException;

/**
 * Where a cycle's configuration comes from: the parser's files, {@code include}'s glob expansions and
 * {@code load_module}'s jars. A master reads the disk ({@link #disk()}, recording what it read); a worker replays
 * the master's {@link ConfSnapshot} and never touches the configuration on disk. nginx needs no such thing: its
 * workers inherit the parsed cycle through {@code fork()}.
 *
 * <p>Modules do not see it: they call {@link jinx.kernel.spi.ConfContext} as before; the parser, the kernel's
 * {@code include} and {@code load_module} ask the cycle being built for its source.
 */
public interface FileSource {

    /**
     * Reads a configuration file whole.
     *
     * @param file the absolute file, as the parser was given it
     * @return its bytes
     * @throws IOException when the disk cannot give it (the parser words it as nginx's {@code open() failed})
     * @throws ConfException when a snapshot does not hold this file next
     */
    byte[] read(Path file) throws IOException, ConfException;

    /**
     * Expands an {@code include} pattern: the matching files in sorted order, none when nothing matches.
     *
     * @param pattern the absolute pattern
     * @return the files
     * @throws ConfException when a directory cannot be read, or a snapshot does not hold this pattern next
     */
    List<Path> glob(Path pattern) throws ConfException;

    /**
     * Returns what {@code load_module} loads for a jar (or directory of jars) named in the configuration: the
     * path itself, or its copy in the content-addressed module cache.
     *
     * @param path the jar or directory, absolute, as the directive named it
     * @return the path to load from
     * @throws ConfException when the jar cannot be copied into the cache, or a snapshot does not hold it
     */
    Path moduleJar(Path path) throws ConfException;

    /**
     * Returns the disk as the kernel always read it: the file as it is now, no cache.
     *
     * @return the disk
     */
    static FileSource disk() {
        return DiskFiles.INSTANCE;
    }
}
