package jinx.kernel.internal.core;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.internal.cycle.FileSource;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code conf} module: {@code include file|glob;} in any context, nginx's {@code ngx_conf_module}. Paths are
 * relative to the directory of the main configuration file. A glob ({@code *}, {@code ?}, {@code [}) that matches
 * nothing is not an error; its matches are included in sorted order, hidden files only when the pattern names
 * them, as glob(3) does.
 */
public final class IncludeConfModule implements JinxModule {

    /** The module's name. */
    public static final String NAME = "conf";

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("include", Set.of(Ctx.ANY), Arity.TAKE1, IncludeConfModule::include).multi()
            .syntax("file | mask").describe("Includes another file, or files matching the specified mask, into "
                + "configuration."));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return ModuleType.CONF;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
    }

    @Override
    public List<Directive<?>> directives() {
        return DIRECTIVES;
    }

    private static void include(ConfContext cf, Void unused) throws ConfException {
        String name = cf.arg(1);
        Path path = cf.resolveConf(name);
        if (!isGlob(name)) {
            cf.parseFile(path);
            return;
        }
        // the cycle's source: the disk for a master, the sealed snapshot's expansion for a worker
        FileSource source = cf.cycle() instanceof KernelCycle kc ? kc.fileSource() : FileSource.disk();
        for (Path file : source.glob(path)) {
            cf.parseFile(file);
        }
    }

    private static boolean isGlob(String name) {
        return name.indexOf('*') >= 0 || name.indexOf('?') >= 0 || name.indexOf('[') >= 0;
    }
}
