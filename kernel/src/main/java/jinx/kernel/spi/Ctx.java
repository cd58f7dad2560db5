package jinx.kernel.spi;

import java.util.Objects;

/**
 * A configuration context a directive may stand in: nginx's {@code NGX_MAIN_CONF}, {@code NGX_EVENT_CONF},
 * {@code NGX_HTTP_LOC_CONF}, ... Contexts are open, as module types are: a module that owns a block defines the
 * context of that block with {@link #of(String)}. Two contexts are equal when their names are.
 *
 * @param name the context's name ({@code "main"}, {@code "events"}, {@code "http_loc"})
 */
public record Ctx(String name) {

    /** The main context: the top level of the configuration file. */
    public static final Ctx MAIN = new Ctx("main");

    /** Any context: for directives such as {@code include}. */
    public static final Ctx ANY = new Ctx("any");

    /**
     * Creates a context.
     *
     * @param name the context's name
     */
    public Ctx {
        Objects.requireNonNull(name, "name");
    }

    /**
     * Returns the context named {@code name}.
     *
     * @param name the context's name
     * @return the context
     */
    public static Ctx of(String name) {
        return new Ctx(name);
    }

    @Override
    public String toString() {
        return name;
    }
}
