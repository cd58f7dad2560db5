package jinx.kernel.spi;

import java.util.List;
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
 * <p>The table also carries the directive's documentation, in nginx's words: {@link #syntax(String...)},
 * {@link #defaults(String)} and {@link #describe(String)}. {@code jinx -l} prints it and {@code docs/directives.md}
 * is generated from it:
 *
 * <pre>{@code
 * Directive.of("worker_connections", Set.of(EVENTS), Arity.TAKE1, EventConf.class, Slots.number(...))
 *     .syntax("number").defaults("512").describe("Sets the maximum number of simultaneous connections ...")
 * }</pre>
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
    private final List<String> syntax;
    private final String defaults;
    private final String description;

    private Directive(String name, Set<Ctx> contexts, int arity, Class<C> confType, DirectiveHandler<C> handler,
                      boolean multi, String note) {
        this.name = Objects.requireNonNull(name, "name");
        this.contexts = Set.copyOf(contexts);
        this.arity = arity;
        this.confType = Objects.requireNonNull(confType, "confType");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.multi = multi;
        this.note = note;
        this.syntax = List.of();
        this.defaults = null;
        this.description = null;
    }

    /** A copy of {@code d} with other documentation. */
    private Directive(Directive<C> d, boolean multi, String note, List<String> syntax, String defaults,
                      String description) {
        this.name = d.name;
        this.contexts = d.contexts;
        this.arity = d.arity;
        this.confType = d.confType;
        this.handler = d.handler;
        this.multi = multi;
        this.note = note;
        this.syntax = List.copyOf(syntax);
        this.defaults = defaults;
        this.description = description;
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
        return new Directive<>(this, true, note, syntax, defaults, description);
    }

    /**
     * Returns this directive with a note that {@code jinx -l} prints beside it.
     *
     * @param text the note
     * @return the directive
     */
    public Directive<C> note(String text) {
        return new Directive<>(this, multi, text, syntax, defaults, description);
    }

    /**
     * Returns this directive with its syntax: the arguments as nginx's documentation writes them after the
     * name, one string per form; {@code "on | off"}, {@code "size"}, {@code "[ = | ~ | ~* | ^~ ] uri { ... }"},
     * {@code ""} for none. The name and the {@code ;} are added when it is printed.
     *
     * @param forms the forms, each without the name
     * @return the directive
     */
    public Directive<C> syntax(String... forms) {
        return new Directive<>(this, multi, note, List.of(forms), defaults, description);
    }

    /**
     * Returns this directive with its default: the arguments in force when the directive is absent, as nginx's
     * documentation writes them after the name ({@code "on"}, {@code "logs/error.log error"}); a directive
     * without one has none.
     *
     * @param arguments the default's arguments, without the name
     * @return the directive
     */
    public Directive<C> defaults(String arguments) {
        return new Directive<>(this, multi, note, syntax, Objects.requireNonNull(arguments, "arguments"),
            description);
    }

    /**
     * Returns this directive with a one-line description of what it does.
     *
     * @param text the description, a sentence
     * @return the directive
     */
    public Directive<C> describe(String text) {
        return new Directive<>(this, multi, note, syntax, defaults, Objects.requireNonNull(text, "text"));
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

    /**
     * Returns the syntax forms, each without the name ({@link #syntax(String...)}); empty when undocumented.
     *
     * @return the forms
     */
    public List<String> syntax() {
        return syntax;
    }

    /**
     * Returns the default's arguments ({@link #defaults(String)}), or null when there is none.
     *
     * @return the default
     */
    public String defaults() {
        return defaults;
    }

    /**
     * Returns the one-line description ({@link #describe(String)}), or null when undocumented.
     *
     * @return the description
     */
    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return name;
    }
}
