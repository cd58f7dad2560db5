package jinx.proxy.internal;

import jinx.http.spi.HttpCtx;
import jinx.kernel.spi.ConfScope;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.proxy.upstream.Upstream;

/**
 * The scope of an {@code upstream {}} block (nginx's {@code NGX_HTTP_UPS_CONF}): its directives
 * ({@code server}, {@code keepalive}, {@code least_conn} ...) set the upstream being defined.
 */
final class UpstreamScope implements ConfScope {

    private final Upstream upstream;
    /** The module's main conf, where {@code zone} keeps the zones. */
    private final UpstreamMainConf umcf;

    UpstreamScope(Upstream upstream, UpstreamMainConf umcf) {
        this.upstream = upstream;
        this.umcf = umcf;
    }

    @Override
    public Ctx ctx() {
        return HttpCtx.UPS;
    }

    @Override
    public ModuleType moduleType() {
        return HttpCtx.HTTP;
    }

    @Override
    public Object conf(JinxModule module, Class<?> type) {
        if (type.isInstance(umcf)) {
            return umcf;
        }
        return type.isInstance(upstream) ? upstream : null;
    }
}
