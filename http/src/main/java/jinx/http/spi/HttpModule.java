package jinx.http.spi;

import jinx.kernel.ConfException;

/**
 * The context of an HTTP module: nginx's {@code ngx_http_module_t}. Conf objects are created per context; after
 * the configuration is read, each server's confs are merged from {@code http}'s and each location's from its
 * server's (or enclosing location's), then the module's handlers and filters are registered.
 */
public interface HttpModule {

    /**
     * Called before {@code http {}} is parsed: register variables here.
     *
     * @param cf the configuration
     * @throws ConfException to refuse the configuration
     */
    default void preconfiguration(HttpConfig cf) throws ConfException {
    }

    /**
     * Called after {@code http {}} is parsed and merged: register phase handlers and filters here.
     *
     * @param cf the configuration
     * @throws ConfException to refuse the configuration
     */
    default void postconfiguration(HttpConfig cf) throws ConfException {
    }

    /**
     * Creates the module's main conf object, or null.
     *
     * @return the conf object
     */
    default Object createMainConf() {
        return null;
    }

    /**
     * Fills the main conf's defaults after {@code http {}} is parsed.
     *
     * @param conf the main conf
     * @throws ConfException to refuse the configuration
     */
    default void initMainConf(Object conf) throws ConfException {
    }

    /**
     * Creates a server conf object (for {@code http {}} and every {@code server {}}), or null.
     *
     * @return the conf object
     */
    default Object createSrvConf() {
        return null;
    }

    /**
     * Merges a server's conf with {@code http}'s.
     *
     * @param parent the conf of {@code http {}}
     * @param child the server's
     * @throws ConfException to refuse the configuration
     */
    default void mergeSrvConf(Object parent, Object child) throws ConfException {
    }

    /**
     * Creates a location conf object (for {@code http {}}, every server and every location), or null.
     *
     * @return the conf object
     */
    default Object createLocConf() {
        return null;
    }

    /**
     * Merges a location's conf with its enclosing context's.
     *
     * @param parent the enclosing context's conf
     * @param child the location's
     * @throws ConfException to refuse the configuration
     */
    default void mergeLocConf(Object parent, Object child) throws ConfException {
    }
}
