package jinx.http.it.twice;

import java.nio.file.Files;
import java.util.List;

import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.Cycle;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * A test module that misbehaves on reload: its {@code initProcess} throws an {@link InternalError} the second time
 * it runs in one JVM (a module that keeps process-wide state and cannot start twice). The mark is a system
 * property, since every cycle loads the module's classes anew. A worker JVM starts its first cycle well and fails
 * to take a reload in place; a new JVM does take it.
 */
public final class OnceModule implements JinxModule, HttpModule {

    /** The system property that marks a JVM in which the module started. */
    static final String STARTED = "jinx.it.once.started";

    /** The file whose presence in the prefix fails {@code initModule}. */
    public static final String FAIL_INIT = "fail-init-module";

    @Override
    public String name() {
        return "http_it_once";
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
        return List.of();
    }

    @Override
    public Object context() {
        return this;
    }

    /**
     * Throws an {@link InternalError} in the master's {@code initModule} while the file {@value #FAIL_INIT} exists in
     * the prefix: a new cycle that breaks in the master.
     */
    @Override
    public void initModule(Cycle cycle) {
        if (Files.exists(cycle.prefix().resolve(FAIL_INIT))) {
            throw new InternalError("http_it_once told to fail");
        }
    }

    @Override
    public void initProcess(Cycle cycle) {
        if (System.getProperties().putIfAbsent(STARTED, "yes") != null) {
            throw new InternalError("http_it_once started twice in one JVM");
        }
    }
}
