package jinx.stream.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.Rc;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Directive;
import jinx.stream.StreamPhase;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamConfig;

/**
 * nginx's {@code ngx_stream_set_module}: {@code set $variable value;} in a server, evaluated in the preaccess
 * phase in the order written; the variable is defined for the whole block and has no value where no
 * {@code set} gave it one.
 */
public final class StreamSetModule extends StreamModuleBase {

    /** The module's name. */
    public static final String NAME = "stream_set";

    /** A server's assignments. */
    static final class SrvConf {
        final List<Assignment> sets = new ArrayList<>();
    }

    record Assignment(String name, StreamValue value) {
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("set", Set.of(SRV), Arity.TAKE2, SrvConf.class, StreamSetModule::set).multi()
            .syntax("$variable value").describe("Sets a value for the specified variable."));

    private int index;

    /**
     * The module; the kernel makes one per cycle.
     */
    public StreamSetModule() {
        super(NAME, DIRECTIVES);
    }

    @Override
    public Object createSrvConf() {
        return new SrvConf();
    }

    @Override
    public void postconfiguration(StreamConfig cf) {
        index = ((StreamBlock) cf).indexOf(this);
        cf.addPhaseHandler(StreamPhase.PREACCESS, this::handler);
    }

    private static void set(ConfContext cf, SrvConf conf) throws ConfException {
        String name = StreamBlock.variableName(cf.arg(1));
        StreamBlock block = ((BlockScope) cf.scope()).block;
        if (!block.variables.containsKey(name)) {
            block.addVariable(name, s -> {
                var set = ((Session) s).setVariables;
                return set == null ? null : set.get(name);
            });
        } else if (!block.changeable.contains(name)) {
            throw new ConfException("the duplicate \"" + name + "\" variable");
        }
        block.changeable.add(name);
        conf.sets.add(new Assignment(name, StreamValue.compile(block, cf.arg(2))));
    }

    /** nginx's {@code ngx_stream_set_handler()}. */
    private int handler(StreamSession s) {
        List<Assignment> sets = ((SrvConf) ((Session) s).srvConf(index)).sets;
        if (sets.isEmpty()) {
            return Rc.DECLINED;
        }
        Session session = (Session) s;
        for (Assignment a : sets) {
            if (session.setVariables == null) {
                session.setVariables = new HashMap<>();
            }
            session.setVariables.put(a.name(), a.value().evaluate(s));
        }
        return Rc.DECLINED;
    }
}
