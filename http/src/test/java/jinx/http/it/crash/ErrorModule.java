package jinx.http.it.crash;

import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.ConfException;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * A test module with a bug: {@code it_error;} in a location throws an {@link InternalError} from its handler,
 * on the worker's loop thread. The request path answers a {@code RuntimeException} with a 500; an {@code Error}
 * leaves the JVM in doubt, so the worker must exit with code 1 and its master respawn it.
 */
public final class ErrorModule implements JinxModule, HttpModule {

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("it_error", Set.of(HttpCtx.LOC), Arity.NOARGS, LocConf.class, (cf, conf) -> {
            conf.error = true;
        }));

    private int ctxIndex = -1;

    /** Whether the location throws. */
    static final class LocConf {
        boolean error;
    }

    @Override
    public String name() {
        return "http_it_error";
    }

    @Override
    public ModuleType type() {
        return HttpCtx.HTTP;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.CURRENT;
    }

    @Override
    public List<String> after() {
        return List.of("http_core");
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
    public Object createLocConf() {
        return new LocConf();
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addPhaseHandler(Phase.PRECONTENT, this::handle);
    }

    private int handle(HttpRequest r) {
        if (!((LocConf) r.locConf(ctxIndex)).error) {
            return Rc.DECLINED;
        }
        throw new InternalError("it_error in " + r.uri);
    }
}
