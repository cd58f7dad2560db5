package jinx.http.internal.core;

import jinx.http.spi.BodyFilter;
import jinx.http.spi.ComplexValue;
import jinx.http.spi.ConnectionTakeover;
import jinx.http.spi.HeaderFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.Phase;
import jinx.http.spi.PhaseHandler;
import jinx.http.spi.VariableGetter;
import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.LoadedModule;
import jinx.kernel.spi.JinxModule;

/**
 * What HTTP modules see in {@code preconfiguration} and {@code postconfiguration}: the {@link HttpConfig} of one
 * {@code http {}} block. It knows which module it is calling, so that a filter or handler is registered under that
 * module's name (for {@code jinx -m}) and in module order.
 */
final class HttpConf implements HttpConfig {

    private final HttpBlockConf block;
    private LoadedModule current;

    HttpConf(HttpBlockConf block) {
        this.block = block;
    }

    /** Sets the module whose hook is about to run. */
    void calling(LoadedModule module) {
        current = module;
    }

    private String caller() {
        return current == null ? HttpCoreModule.NAME : current.name();
    }

    @Override
    public Cycle cycle() {
        return block.cycle();
    }

    @Override
    public int ctxIndex(JinxModule module) {
        return block.index(module);
    }

    @Override
    public Object mainConf(JinxModule module) {
        return block.ctx().mainConf[block.index(module)];
    }

    @Override
    public Object mainConfAt(int ctxIndex) {
        return block.ctx().mainConf[ctxIndex];
    }

    @Override
    public void addPhaseHandler(Phase phase, PhaseHandler handler) throws ConfException {
        if (phase == Phase.FIND_CONFIG || phase == Phase.POST_REWRITE || phase == Phase.POST_ACCESS) {
            throw new ConfException("module \"" + caller() + "\" cannot add a handler to the " + phase
                                    + " phase, which is the core's own");
        }
        if (handler == null) {
            throw new ConfException("module \"" + caller() + "\" adds no handler to the " + phase + " phase");
        }
        block.core().phases.get(phase.ordinal()).add(new HttpCoreMainConf.Registered<>(caller(), handler));
    }

    @Override
    public void addHeaderFilter(HeaderFilter filter) {
        block.core().headerFilters.add(new HttpCoreMainConf.Registered<>(caller(), filter));
    }

    @Override
    public void addBodyFilter(BodyFilter filter) {
        block.core().bodyFilters.add(new HttpCoreMainConf.Registered<>(caller(), filter));
    }

    @Override
    public void addVariable(String name, VariableGetter getter, int flags) throws ConfException {
        block.core().variables.add(name, getter, flags);
    }

    @Override
    public int variableIndex(String name) throws ConfException {
        return block.core().variables.index(name);
    }

    @Override
    public ComplexValue compile(String value) throws ConfException {
        return block.core().variables.compile(value);
    }

    @Override
    public void addListenParameter(String name, ConnectionTakeover takeover) throws ConfException {
        if (block.core().listenParameters.putIfAbsent(name, takeover) != null) {
            throw new ConfException("the \"" + name + "\" listen parameter is registered twice");
        }
    }
}
