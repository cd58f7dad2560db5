/**
 * Jinx's stream module: {@code stream {}}, TCP proxying with the upstream groups and balancers of
 * {@code jinx.proxy.upstream}, and the stream modules of nginx's src/stream (access, return, log, upstream, proxy).
 * It requires the kernel and the protocol-neutral upstream only, never {@code jinx.http}.
 */
module jinx.stream {
    requires transitive jinx.kernel;
    requires jinx.proxy.upstream;

    exports jinx.stream;
    exports jinx.stream.spi;

    provides jinx.kernel.spi.JinxModule with
        jinx.stream.internal.StreamBlockModule,
        jinx.stream.internal.StreamCoreModule,
        jinx.stream.internal.StreamLogModule,
        jinx.stream.internal.StreamRealIpModule,
        jinx.stream.internal.StreamLimitConnModule,
        jinx.stream.internal.StreamAccessModule,
        jinx.stream.internal.StreamGeoModule,
        jinx.stream.internal.StreamMapModule,
        jinx.stream.internal.StreamSplitClientsModule,
        jinx.stream.internal.StreamSslPrereadModule,
        jinx.stream.internal.StreamReturnModule,
        jinx.stream.internal.StreamSetModule,
        jinx.stream.internal.StreamPassModule,
        jinx.stream.internal.StreamUpstreamModule,
        jinx.stream.internal.StreamProxyModule;
}
