package jinx.http.spi;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.spi.JinxModule;

/**
 * What an HTTP module may do while {@code http {}} is configured: nginx's {@code ngx_conf_t} as HTTP modules'
 * {@code preconfiguration} and {@code postconfiguration} use it.
 */
public interface HttpConfig {

    /** A variable whose value may change during a request ({@code set}); nginx's {@code CHANGEABLE}. */
    int VAR_CHANGEABLE = 0x1;
    /** A variable evaluated every time, never cached in the request; nginx's {@code NOCACHEABLE}. */
    int VAR_NOCACHEABLE = 0x2;
    /** A family of variables sharing a prefix ({@code http_}, {@code arg_}); nginx's {@code PREFIX}. */
    int VAR_PREFIX = 0x4;

    /**
     * Returns the cycle being built.
     *
     * @return the cycle
     */
    Cycle cycle();

    /**
     * Returns a module's index among HTTP modules: the index of its conf objects and request context.
     *
     * @param module the module
     * @return the index
     */
    int ctxIndex(JinxModule module);

    /**
     * Returns a module's main conf object.
     *
     * @param module the module
     * @return the conf object
     */
    Object mainConf(JinxModule module);

    /**
     * Returns a typed key on a module's conf objects, for {@code r.locConf(key)} and its kin: to be made in
     * {@code preconfiguration} or {@code postconfiguration} and kept in a field of the module. Added in SPI 1.3.
     *
     * @param module the module, usually {@code this}
     * @param type the class of its conf objects at the level the key is for
     * @param <T> that class
     * @return the key
     */
    default <T> HttpConfKey<T> confKey(JinxModule module, Class<T> type) {
        return HttpConfKey.of(ctxIndex(module), type);
    }

    /**
     * Returns a module's main conf object, typed. Added in SPI 1.3.
     *
     * @param key the key
     * @param <T> the conf's class
     * @return the conf object
     */
    default <T> T mainConf(HttpConfKey<T> key) {
        return key.cast(mainConfAt(key.ctxIndex()));
    }

    /**
     * Returns the main conf object at an HTTP module index; {@link #mainConf(HttpConfKey)} reads through it.
     * Added in SPI 1.3.
     *
     * @param ctxIndex the module's index among HTTP modules
     * @return the conf object
     * @throws UnsupportedOperationException when this configuration cannot tell (a test double)
     */
    default Object mainConfAt(int ctxIndex) {
        throw new UnsupportedOperationException("mainConfAt() needs the HTTP core's configuration");
    }

    /**
     * Adds a handler to a phase; handlers of a phase run in module order. FIND_CONFIG, POST_REWRITE and
     * POST_ACCESS are the core's own.
     *
     * @param phase the phase
     * @param handler the handler
     * @throws ConfException for a phase modules cannot join
     */
    void addPhaseHandler(Phase phase, PhaseHandler handler) throws ConfException;

    /**
     * Adds the calling module's header filter; filters run in module order.
     *
     * @param filter the filter
     */
    void addHeaderFilter(HeaderFilter filter);

    /**
     * Adds the calling module's body filter; filters run in module order.
     *
     * @param filter the filter
     */
    void addBodyFilter(BodyFilter filter);

    /**
     * Registers a variable (in {@code preconfiguration}).
     *
     * @param name the name without {@code $}; for {@link #VAR_PREFIX}, the prefix ({@code "http_"})
     * @param getter computes the value
     * @param flags {@link #VAR_CHANGEABLE}, {@link #VAR_NOCACHEABLE}, {@link #VAR_PREFIX}
     * @throws ConfException {@code the duplicate "x" variable} unless both are changeable
     */
    void addVariable(String name, VariableGetter getter, int flags) throws ConfException;

    /**
     * Returns the index of a variable, for {@link jinx.http.HttpRequest#variable(int)}. A name no module
     * registers is refused once the configuration is read ({@code unknown "x" variable}).
     *
     * @param name the name without {@code $}
     * @return the index
     * @throws ConfException for an invalid name
     */
    int variableIndex(String name) throws ConfException;

    /**
     * Compiles a string with variables.
     *
     * @param value the string as written
     * @return the compiled value
     * @throws ConfException for a malformed variable reference, with nginx's words
     */
    ComplexValue compile(String value) throws ConfException;

    /**
     * Registers a parameter of {@code listen} ({@code ssl}) whose addresses' connections {@code takeover} takes
     * over before HTTP reads them (in {@code preconfiguration}). Without a module that registers it, HTTP refuses
     * {@code ssl} with nginx's words ({@code the "ssl" parameter requires ngx_http_ssl_module}). Added in SPI 1.4.
     *
     * @param name the parameter
     * @param takeover what takes the connections over
     * @throws ConfException when another module registered the parameter
     * @throws UnsupportedOperationException when this configuration cannot tell (a test double)
     */
    default void addListenParameter(String name, ConnectionTakeover takeover) throws ConfException {
        throw new UnsupportedOperationException("addListenParameter() needs the HTTP core's configuration");
    }
}
