/**
 * Jinx's reverse proxy: {@code upstream {}} and {@code proxy_pass} (nginx's ngx_http_upstream.c and
 * ngx_http_proxy_module.c), written on the exported API of {@code jinx.http} and {@code jinx.kernel}. The package
 * {@code jinx.proxy.upstream} (peers, balancers, the keep-alive cache) needs nothing of HTTP.
 */
module jinx.proxy {
    requires transitive jinx.http;

    exports jinx.proxy.upstream;

    provides jinx.kernel.spi.JinxModule with
        jinx.proxy.internal.UpstreamModule,
        jinx.proxy.internal.ProxyModule;
}
