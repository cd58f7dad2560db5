package jinx.http.internal.request;

import java.util.List;

import jinx.http.internal.core.HttpCoreMainConf;
import jinx.http.internal.core.HttpCoreModule;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.ConfException;
import jinx.kernel.LoadedModule;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * Module {@code http_request}: puts the request engine to work in an {@code http {}} block. It hands the block's
 * listening sockets {@link RequestReader#initConnection} (nginx's {@code ngx_http_init_connection}) and, when a
 * location uses {@code try_files}, adds {@link TryFiles#handler} to the PRECONTENT phase (nginx's
 * {@code ngx_http_try_files_module}). It has no directives: {@code try_files} and the rest are {@code http_core}'s.
 */
public final class HttpRequestModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_request";

    /**
     * Creates the module; the kernel makes one per cycle.
     */
    public HttpRequestModule() {
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
    public List<String> after() {
        return List.of(HttpCoreModule.NAME);
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        LoadedModule core = cf.cycle().module(HttpCoreModule.NAME);
        if (core == null || !(cf.mainConf(core.module()) instanceof HttpCoreMainConf cmcf)) {
            throw new ConfException("the \"" + HttpCoreModule.NAME + "\" module is missing");
        }
        cmcf.connectionHandler = RequestReader::initConnection;
        if (cmcf.tryFiles) {
            cf.addPhaseHandler(Phase.PRECONTENT, TryFiles::handler);
        }
    }
}
