package jinx.stream.spi;

import jinx.kernel.ConfException;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.ModuleType;

/**
 * The context of a stream module: nginx's {@code ngx_stream_module_t}. A module of type {@link #STREAM} returns
 * one from {@code JinxModule.context()}; its conf classes must differ between main and server (the directive's
 * conf type picks the conf, as nginx's {@code NGX_STREAM_MAIN_CONF_OFFSET} and {@code NGX_STREAM_SRV_CONF_OFFSET}
 * do).
 */
public interface StreamModule {

    /** The type of the modules inside {@code stream {}}. */
    ModuleType STREAM = ModuleType.of("STREAM");
    /** {@code stream {}} itself. */
    Ctx MAIN = Ctx.of("stream");
    /** {@code server {}} inside {@code stream {}}. */
    Ctx SRV = Ctx.of("stream_server");
    /** {@code upstream {}} inside {@code stream {}}. */
    Ctx UPS = Ctx.of("stream_upstream");

    /**
     * Called when the block opens, before its contents are parsed: register variables here.
     *
     * @param cf the block's configuration
     * @throws ConfException with nginx's words
     */
    default void preconfiguration(StreamConfig cf) throws ConfException {
    }

    /**
     * Called once the block is parsed and merged: add phase handlers here.
     *
     * @param cf the block's configuration
     * @throws ConfException with nginx's words
     */
    default void postconfiguration(StreamConfig cf) throws ConfException {
    }

    /**
     * Creates the module's conf of {@code stream {}}, or null.
     *
     * @return the conf
     */
    default Object createMainConf() {
        return null;
    }

    /**
     * Fills the main conf's defaults once the block is parsed.
     *
     * @param conf the main conf
     * @throws ConfException with nginx's words
     */
    default void initMainConf(Object conf) throws ConfException {
    }

    /**
     * Creates the module's conf of a server (and of the block, where it holds the servers' defaults), or null.
     *
     * @return the conf
     */
    default Object createSrvConf() {
        return null;
    }

    /**
     * Fills what a server left unset from the block's values and nginx's defaults.
     *
     * @param parent the block's server conf
     * @param child the server's
     * @throws ConfException with nginx's words
     */
    default void mergeSrvConf(Object parent, Object child) throws ConfException {
    }
}
