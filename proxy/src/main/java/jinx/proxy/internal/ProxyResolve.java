package jinx.proxy.internal;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import jinx.kernel.LogLevel;
import jinx.proxy.upstream.Resolution;
import jinx.proxy.upstream.Upstream;

/**
 * The host of a {@code proxy_pass} with variables that names no group, looked up through the location's
 * {@code resolver}: the part of nginx's {@code ngx_http_upstream_init_request()} that starts the lookup, and
 * {@code ngx_http_upstream_resolve_handler()}. The addresses become a group of their own for this request, balanced
 * round robin with nginx's defaults for an implicit upstream ({@code ngx_http_upstream_create_round_robin_peer()}:
 * weight 1, max_fails 1, fail_timeout 10s, one try per address); a failure is logged as nginx logs it
 * ({@code backend.example could not be resolved (3: Host not found)}) and answered 502. A request that ends while
 * the lookup runs cancels it ({@link #cancel}), so no answer reaches a freed request.
 */
final class ProxyResolve {

    private ProxyResolve() {
    }

    /** Starts the lookup; a cached answer continues at once. */
    static void start(ProxyRequest p) {
        Resolution ctx = p.plcf.resolver.resolve(p.loop, p.pass.host(), p.plcf.resolverTimeout, res -> {
            // an answer given at once (cached) is taken below, in the caller's flow
            if (p.resolving == res) {
                resolved(p, res, true);
            }
        });
        if (ctx.state() == Resolution.PENDING) {
            p.resolving = ctx;
            return;
        }
        resolved(p, ctx, false);
    }

    /** nginx's {@code ngx_http_upstream_resolve_handler()}. */
    private static void resolved(ProxyRequest p, Resolution ctx, boolean fromLoop) {
        p.resolving = null;
        ctx.cancel();
        if (ctx.state() != 0) {
            p.r.log(LogLevel.ERROR, 0, ctx.failure());
            p.finish(502);
        } else {
            String host = p.pass.host();
            Upstream u = new Upstream(host, true, null, 0);
            for (InetAddress a : ctx.addresses()) {
                u.peer(new InetSocketAddress(a, p.pass.port()), host);
            }
            p.upstream = u;
            p.begin();
        }
        if (fromLoop) {
            p.runPosted();
        }
    }

    /** The request ends: a lookup still running is cancelled (nginx's {@code ngx_resolve_name_done()}). */
    static void cancel(ProxyRequest p) {
        Resolution ctx = p.resolving;
        if (ctx != null) {
            p.resolving = null;
            ctx.cancel();
        }
    }
}
