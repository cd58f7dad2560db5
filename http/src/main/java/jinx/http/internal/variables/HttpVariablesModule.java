package jinx.http.internal.variables;

import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.LoadedModule;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * Module {@code http_variables}: holds the cycle's variable registry (its main conf) and registers the core
 * variables in {@code preconfiguration}, as nginx's {@code ngx_http_core_module} does with
 * {@code ngx_http_variables_add_core_vars()}. It must stand before every module that uses variables.
 */
public final class HttpVariablesModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_variables";

    private Variables variables;

    /**
     * Creates the module; the kernel makes one per cycle.
     */
    public HttpVariablesModule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return HttpCtx.HTTP;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
    }

    @Override
    public Object context() {
        return this;
    }

    /**
     * Returns this cycle's registry, created on first use.
     *
     * @return the registry
     */
    public synchronized Variables variables() {
        if (variables == null) {
            variables = new Variables();
        }
        return variables;
    }

    @Override
    public Object createMainConf() {
        return variables();
    }

    @Override
    public void preconfiguration(HttpConfig cf) throws ConfException {
        CoreVariables.register(cf::addVariable, version(cf.cycle()));
        RequestVariables.register(cf::addVariable);
    }

    /**
     * Returns the server's version for {@code $jinx_version}: the kernel's.
     *
     * @param cycle the cycle
     * @return the version
     */
    static String version(Cycle cycle) {
        LoadedModule core = cycle == null ? null : cycle.module("core");
        if (core != null && core.version() != null && !"-".equals(core.version())) {
            return core.version();
        }
        String impl = HttpVariablesModule.class.getPackage().getImplementationVersion();
        return impl != null ? impl : "unknown";
    }
}
