/**
 * Jinx's reverse proxy: {@code upstream {}} and {@code proxy_pass} (nginx's ngx_http_upstream.c and
 * ngx_http_proxy_module.c), written on the exported API of {@code jinx.http} and {@code jinx.kernel}. The upstream
 * groups and balancers are the module {@code jinx.proxy.upstream}, which needs nothing of HTTP.
 */
module jinx.proxy {
    requires transitive jinx.http;
    requires transitive jinx.proxy.upstream;

    provides jinx.kernel.spi.JinxModule with
        jinx.proxy.internal.UpstreamModule,
        jinx.proxy.internal.ProxyModule;
}
