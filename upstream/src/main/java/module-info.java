/**
 * The protocol-neutral upstream: peers, peer groups, the balancers (round robin, least_conn, hash, random) and the
 * keep-alive cache (nginx's ngx_http_upstream_round_robin.c and its balancer modules, shared with
 * src/stream/ngx_stream_upstream_round_robin.c), and the DNS resolver (src/core/ngx_resolver.c). Needs the kernel
 * only: {@code jinx.proxy} (HTTP) and {@code jinx.stream} both require it.
 */
module jinx.proxy.upstream {
    requires transitive jinx.kernel;

    exports jinx.proxy.upstream;
}
