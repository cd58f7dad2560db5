/**
 * Request bodies, nginx's {@code src/http/ngx_http_request_body.c}: reading a body ({@code Content-Length} or
 * chunked) into memory or a temporary file ({@link jinx.http.internal.io.HttpRequestBody#readClientRequestBody}),
 * and discarding one, lingering as nginx does
 * ({@link jinx.http.internal.io.HttpRequestBody#discardRequestBody}). The state of a request's body is a
 * {@link jinx.http.internal.io.RequestBody}, kept in the engine's request.
 */
package jinx.http.internal.io;
