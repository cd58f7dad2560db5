package jinx.stream.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.LoadedModule;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.CoreModule;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.stream.spi.StreamModule;

/**
 * The {@code stream} module: the core module that owns {@code stream {}} and so defines the stream module type,
 * nginx's {@code ngx_stream_module} with {@code ngx_stream_block()}: the block creates every stream module's
 * confs, calls {@code preconfiguration}, parses its contents, calls {@code initMainConf}, merges every server,
 * calls {@code postconfiguration}, checks the variables, builds the phase engine and adds the listening sockets.
 */
public final class StreamBlockModule implements JinxModule, CoreModule {

    /** The module's name. */
    public static final String NAME = "stream";

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("stream", Set.of(Ctx.MAIN), Arity.BLOCK | Arity.NOARGS, Holder.class, StreamBlockModule::block)
            .syntax("{ ... }").describe("Provides the configuration file context in which the stream server "
                + "directives are specified."));

    /** The block's state, held in the cycle as this module's conf. */
    static final class Holder {
        StreamBlock block;
    }

    /**
     * The module; the kernel makes one per cycle.
     */
    public StreamBlockModule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return ModuleType.CORE;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
    }

    @Override
    public List<Directive<?>> directives() {
        return DIRECTIVES;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public Object createConf(Cycle cycle) {
        return new Holder();
    }

    @Override
    public List<String> report(Cycle cycle) {
        Holder h = cycle.conf(this, Holder.class);
        if (h == null || h.block == null || h.block.engine == null) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        for (String d : h.block.engine.describe()) {
            lines.add("stream phase " + d);
        }
        return lines;
    }

    private static void block(ConfContext cf, Holder holder) throws ConfException {
        Cycle cycle = cf.cycle();
        StreamBlock block = new StreamBlock(cycle);
        holder.block = block;
        for (LoadedModule m : block.modules) {
            StreamModule sm = block.contexts[m.typeIndex()];
            if (sm != null) {
                sm.preconfiguration(block);
            }
        }
        cf.parseBlock(new BlockScope(StreamModule.MAIN, block, block.srvConfs, null));
        for (LoadedModule m : block.modules) {
            int mi = m.typeIndex();
            StreamModule sm = block.contexts[mi];
            if (sm == null) {
                continue;
            }
            if (block.mainConfs[mi] != null) {
                sm.initMainConf(block.mainConfs[mi]);
            }
            for (StreamCoreSrvConf cscf : block.servers) {
                if (block.srvConfs[mi] != null) {
                    sm.mergeSrvConf(block.srvConfs[mi], cscf.ctx[mi]);
                }
            }
        }
        for (LoadedModule m : block.modules) {
            StreamModule sm = block.contexts[m.typeIndex()];
            if (sm != null) {
                sm.postconfiguration(block);
            }
        }
        block.checkVariables();
        block.engine = new PhaseEngine(block);
        StreamListen.addListening(block, new SessionHandler(block));
    }
}
