package jinx.stream.internal;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.LoadedModule;
import jinx.kernel.spi.JinxModule;
import jinx.stream.StreamPhase;
import jinx.stream.spi.StreamConfig;
import jinx.stream.spi.StreamModule;
import jinx.stream.spi.StreamPhaseHandler;
import jinx.stream.spi.StreamVariable;

/**
 * One {@code stream {}} block: the stream modules and their confs (nginx's {@code ngx_stream_conf_ctx_t}), the
 * servers, the variables and the phase engine ({@code ngx_stream_core_main_conf_t}).
 */
final class StreamBlock implements StreamConfig {

    final Cycle cycle;
    final List<LoadedModule> modules;
    final StreamModule[] contexts;
    /** The main confs, by type index. */
    final Object[] mainConfs;
    /** The block's own server confs (the servers' defaults), by type index. */
    final Object[] srvConfs;
    final List<StreamCoreSrvConf> servers = new ArrayList<>();
    final List<ListenOpt> listens = new ArrayList<>();
    final Map<String, StreamVariable> variables = new LinkedHashMap<>();
    /** The variables {@code set} may change (nginx's {@code NGX_STREAM_VAR_CHANGEABLE}). */
    final java.util.Set<String> changeable = new java.util.HashSet<>();
    /** Names used by a directive, checked once the block is parsed: {@code unknown "x" variable}. */
    final Map<String, String> used = new LinkedHashMap<>();
    final EnumMap<StreamPhase, List<StreamPhaseHandler>> phases = new EnumMap<>(StreamPhase.class);
    /** The phase engine once built: the handlers before content, and the log phase's. */
    PhaseEngine engine;
    /** The parameters of {@code listen} that modules added ({@code ssl}). */
    final Map<String, ListenParameter> listenParameters = new java.util.HashMap<>();

    StreamBlock(Cycle cycle) {
        this.cycle = cycle;
        this.modules = cycle.modules(StreamModule.STREAM);
        int size = 0;
        for (LoadedModule m : modules) {
            size = Math.max(size, m.typeIndex() + 1);
        }
        contexts = new StreamModule[size];
        mainConfs = new Object[size];
        for (LoadedModule m : modules) {
            if (m.module().context() instanceof StreamModule sm) {
                contexts[m.typeIndex()] = sm;
                mainConfs[m.typeIndex()] = sm.createMainConf();
            }
        }
        srvConfs = createSrvConfs();
        for (StreamPhase p : StreamPhase.values()) {
            phases.put(p, new ArrayList<>());
        }
    }

    /** Every module's server conf, for the block or a new {@code server {}}. */
    Object[] createSrvConfs() {
        Object[] confs = new Object[contexts.length];
        for (int i = 0; i < contexts.length; i++) {
            if (contexts[i] != null) {
                confs[i] = contexts[i].createSrvConf();
            }
        }
        return confs;
    }

    /** A module's type index in this block. */
    int indexOf(JinxModule module) {
        return cycle.entry(module).typeIndex();
    }

    /** The core module's main conf stand-in: the block itself. */
    StreamCoreSrvConf coreSrv(Object[] confs) {
        for (Object o : confs) {
            if (o instanceof StreamCoreSrvConf c) {
                return c;
            }
        }
        throw new IllegalStateException("no stream core module");
    }

    @Override
    public void addPhaseHandler(StreamPhase phase, StreamPhaseHandler handler) {
        if (phase == StreamPhase.CONTENT) {
            throw new IllegalArgumentException("a server's content handler is set with contentHandler()");
        }
        phases.get(phase).add(handler);
    }

    @Override
    public void addListenParameter(String name, ListenParameter handler) {
        listenParameters.put(name, handler);
    }

    @Override
    public void addVariable(String name, StreamVariable getter) throws ConfException {
        if (variables.putIfAbsent(name, getter) != null) {
            throw new ConfException("duplicate variable \"" + name + "\"");
        }
    }

    @Override
    public StreamVariable variable(String name) {
        used.putIfAbsent(name, name);
        StreamVariable[] found = new StreamVariable[1];
        return s -> {
            StreamVariable v = found[0];
            if (v == null) {
                v = variables.get(name);
                if (v == null) {
                    return null;
                }
                found[0] = v;
            }
            return v.get(s);
        };
    }

    /**
     * Defines the variable a data block ({@code map}, {@code geo}, {@code split_clients}) computes: nginx's
     * {@code ngx_stream_add_variable(..., NGX_STREAM_VAR_CHANGEABLE)}.
     *
     * @throws ConfException {@code the duplicate "x" variable} for a built-in one
     */
    void defineVariable(String name, StreamVariable getter) throws ConfException {
        if (variables.containsKey(name) && !changeable.contains(name)) {
            throw new ConfException("the duplicate \"" + name + "\" variable");
        }
        variables.put(name, getter);
        changeable.add(name);
    }

    /** {@code $name} as a data block's or {@code set}'s target: nginx's {@code invalid variable name "x"}. */
    static String variableName(String word) throws ConfException {
        if (word.length() < 2 || word.charAt(0) != '$') {
            throw new ConfException("invalid variable name \"" + word + "\"");
        }
        return word.substring(1);
    }

    /** nginx's {@code ngx_stream_variables_init_vars()}: every name a directive used must exist. */
    void checkVariables() throws ConfException {
        for (String name : used.keySet()) {
            if (!variables.containsKey(name)) {
                throw new ConfException("unknown \"" + name + "\" variable");
            }
        }
    }
}
