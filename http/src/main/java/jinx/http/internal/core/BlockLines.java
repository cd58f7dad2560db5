package jinx.http.internal.core;

import jinx.kernel.ConfException;
import jinx.kernel.LoadedModule;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfScope;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.DirectiveHandler;
import jinx.kernel.spi.ModuleType;

/**
 * The inside of a block whose lines are data, not directives ({@code types {}}, {@code map {}}, {@code geo {}},
 * {@code split_clients {}}): nginx sets {@code cf->handler} for such a block, and every line goes to it, an
 * {@code include} line too, which the block's handler passes on to {@code ngx_conf_include()}.
 */
public final class BlockLines {

    private BlockLines() {
    }

    /**
     * Parses a block whose every line goes to {@code handler}.
     *
     * @param cf the block directive's context
     * @param name the block's context name, for messages
     * @param handler takes each line's words
     * @throws ConfException from the handler or the parser
     */
    public static void parse(ConfContext cf, String name, ConfScope.LineHandler handler) throws ConfException {
        cf.parseBlock(HttpScope.of(cf).lines(Ctx.of(name), handler));
    }

    /**
     * Runs the configuration module's {@code include} directive on the current line ({@code include file}), whose
     * lines go to the same block.
     *
     * @param cf the line's context
     * @throws ConfException when the file cannot be read or parsed
     */
    @SuppressWarnings("unchecked")
    public static void include(ConfContext cf) throws ConfException {
        for (LoadedModule m : cf.cycle().modules()) {
            if (!m.module().type().equals(ModuleType.CONF)) {
                continue;
            }
            for (Directive<?> d : m.module().directives()) {
                if (d.name().equals("include")) {
                    ((DirectiveHandler<Object>) d.handler()).set(cf, null);
                    return;
                }
            }
        }
        throw new ConfException("unknown directive \"include\"");
    }
}
