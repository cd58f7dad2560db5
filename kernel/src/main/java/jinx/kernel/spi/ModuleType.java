package jinx.kernel.spi;

import java.util.Objects;

/**
 * The type of a module, nginx's {@code NGX_CORE_MODULE}, {@code NGX_EVENT_MODULE}, ... Types are open: the kernel
 * defines {@link #CORE} and {@link #CONF}; a core module that owns a block ({@code events}, {@code http}) defines
 * the type of the modules inside it with {@link #of(String)}. Two types are equal when their names are.
 *
 * @param name the type's name, upper case by convention ({@code "EVENT"})
 */
public record ModuleType(String name) {

    /** Core modules: their directives stand in the main context; they may own a block. */
    public static final ModuleType CORE = new ModuleType("CORE");

    /** Configuration modules ({@code include}): their directives are allowed in every context. */
    public static final ModuleType CONF = new ModuleType("CONF");

    /**
     * Creates a type.
     *
     * @param name the type's name
     */
    public ModuleType {
        Objects.requireNonNull(name, "name");
    }

    /**
     * Returns the type named {@code name}.
     *
     * @param name the type's name
     * @return the type
     */
    public static ModuleType of(String name) {
        return new ModuleType(name);
    }

    @Override
    public String toString() {
        return name;
    }
}
