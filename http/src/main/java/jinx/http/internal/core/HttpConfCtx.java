package jinx.http.internal.core;

/**
 * The conf objects of every HTTP module in one block, indexed by the module's index among HTTP modules
 * ({@link jinx.http.spi.HttpConfig#ctxIndex}): nginx's {@code ngx_http_conf_ctx_t}. {@code http {}} makes the
 * main array and the "null" server and location arrays that servers merge from; {@code server {}} shares the main
 * array and makes its own server and location arrays; {@code location {}} shares both and makes its location
 * array. A slot is null for a module without that kind of conf.
 */
public final class HttpConfCtx {

    /** The main confs, one array for the whole {@code http {}} block. */
    public final Object[] mainConf;
    /** The server confs of this block. */
    public final Object[] srvConf;
    /** The location confs of this block. */
    public final Object[] locConf;

    /**
     * A block's confs.
     *
     * @param mainConf the main confs
     * @param srvConf the server confs
     * @param locConf the location confs
     */
    public HttpConfCtx(Object[] mainConf, Object[] srvConf, Object[] locConf) {
        this.mainConf = mainConf;
        this.srvConf = srvConf;
        this.locConf = locConf;
    }
}
