package jinx.stream.internal;

import java.util.function.Consumer;

import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamConfig;
import jinx.stream.spi.StreamModule;
import jinx.stream.spi.StreamScope;

/**
 * The scope of {@code stream {}} or of one of its {@code server {}} and {@code upstream {}} blocks: a directive's
 * conf is the module's main conf or its server conf there, whichever is of the directive's conf type (nginx's
 * {@code NGX_STREAM_MAIN_CONF_OFFSET} and {@code NGX_STREAM_SRV_CONF_OFFSET}); {@code upstream {}} directives find
 * the group being defined in {@link #group}.
 */
final class BlockScope implements StreamScope {

    private final Ctx ctx;
    final StreamBlock block;
    final Object[] srvConfs;
    final Object group;

    BlockScope(Ctx ctx, StreamBlock block, Object[] srvConfs, Object group) {
        this.ctx = ctx;
        this.block = block;
        this.srvConfs = srvConfs;
        this.group = group;
    }

    @Override
    public Ctx ctx() {
        return ctx;
    }

    @Override
    public ModuleType moduleType() {
        return StreamModule.STREAM;
    }

    @Override
    public Object conf(JinxModule module, Class<?> type) {
        int i = block.indexOf(module);
        if (type.isInstance(group)) {
            return group;
        }
        Object main = block.mainConfs[i];
        if (type.isInstance(main)) {
            return main;
        }
        Object srv = srvConfs[i];
        return type.isInstance(srv) ? srv : null;
    }

    @Override
    public StreamConfig config() {
        return block;
    }

    @Override
    public void contentHandler(Consumer<StreamSession> handler) {
        if (ctx != StreamModule.SRV && !ctx.equals(StreamModule.SRV)) {
            throw new IllegalStateException("a content handler is a server's");
        }
        block.coreSrv(srvConfs).handler = handler;
    }
}
