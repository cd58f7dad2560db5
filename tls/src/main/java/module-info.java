/**
 * Jinx's TLS (DESIGN 9b): OpenSSL 3 driven on the non-blocking socket through jnr-ffi, as nginx's
 * {@code src/event/ngx_event_openssl.c} drives it, behind the kernel's {@code ConnectionIo}; and HTTPS, nginx's
 * {@code ngx_http_ssl_module}, written on the exported API of {@code jinx.http} and {@code jinx.kernel}. The API
 * package {@code jinx.tls} (contexts, the connection I/O, the handshake) needs nothing of HTTP, for the proxy and
 * stream; {@code stream_ssl}, nginx's {@code ngx_stream_ssl_module}, plugs into {@code jinx.stream} through its SPI
 * (stream needs nothing of this module); the {@code openssl} core module offers client TLS to them through the
 * kernel's {@code TlsClient}, so that they need not depend on this module.
 */
module jinx.tls {
    requires transitive jinx.http;
    requires jinx.stream;
    requires org.jnrproject.ffi;

    exports jinx.tls;
    // jnr-ffi generates the binding's implementation outside this module: not API.
    exports jinx.tls.bind;

    provides jinx.kernel.spi.JinxModule with
        jinx.tls.internal.OpenSslModule,
        jinx.tls.internal.http.HttpSslModule,
        jinx.tls.internal.stream.StreamSslModule;
}
