package jinx.kernel.spi;

import java.util.Objects;
import java.util.Set;

/**
 * A directive, as data: its name, the contexts it may stand in, its {@link Arity}, the type of the conf object
 * it sets and what it does. nginx's {@code ngx_command_t}.
 *
 * <pre>{@code
 * Directive.of("worker_connections", Set.of(EVENTS), Arity.TAKE1, EventConf.class,
 *              Slots.number((c, v) -> c.connections = v))
 * }</pre>
 *
 * <p>A directive may stand once per context unless it is {@link #multi()}; the kernel's dispatcher reports a
 * second one as {@code "x" directive is duplicate}.
 *
 * @param <C> the type of the conf object the directive sets ({@link Void} for none)
 */
public final class Directive<C> {

    private final String name;
    private final Set<Ctx> contexts;
    private final int arity;
    private final Class<C> confType;
    private final DirectiveHandler<C> handler;
    private final boolean multi;
    private final String note;

    private Directive(String name, Set<Ctx> contexts, int arity, Class<C> confType, DirectiveHandler<C> handler,
                      boolean multi, String note) {
        this.name = Objects.requireNonNull(name, "name");
        this.contexts = Set.copyOf(contexts);
        this.arity = arity;
        this.confType = Objects.requireNonNull(confType, "confType");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.multi = multi;
        this.note = note;
    }

    /**
     * A directive that sets a field of its module's conf object.
     *
     * @param name the name
     * @param contexts where it may stand
     * @param arity the {@link Arity} bits
     * @param confType the conf object's type, which picks the conf among those the context holds for the module
     * @param handler what it does
     * @param <C> the conf object's type
     * @return the directive
     */
    public static <C> Directive<C> of(String name, Set<Ctx> contexts, int arity, Class<C> confType,
                                      DirectiveHandler<C> handler) {
        return new Directive<>(name, contexts, arity, confType, handler, false, null);
    }

    /**
     * A directive without a conf object: {@code include}, or a block that creates the confs of its own modules.
     *
     * @param name the name
     * @param contexts where it may stand
     * @param arity the {@link Arity} bits
     * @param handler what it does; its conf argument is null
     * @return the directive
     */
    public static Directive<Void> of(String name, Set<Ctx> contexts, int arity, DirectiveHandler<Void> handler) {
        return new Directive<>(name, contexts, arity, Void.class, handler, false, null);
    }

    /**
     * Returns this directive, allowed to stand more than once in a context ({@code listen}, {@code env}).
     *
     * @return the directive
     */
    public Directive<C> multi() {
        return new Directive<>(name, contexts, arity, confType, handler, true, note);
    }

    /**
     * Returns this directive with a note that {@code jinx -l} prints beside it.
     *
     * @param text the note
     * @return the directive
     */
    public Directive<C> note(String text) {
        return new Directive<>(name, contexts, arity, confType, handler, multi, text);
    }

    /**
     * Returns the directive's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Returns where the directive may stand.
     *
     * @return the contexts
     */
    public Set<Ctx> contexts() {
        return contexts;
    }

    /**
     * Returns the {@link Arity} bits.
     *
     * @return the arity
     */
    public int arity() {
        return arity;
    }

    /**
     * Tells whether the directive opens a block.
     *
     * @return true for a block directive
     */
    public boolean isBlock() {
        return (arity & Arity.BLOCK) != 0;
    }

    /**
     * Returns the type of conf object the directive sets ({@link Void} for none).
     *
     * @return the type
     */
    public Class<C> confType() {
        return confType;
    }

    /**
     * Returns what the directive does.
     *
     * @return the handler
     */
    public DirectiveHandler<C> handler() {
        return handler;
    }

    /**
     * Tells whether the directive may stand more than once in a context.
     *
     * @return true when it may repeat
     */
    public boolean isMulti() {
        return multi;
    }

    /**
     * Returns the note for {@code jinx -l}, or null.
     *
     * @return the note
     */
    public String note() {
        return note;
    }

    @Override
    public String toString() {
        return name;
    }
}
