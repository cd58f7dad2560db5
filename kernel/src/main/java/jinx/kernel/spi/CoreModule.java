package jinx.kernel.spi;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;

/**
 * The context of a {@code CORE} module, nginx's {@code ngx_core_module_t}: it creates the module's conf object
 * before the configuration is parsed and checks it, filling defaults, after. The modules inside a block made
 * with {@link TypedBlock} have this shape too.
 */
public interface CoreModule {

    /**
     * Creates the module's conf object, its fields unset.
     *
     * @param cycle the cycle being built
     * @return the conf object, or null for a module without one
     */
    default Object createConf(Cycle cycle) {
        return null;
    }

    /**
     * Fills the defaults of what the configuration left unset, and checks the whole.
     *
     * @param cycle the cycle being built
     * @param conf the object {@link #createConf} returned
     * @throws ConfException with nginx's text
     */
    default void initConf(Cycle cycle, Object conf) throws ConfException {
    }
}
