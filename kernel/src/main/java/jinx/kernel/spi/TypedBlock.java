package jinx.kernel.spi;

import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.LoadedModule;

/**
 * A block that holds the modules of one type, as {@code events {}} holds the event modules: nginx's
 * {@code ngx_events_block()}. The owning core module declares
 *
 * <pre>{@code
 * Directive.of("events", Set.of(Ctx.MAIN), Arity.BLOCK | Arity.NOARGS, TypedConfs.class,
 *              TypedBlock.handler(EVENT, EVENTS))
 * }</pre>
 *
 * <p>and returns {@code new TypedConfs(EVENT)} from its {@link CoreModule#createConf}. The modules of the type
 * give a {@link CoreModule} as their {@link JinxModule#context()}: the block creates their confs, parses its
 * contents with their directives, then calls their {@code initConf}. Opening the block fixes the module list.
 */
public final class TypedBlock {

    private TypedBlock() {
    }

    /**
     * Returns the handler of a block directive holding the modules of {@code type}, whose contents are the
     * context {@code ctx}.
     *
     * @param type the type of the modules inside
     * @param ctx the context the block's directives must allow
     * @return the handler
     */
    public static DirectiveHandler<TypedConfs> handler(ModuleType type, Ctx ctx) {
        return (cf, confs) -> parse(cf, confs, type, ctx);
    }

    private static void parse(ConfContext cf, TypedConfs confs, ModuleType type, Ctx ctx) throws ConfException {
        Cycle cycle = cf.cycle();
        List<LoadedModule> modules = cycle.modules(type);
        int size = 0;
        for (LoadedModule m : modules) {
            size = Math.max(size, m.typeIndex() + 1);
        }
        Object[] created = new Object[size];
        for (LoadedModule m : modules) {
            CoreModule ctxModule = contextOf(m);
            if (ctxModule != null) {
                created[m.typeIndex()] = ctxModule.createConf(cycle);
            }
        }
        confs.set(created);
        cf.parseBlock(new Scope(ctx, type, cycle, created));
        for (LoadedModule m : modules) {
            CoreModule ctxModule = contextOf(m);
            if (ctxModule != null) {
                ctxModule.initConf(cycle, created[m.typeIndex()]);
            }
        }
    }

    private static CoreModule contextOf(LoadedModule m) {
        return m.module().context() instanceof CoreModule c ? c : null;
    }

    private record Scope(Ctx ctx, ModuleType moduleType, Cycle cycle, Object[] confs) implements ConfScope {

        @Override
        public Object conf(JinxModule module, Class<?> type) {
            Object conf = confs[cycle.entry(module).typeIndex()];
            return type.isInstance(conf) ? conf : null;
        }
    }
}
