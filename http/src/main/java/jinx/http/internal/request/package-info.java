/**
 * The request engine: nginx's {@code src/http/ngx_http_request.c} (reading the request line and headers into the
 * connection's buffers, the header checks, finalizing, keep-alive, pipelining, lingering close), the run-time half
 * of {@code ngx_http_core_module.c} (the phase runner and its checkers, internal redirects, named locations,
 * {@code try_files}, {@code ngx_http_map_uri_to_path()}) and {@code ngx_http_special_response.c} (error pages,
 * {@code error_page}, redirects).
 *
 * <h2>Where things are</h2>
 * <ul>
 * <li>{@link jinx.http.internal.request.HttpConnection}: one per client connection ({@code Connection.data}); its
 * buffers come from the loop's {@link jinx.http.internal.request.BufferPool}.</li>
 * <li>{@link jinx.http.internal.request.CoreRequest}: the request; the body, filter and variable code read and set
 * its public fields ({@code discardBody}, {@code count}, {@code buffered}, {@code lingeringTime} ...).</li>
 * <li>{@link jinx.http.internal.request.RequestReader}: from accept to the phases
 * ({@code RequestReader::initConnection} is the listening sockets' handler, set by
 * {@link jinx.http.internal.request.HttpRequestModule}); {@link jinx.http.internal.request.RequestHeaders} (the
 * header lines and their checks) and {@code HeaderBuffers} ({@code large_client_header_buffers}).</li>
 * <li>{@link jinx.http.internal.request.PhaseRunner} (the checkers), {@link jinx.http.internal.request.TryFiles},
 * {@link jinx.http.internal.request.InternalRedirects}, {@link jinx.http.internal.request.UriToPath}.</li>
 * <li>{@link jinx.http.internal.request.RequestFinalizer}, {@link jinx.http.internal.request.RequestEvents} (the
 * writer, test reading), {@code KeepAlive} (keep-alive, pipelining, lingering close),
 * {@link jinx.http.internal.request.SpecialResponse} and {@link jinx.http.internal.request.ErrorPages}.</li>
 * <li>{@link jinx.http.internal.request.HttpEvents}: nginx's {@code ngx_handle_read_event()} and
 * {@code ngx_handle_write_event()}, for every HTTP package.</li>
 * <li>{@link jinx.http.internal.request.LocalConnection}: the socketless request path for tests and the module
 * test kit, over the kernel's in-memory connection ({@link jinx.kernel.MemoryConnection}) or a socket pair. The
 * engine reads and writes through {@code Connection.io()} (nginx's {@code c->recv}, {@code c->send},
 * {@code c->send_chain}) and skips the socket options of a connection without a descriptor.</li>
 * </ul>
 *
 * <h2>Log lines</h2>
 * {@link jinx.http.internal.request.HttpConnection#log} writes nginx's HTTP context after the message
 * ({@code while reading client request line, client: 127.0.0.1, server: localhost, request: "GET / HTTP/1.1"});
 * every line about a request should go through it (or {@code CoreRequest.log}).
 */
package jinx.http.internal.request;
