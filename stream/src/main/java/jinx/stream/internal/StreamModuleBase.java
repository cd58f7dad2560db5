package jinx.stream.internal;

import java.util.List;

import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.stream.spi.StreamModule;

/**
 * What every built-in stream module says the same way: its name and directive table, its type
 * ({@link StreamModule#STREAM}), the SPI version it was built for, and itself as its stream context.
 */
abstract class StreamModuleBase implements JinxModule, StreamModule {

    private final String name;
    private final List<Directive<?>> directives;

    StreamModuleBase(String name, List<Directive<?>> directives) {
        this.name = name;
        this.directives = directives;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final ModuleType type() {
        return STREAM;
    }

    @Override
    public final ApiVersion builtFor() {
        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
    }

    @Override
    public final List<Directive<?>> directives() {
        return directives;
    }

    @Override
    public final Object context() {
        return this;
    }

    @Override
    public String toString() {
        return name;
    }
}
