/**
 * Jinx's HTTP: the {@code http {}} block, the request, phases and filters, variables and the standard HTTP
 * modules.
 */
module jinx.http {
    requires transitive jinx.kernel;

    exports jinx.http;
    exports jinx.http.spi;

    provides jinx.kernel.spi.JinxModule with
        jinx.http.internal.core.HttpBlockModule,
        jinx.http.internal.core.HttpCoreModule,
        jinx.http.internal.request.HttpRequestModule,
        jinx.http.internal.variables.HttpVariablesModule,
        jinx.http.internal.log.HttpLogModule,
        jinx.http.internal.modules.RewriteModule,
        jinx.http.internal.modules.MapModule,
        jinx.http.internal.modules.SplitClientsModule,
        jinx.http.internal.modules.RefererModule,
        jinx.http.internal.modules.SecureLinkModule,
        jinx.http.internal.modules.BrowserModule,
        jinx.http.internal.modules.AccessModule,
        jinx.http.internal.modules.RealIpModule,
        jinx.http.internal.modules.LimitReqModule,
        jinx.http.internal.modules.LimitConnModule,
        jinx.http.internal.modules.GeoModule,
        jinx.http.internal.modules.AuthBasicModule,
        jinx.http.internal.modules.AuthRequestModule,
        jinx.http.internal.modules.MirrorModule,
        jinx.http.internal.modules.IndexModule,
        jinx.http.internal.modules.AutoindexModule,
        jinx.http.internal.modules.RandomIndexModule,
        jinx.http.internal.modules.GzipStaticModule,
        jinx.http.internal.modules.EmptyGifModule,
        jinx.http.internal.modules.StaticModule,
        jinx.http.internal.modules.NotModifiedFilterModule,
        jinx.http.internal.modules.HeadersFilterModule,
        jinx.http.internal.modules.UseridFilterModule,
        jinx.http.internal.modules.GunzipFilterModule,
        jinx.http.internal.modules.AdditionFilterModule,
        jinx.http.internal.modules.SubFilterModule,
        jinx.http.internal.modules.CharsetModule,
        jinx.http.internal.modules.SsiFilterModule,
        jinx.http.internal.filter.PostponeFilterModule,
        jinx.http.internal.modules.GzipFilterModule,
        jinx.http.internal.modules.RangeFilterModule,
        jinx.http.internal.filter.ChunkedFilterModule,
        jinx.http.internal.filter.HeaderFilterModule,
        jinx.http.internal.filter.WriteFilterModule;
}
