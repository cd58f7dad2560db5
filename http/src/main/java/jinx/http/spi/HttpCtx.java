package jinx.http.spi;

import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.ModuleType;

/**
 * The HTTP module type and the contexts of the HTTP blocks, nginx's {@code NGX_HTTP_MODULE},
 * {@code NGX_HTTP_MAIN_CONF}, {@code NGX_HTTP_SRV_CONF}, {@code NGX_HTTP_LOC_CONF} ...
 */
public final class HttpCtx {

    /** The type of the modules inside {@code http {}}. */
    public static final ModuleType HTTP = ModuleType.of("HTTP");

    /** Directly inside {@code http {}}. */
    public static final Ctx MAIN = Ctx.of("http");
    /** Inside {@code server {}}. */
    public static final Ctx SRV = Ctx.of("server");
    /** Inside {@code location {}}. */
    public static final Ctx LOC = Ctx.of("location");
    /** Inside {@code if {}} in a server. */
    public static final Ctx SIF = Ctx.of("server_if");
    /** Inside {@code if {}} in a location. */
    public static final Ctx LIF = Ctx.of("location_if");
    /** Inside {@code limit_except {}}. */
    public static final Ctx LMT = Ctx.of("limit_except");
    /** Inside {@code upstream {}}. */
    public static final Ctx UPS = Ctx.of("upstream");

    private HttpCtx() {
    }
}
