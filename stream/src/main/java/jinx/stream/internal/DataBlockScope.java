package jinx.stream.internal;

import java.util.function.Consumer;

import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamConfig;
import jinx.stream.spi.StreamScope;

/**
 * A block of data lines inside {@code stream {}} ({@code map {}}, {@code geo {}}, {@code split_clients {}}): every
 * line goes to the block's own handler instead of the directive dispatcher, nginx's {@code cf->handler}.
 */
record DataBlockScope(BlockScope outer, LineHandler lines) implements StreamScope {

    @Override
    public Ctx ctx() {
        return outer.ctx();
    }

    @Override
    public ModuleType moduleType() {
        return outer.moduleType();
    }

    @Override
    public Object conf(JinxModule module, Class<?> type) {
        return outer.conf(module, type);
    }

    @Override
    public StreamConfig config() {
        return outer.block;
    }

    @Override
    public void contentHandler(Consumer<StreamSession> handler) {
        throw new IllegalStateException("a block of data has no content handler");
    }

    @Override
    public LineHandler lineHandler() {
        return lines;
    }
}
