package jinx.kernel.spi;

import java.nio.file.Path;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.LogLevel;

/**
 * The parser's state as a directive handler sees it: nginx's {@code ngx_conf_t}. Valid only during the call
 * that received it.
 *
 * <p>Configuration text is read as ISO-8859-1, byte for byte as nginx reads it: a UTF-8 string in the
 * configuration keeps its bytes when it is written back out as ISO-8859-1.
 */
public interface ConfContext {

    /**
     * Returns the words of the current directive, its name first (nginx's {@code cf->args}).
     *
     * @return the words
     */
    List<String> args();

    /**
     * Returns one word of the current directive; 0 is its name.
     *
     * @param i the word's index
     * @return the word
     */
    default String arg(int i) {
        return args().get(i);
    }

    /**
     * Returns the current directive's name.
     *
     * @return the name
     */
    default String name() {
        return args().get(0);
    }

    /**
     * Returns the cycle being built.
     *
     * @return the cycle
     */
    Cycle cycle();

    /**
     * Returns the scope of the block the directive stands in.
     *
     * @return the scope
     */
    ConfScope scope();

    /**
     * Parses the block that the current directive opens, up to its {@code }}, with {@code scope}; then the
     * previous scope is in force again. Block directives call this once.
     *
     * @param scope the block's scope
     * @throws ConfException for any error in the block, with its place
     */
    void parseBlock(ConfScope scope) throws ConfException;

    /**
     * Parses another file in the current scope, as {@code include} does.
     *
     * @param file the absolute file
     * @throws ConfException for any error in the file, with its place
     */
    void parseFile(Path file) throws ConfException;

    /**
     * Resolves a path relative to the prefix ({@code -p}), as nginx does for logs, the pid file and roots.
     *
     * @param path the path as written
     * @return the absolute path
     * @throws java.nio.file.InvalidPathException for a name the file system refuses (a NUL byte); the dispatcher
     *     reports it as {@code "x" directive invalid value} at the directive's line
     */
    Path resolve(String path);

    /**
     * Resolves a path relative to the configuration prefix, the directory of the main configuration file, as
     * nginx does for {@code include}.
     *
     * @param path the path as written
     * @return the absolute path
     * @throws java.nio.file.InvalidPathException for a name the file system refuses (a NUL byte); the dispatcher
     *     reports it as {@code "x" directive invalid value} at the directive's line
     */
    Path resolveConf(String path);

    /**
     * Returns the absolute name of the file being parsed.
     *
     * @return the file name
     */
    String file();

    /**
     * Returns the line the parser is at.
     *
     * @return the line, from 1
     */
    int line();

    /**
     * Logs a message with the current place appended ({@code ... in /etc/jinx/jinx.conf:7}), as nginx's
     * {@code ngx_conf_log_error()}.
     *
     * @param level the level
     * @param message the message
     */
    void log(LogLevel level, String message);
}
