/**
 * Upstream groups without HTTP: peers and their state ({@link jinx.proxy.upstream.Peer},
 * {@link jinx.proxy.upstream.PeerGroup}), smooth weighted round robin and least connections
 * ({@link jinx.proxy.upstream.RoundRobin}, {@link jinx.proxy.upstream.LeastConn}), the per-worker keep-alive cache
 * ({@link jinx.proxy.upstream.KeepaliveCache}) and the group as configured ({@link jinx.proxy.upstream.Upstream}).
 * Each balancer is a {@link jinx.kernel.PeerConnection.Source} that {@link jinx.kernel.EventConnect} asks for a
 * peer, so an HTTP proxy and a stream proxy share them. The DNS resolver both use for names that {@code proxy_pass}
 * with variables makes ({@link jinx.proxy.upstream.Resolver}, {@link jinx.proxy.upstream.Resolution}) lives here
 * too, with its wire format and per-loop state as package-private classes.
 *
 * <p>Follows nginx's src/http/ngx_http_upstream_round_robin.c, ngx_http_upstream_least_conn_module.c,
 * ngx_http_upstream_keepalive_module.c and src/core/ngx_resolver.c.
 */
package jinx.proxy.upstream;
