package jinx.stream.spi;

import java.util.function.Consumer;

import jinx.kernel.spi.ConfScope;
import jinx.stream.StreamSession;

/**
 * The scope of a block inside {@code stream {}} ({@code stream}, {@code server}, {@code upstream}): what
 * {@link StreamConfig#of} and {@link StreamConfig#contentHandler} read from a directive's context.
 */
public interface StreamScope extends ConfScope {

    /**
     * Returns the block's configuration.
     *
     * @return the configuration
     */
    StreamConfig config();

    /**
     * Sets the content handler of the server this scope is.
     *
     * @param handler the handler
     * @throws IllegalStateException outside {@code server {}}
     */
    void contentHandler(Consumer<StreamSession> handler);
}
