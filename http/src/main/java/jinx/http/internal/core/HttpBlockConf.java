package jinx.http.internal.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.Cycle;
import jinx.kernel.LoadedModule;
import jinx.kernel.spi.JinxModule;

/**
 * The conf of the {@code http} core module: the state of the cycle's {@code http {}} block (nginx's
 * {@code ngx_http_conf_ctx_t} hung from the cycle's {@code conf_ctx}). Before the block is parsed (or without
 * one) {@link #isSet()} is false. Read it with {@code cycle.conf("http", HttpBlockConf.class)}.
 */
public final class HttpBlockConf {

    private Cycle cycle;
    private LoadedModule[] modules = new LoadedModule[0];
    private HttpModule[] contexts = new HttpModule[0];
    private HttpConfCtx ctx;
    private HttpCoreMainConf core;
    private final List<HttpCoreLocConf> locConfs = new ArrayList<>();
    /** The error logs this process opened for the servers and locations (not the cycle's own), or null. */
    List<jinx.kernel.ErrorLog> errorLogs;

    /**
     * An empty block state; the {@code http} directive fills it.
     */
    public HttpBlockConf() {
    }

    /**
     * Fixes the HTTP modules of the block and creates their main confs and the block's server and location
     * confs (nginx's "null" {@code srv_conf} and {@code loc_conf} of {@code http {}}).
     *
     * @param forCycle the cycle being configured
     */
    void init(Cycle forCycle) {
        cycle = forCycle;
        List<LoadedModule> list = forCycle.modules(HttpCtx.HTTP);
        modules = list.toArray(new LoadedModule[0]);
        int size = 0;
        for (LoadedModule m : modules) {
            size = Math.max(size, m.typeIndex() + 1);
        }
        contexts = new HttpModule[size];
        Object[] main = new Object[size];
        for (LoadedModule m : modules) {
            if (m.module().context() instanceof HttpModule hm) {
                contexts[m.typeIndex()] = hm;
                main[m.typeIndex()] = hm.createMainConf();
            }
        }
        ctx = new HttpConfCtx(main, createSrvConfs(), createLocConfs());
        LoadedModule coreModule = forCycle.module(HttpCoreModule.NAME);
        if (coreModule == null || !(main[coreModule.typeIndex()] instanceof HttpCoreMainConf cmcf)) {
            throw new IllegalStateException("the \"" + HttpCoreModule.NAME + "\" module is missing");
        }
        core = cmcf;
    }

    /**
     * Creates every module's server conf, for a new {@code server {}}.
     *
     * @return the confs by module index
     */
    Object[] createSrvConfs() {
        Object[] confs = new Object[contexts.length];
        for (int i = 0; i < contexts.length; i++) {
            if (contexts[i] != null) {
                confs[i] = contexts[i].createSrvConf();
            }
        }
        return confs;
    }

    /**
     * Creates every module's location conf, for a new location (or {@code limit_except}, or {@code if}).
     *
     * @return the confs by module index
     */
    public Object[] createLocConfs() {
        Object[] confs = new Object[contexts.length];
        for (int i = 0; i < contexts.length; i++) {
            if (contexts[i] != null) {
                confs[i] = contexts[i].createLocConf();
                if (confs[i] instanceof HttpCoreLocConf clcf) {
                    locConfs.add(clcf);
                    clcf.locConf = confs;
                    String prefix = cycle.prefix().toString();
                    clcf.cyclePrefix = prefix.endsWith("/") ? prefix : prefix + "/";
                }
            }
        }
        return confs;
    }

    /**
     * Returns every location conf of {@code http_core} the block made: the block's own, each server's, each
     * location's (nested, regex and named ones), each {@code limit_except}'s and {@code if}'s.
     *
     * @return the confs, in the order they were made
     */
    public List<HttpCoreLocConf> allLocConfs() {
        return Collections.unmodifiableList(locConfs);
    }

    /**
     * Tells whether the configuration has an {@code http {}} block and it has been parsed.
     *
     * @return true once the block exists
     */
    public boolean isSet() {
        return ctx != null;
    }

    /**
     * Returns the cycle the block belongs to.
     *
     * @return the cycle, or null before the block
     */
    public Cycle cycle() {
        return cycle;
    }

    /**
     * Returns the HTTP modules in their order.
     *
     * @return the modules
     */
    public List<LoadedModule> modules() {
        return List.of(modules);
    }

    /**
     * Returns a module's HTTP context, or null for a module without one.
     *
     * @param index the module's index among HTTP modules
     * @return the context
     */
    HttpModule context(int index) {
        return contexts[index];
    }

    /**
     * Returns the number of module indexes (the length of every conf array).
     *
     * @return the size
     */
    public int size() {
        return contexts.length;
    }

    /**
     * Returns a module's index among HTTP modules.
     *
     * @param module the module
     * @return the index
     */
    public int index(JinxModule module) {
        return cycle.entry(module).typeIndex();
    }

    /**
     * Returns the confs of the {@code http {}} block itself: the main confs and the block's server and location
     * confs that every server merges from.
     *
     * @return the confs
     */
    public HttpConfCtx ctx() {
        return ctx;
    }

    /**
     * Returns the main conf of {@code http_core}.
     *
     * @return the conf, or null before the block
     */
    public HttpCoreMainConf core() {
        return core;
    }

    /**
     * Returns the main conf of the HTTP module named {@code name}.
     *
     * @param name the module's name
     * @param type the conf's type
     * @param <T> the conf's type
     * @return the conf, or null
     */
    public <T> T mainConf(String name, Class<T> type) {
        LoadedModule m = cycle == null ? null : cycle.module(name);
        if (m == null || ctx == null || m.typeIndex() >= ctx.mainConf.length) {
            return null;
        }
        Object c = ctx.mainConf[m.typeIndex()];
        return type.isInstance(c) ? type.cast(c) : null;
    }
}
