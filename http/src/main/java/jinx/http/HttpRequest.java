package jinx.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import jinx.http.internal.filter.ResponseBodies;
import jinx.http.spi.HttpConfKey;
import jinx.http.spi.HttpConfig;
import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;

/**
 * An HTTP request as modules see it: nginx's {@code ngx_http_request_t}. The request line and headers as
 * parsed, the response being built, the per-module contexts, and the core's services (send the header, pass
 * the body through the filters, finalize, redirect internally). Everything here belongs to the loop's thread.
 *
 * <p>The core makes requests; modules never construct one.
 */
public abstract class HttpRequest {

    /** Methods as bits, nginx's {@code NGX_HTTP_GET} ...: {@code limit_except} and handlers test them. */
    public static final int UNKNOWN = 0x0001;
    /** GET. */
    public static final int GET = 0x0002;
    /** HEAD. */
    public static final int HEAD = 0x0004;
    /** POST. */
    public static final int POST = 0x0008;
    /** PUT. */
    public static final int PUT = 0x0010;
    /** DELETE. */
    public static final int DELETE = 0x0020;
    /** MKCOL. */
    public static final int MKCOL = 0x0040;
    /** COPY. */
    public static final int COPY = 0x0080;
    /** MOVE. */
    public static final int MOVE = 0x0100;
    /** OPTIONS. */
    public static final int OPTIONS = 0x0200;
    /** PROPFIND. */
    public static final int PROPFIND = 0x0400;
    /** PROPPATCH. */
    public static final int PROPPATCH = 0x0800;
    /** LOCK. */
    public static final int LOCK = 0x1000;
    /** UNLOCK. */
    public static final int UNLOCK = 0x2000;
    /** PATCH. */
    public static final int PATCH = 0x4000;
    /** TRACE. */
    public static final int TRACE = 0x8000;
    /** CONNECT. */
    public static final int CONNECT = 0x10000;

    /** HTTP/0.9 as a number, nginx's {@code NGX_HTTP_VERSION_9}. */
    public static final int VERSION_9 = 9;
    /** HTTP/1.0. */
    public static final int VERSION_10 = 1000;
    /** HTTP/1.1. */
    public static final int VERSION_11 = 1001;

    /** The method as a bit ({@link #GET} ...). */
    public int method = UNKNOWN;
    /** The method as sent. */
    public String methodName;
    /** The protocol version, {@link #VERSION_11} and kin. */
    public int httpVersion;
    /** The protocol as sent ({@code HTTP/1.1}), empty for HTTP/0.9. */
    public String httpProtocol;
    /** The whole request line. */
    public String requestLine;
    /** The URI as sent, arguments included ({@code $request_uri}). */
    public String unparsedUri;
    /** The decoded, normalised path ({@code $uri}); changes with internal redirects. */
    public String uri;
    /** The arguments after {@code ?}, or the empty string ({@code $args}). */
    public String args = "";
    /** The extension of {@link #uri}'s last segment, or the empty string. */
    public String exten = "";
    /** The scheme of an absolute-form request line, or null. */
    public String schema;
    /** The host of an absolute-form request line, or null. */
    public String hostInLine;

    /** The request's headers. */
    public final HeadersIn headersIn = new HeadersIn();
    /** The response's status and headers. */
    public final HeadersOut headersOut = new HeadersOut();

    /** The response has no body (HEAD, 304, 204). */
    public boolean headerOnly;
    /** The connection stays open after this request. */
    public boolean keepalive;
    /** Close the connection lingering (unread body data may be on its way). */
    public boolean lingeringClose;
    /** The request came through an internal redirect (or is a named location's): {@code internal} allows it. */
    public boolean internal;
    /** The header has been sent. */
    public boolean headerSent;
    /** The request is being finalized with an error page; error_page does not apply again. */
    public boolean errorPage;
    /** Chunked transfer encoding is allowed for the response. */
    public boolean chunkedAllowed = true;
    /** The response is sent chunked. */
    public boolean chunked;
    /** Ranges may be served for this response. */
    public boolean allowRanges;
    /** The response body is complete in one buffer chain (nginx's {@code single_range}). */
    public boolean singleRange;

    /** Bytes of the request line and headers. */
    public long requestLength;
    /** When the request started, in the loop's wall-clock ms. */
    public long startMsec;
    /** Internal redirects left before nginx's "rewrite or internal redirection cycle" (10). */
    public int uriChanges = 11;

    /** The modules' {@link #keptCtx(int, Object) kept state}, made at its first use: most requests have none. */
    private Object[] kept;

    /**
     * Makes this request as a new one is, for the core, which reuses request objects: every field of this class
     * back to its initial value and the header tables emptied. Modules never call it.
     */
    protected void clearForReuse() {
        method = UNKNOWN;
        methodName = null;
        httpVersion = 0;
        httpProtocol = null;
        requestLine = null;
        unparsedUri = null;
        uri = null;
        args = "";
        exten = "";
        schema = null;
        hostInLine = null;
        headersIn.clear();
        headersOut.clear();
        headerOnly = false;
        keepalive = false;
        lingeringClose = false;
        internal = false;
        headerSent = false;
        errorPage = false;
        chunkedAllowed = true;
        chunked = false;
        allowRanges = false;
        singleRange = false;
        requestLength = 0;
        startMsec = 0;
        uriChanges = 11;
        kept = null;
    }

    /**
     * Gives this request the request line's facts and the headers of {@code from}, for the core making a subrequest
     * (nginx copies {@code r->headers_in}). Modules never call it.
     *
     * @param from the parent
     */
    protected void copyRequest(HttpRequest from) {
        headersIn.copyFrom(from.headersIn);
        httpVersion = from.httpVersion;
        httpProtocol = from.httpProtocol;
        requestLine = from.requestLine;
        unparsedUri = from.unparsedUri;
        schema = from.schema;
        hostInLine = from.hostInLine;
        startMsec = from.startMsec;
    }

    /**
     * Returns the client connection.
     *
     * @return the connection
     */
    public abstract Connection connection();

    /**
     * Returns the loop the request runs on.
     *
     * @return the loop
     */
    public abstract EventLoop loop();

    /**
     * Returns the log to write about this request ({@code *N} and the client in each line).
     *
     * @return the log
     */
    public abstract ErrorLog log();

    /**
     * Returns a module's main conf object.
     *
     * @param ctxIndex the module's index among HTTP modules
     * @return the conf object
     */
    public abstract Object mainConf(int ctxIndex);

    /**
     * Returns a module's conf object of the request's server.
     *
     * @param ctxIndex the module's index among HTTP modules
     * @return the conf object
     */
    public abstract Object srvConf(int ctxIndex);

    /**
     * Returns a module's conf object of the request's location.
     *
     * @param ctxIndex the module's index among HTTP modules
     * @return the conf object
     */
    public abstract Object locConf(int ctxIndex);

    /**
     * Returns a module's main conf object, typed. Added in SPI 1.3.
     *
     * @param key the module's key ({@link HttpConfig#confKey})
     * @param <T> the conf's class
     * @return the conf object
     */
    public final <T> T mainConf(HttpConfKey<T> key) {
        return key.cast(mainConf(key.ctxIndex()));
    }

    /**
     * Returns a module's conf object of the request's server, typed. Added in SPI 1.3.
     *
     * @param key the module's key ({@link HttpConfig#confKey})
     * @param <T> the conf's class
     * @return the conf object
     */
    public final <T> T srvConf(HttpConfKey<T> key) {
        return key.cast(srvConf(key.ctxIndex()));
    }

    /**
     * Returns a module's conf object of the request's location, typed: {@code HelloLocConf conf = r.locConf(loc);}.
     * Added in SPI 1.3.
     *
     * @param key the module's key ({@link HttpConfig#confKey})
     * @param <T> the conf's class
     * @return the conf object
     */
    public final <T> T locConf(HttpConfKey<T> key) {
        return key.cast(locConf(key.ctxIndex()));
    }

    /**
     * Returns a module's per-request state, or null: nginx's {@code ngx_http_get_module_ctx()}. The state lives from
     * the {@link #ctx(int, Object) set} until the request ends <em>or is redirected internally</em>: an
     * {@link #internalRedirect internal redirect} (also {@code index}, {@code try_files}, {@code error_page},
     * {@code rewrite ... last}) and a {@link #namedLocation named location} clear every module's state, as nginx
     * does, because the request then runs its phases again in another location. State that must outlive those
     * goes in {@link #keptCtx(int, Object)}. A {@link #subrequest subrequest} has its own states, empty at its start.
     *
     * @param ctxIndex the module's index among HTTP modules
     * @return the state
     */
    public abstract Object ctx(int ctxIndex);

    /**
     * Sets a module's per-request state, cleared by internal redirects ({@link #ctx(int)}).
     *
     * @param ctxIndex the module's index among HTTP modules
     * @param state the state
     */
    public abstract void ctx(int ctxIndex, Object state);

    /**
     * Returns a module's state that survives internal redirects, or null. Added in SPI 1.3.
     *
     * @param ctxIndex the module's index among HTTP modules
     * @return the state
     */
    public final Object keptCtx(int ctxIndex) {
        return kept == null || ctxIndex >= kept.length ? null : kept[ctxIndex];
    }

    /**
     * Sets a module's state for the whole request: unlike {@link #ctx(int, Object)} it is kept across internal
     * redirects and named locations ({@code index}, {@code try_files}, {@code error_page}, {@code rewrite ... last},
     * {@link #internalRedirect}), and dropped only when the request ends. For what a module learnt before a
     * redirect and needs after it: a count, a decision, a value for a variable of the log phase. Added in SPI 1.3.
     *
     * @param ctxIndex the module's index among HTTP modules
     * @param state the state, or null to drop it
     */
    public final void keptCtx(int ctxIndex, Object state) {
        if (kept == null || ctxIndex >= kept.length) {
            if (state == null) {
                return;
            }
            kept = Arrays.copyOf(kept == null ? new Object[0] : kept, Math.max(ctxIndex + 1, 8));
        }
        kept[ctxIndex] = state;
    }

    /**
     * Runs the header filters and sends the status line and headers (nginx's {@code ngx_http_send_header()}).
     *
     * @return {@link jinx.kernel.Rc#OK}, {@link jinx.kernel.Rc#AGAIN}, {@link jinx.kernel.Rc#ERROR}
     */
    public abstract int sendHeader();

    /**
     * Passes body buffers through the body filters (nginx's {@code ngx_http_output_filter()}).
     *
     * @param in the buffers
     * @return {@link jinx.kernel.Rc#OK}, {@link jinx.kernel.Rc#AGAIN}, {@link jinx.kernel.Rc#ERROR}
     */
    public abstract int outputFilter(BufChain in);

    /**
     * Finishes the request with a handler's result (nginx's {@code ngx_http_finalize_request()}): an HTTP status
     * sends that status's response (or its {@code error_page}), {@link jinx.kernel.Rc#OK} or
     * {@link jinx.kernel.Rc#DONE} ends it, {@link jinx.kernel.Rc#AGAIN} waits for the body to be sent.
     *
     * @param rc the result
     */
    public abstract void finalizeRequest(int rc);

    /**
     * Restarts the request at FIND_CONFIG with another URI (nginx's {@code ngx_http_internal_redirect()}).
     *
     * @param newUri the URI
     * @param newArgs its arguments, or null
     * @return {@link jinx.kernel.Rc#DONE}
     */
    public abstract int internalRedirect(String newUri, String newArgs);

    /**
     * Continues the request in a named location ({@code @name}).
     *
     * @param name the location's name, with its {@code @}
     * @return {@link jinx.kernel.Rc#DONE}
     */
    public abstract int namedLocation(String name);

    /**
     * Reads and drops the request body, so the connection can serve the next request.
     *
     * @return {@link jinx.kernel.Rc#OK} or an HTTP status
     */
    public abstract int discardRequestBody();

    /**
     * Returns a variable's value for this request, evaluated and cached as its flags allow.
     *
     * @param index the index {@code HttpConfig.variableIndex} returned at configuration time
     * @return the value, or null when not found
     */
    public abstract String variable(int index);

    /**
     * Returns the root of the request's location, evaluated (nginx's {@code $document_root}).
     *
     * @return the root, or null when it cannot be evaluated
     */
    public abstract String documentRoot();

    /**
     * Maps the URI to a file name by the location's {@code root} or {@code alias} (nginx's
     * {@code ngx_http_map_uri_to_path()}).
     *
     * @return the file name, or null when the root cannot be evaluated
     */
    public abstract String mapUriToPath();

    /**
     * Keeps the request alive past its handler's return, nginx's {@code r->main->count++}: a handler that goes on
     * later from an event (a timer, a thread pool's answer) calls this, returns {@link jinx.kernel.Rc#DONE}, and
     * ends the request later with {@link #finalizeRequest(int)}. Register a {@link #addCleanup cleanup} that
     * cancels the event: the client may go away meanwhile and the request be freed. Added in SPI 1.1.
     *
     * @throws UnsupportedOperationException for a request the core did not make (a test double)
     */
    public void retain() {
        throw new UnsupportedOperationException("retain() needs a request of the HTTP core");
    }

    /**
     * Adds something to run when the request is freed, however it ends (nginx's {@code ngx_http_cleanup_add()}):
     * delete a pending timer, release a resource. Added in SPI 1.1.
     *
     * @param cleanup what to run, on the loop's thread
     * @throws UnsupportedOperationException for a request the core did not make (a test double)
     */
    public void addCleanup(Runnable cleanup) {
        throw new UnsupportedOperationException("addCleanup() needs a request of the HTTP core");
    }

    /* ---- SPI 1.3: what a module that produces a response from elsewhere (a proxy) needs ---- */

    /**
     * A request's event, as nginx's {@code r->read_event_handler} and {@code r->write_event_handler} take it: the
     * core calls it when the client connection is readable or writable (or its timer fired) while the request is
     * active. Added in SPI 1.3.
     */
    @FunctionalInterface
    public interface EventHandler {

        /**
         * Handles the event.
         *
         * @param r the request
         */
        void handle(HttpRequest r);
    }

    /**
     * Reads the client's request body, into memory buffers or a temporary file as {@code client_body_buffer_size}
     * and {@code client_body_in_file_only} say (nginx's {@code ngx_http_read_client_request_body()}), and runs
     * {@code postHandler} once it is read: at once when there is none or it came with the header. The request is
     * {@linkplain #retain() retained} meanwhile: the handler returns {@link jinx.kernel.Rc#DONE} after a call that
     * answered {@code OK} or {@code AGAIN}, and ends the request later with {@link #finalizeRequest(int)}. Added in
     * SPI 1.3.
     *
     * @param postHandler what to run when the body is read, on the loop's thread
     * @return {@link jinx.kernel.Rc#OK} or {@link jinx.kernel.Rc#AGAIN} (the post handler runs, or will), or an HTTP
     *     status (400, 408, 413, 500) to finalize the request with
     * @throws UnsupportedOperationException for a request the core did not make (a test double)
     */
    public int readClientRequestBody(Runnable postHandler) {
        throw new UnsupportedOperationException("readClientRequestBody() needs a request of the HTTP core");
    }

    /**
     * Returns the request body read by {@link #readClientRequestBody}: memory buffers (from position to limit),
     * or one file buffer ({@link jinx.kernel.Buf#inFile}) of the temporary file. The buffers are the core's:
     * read them through duplicates and never change them. Added in SPI 1.3.
     *
     * @return the chain, or null when there is no body or it was not read
     */
    public BufChain requestBodyBufs() {
        return null;
    }

    /**
     * Sets what runs when the client connection is readable while the request is active (nginx's
     * {@code r->read_event_handler}). Null blocks reading ({@code ngx_http_block_reading}): the read event is
     * then ignored. Added in SPI 1.3.
     *
     * @param handler the handler, or null
     * @throws UnsupportedOperationException for a request the core did not make (a test double)
     */
    public void readEventHandler(EventHandler handler) {
        throw new UnsupportedOperationException("readEventHandler() needs a request of the HTTP core");
    }

    /**
     * Sets what runs when the client connection is writable, or its write timer fired, while the request is
     * active (nginx's {@code r->write_event_handler}): a producer that stopped because {@link #outputPending()}
     * resumes here. Null ignores the event. Added in SPI 1.3.
     *
     * @param handler the handler, or null
     * @throws UnsupportedOperationException for a request the core did not make (a test double)
     */
    public void writeEventHandler(EventHandler handler) {
        throw new UnsupportedOperationException("writeEventHandler() needs a request of the HTTP core");
    }

    /**
     * Tells whether the filters still hold output the client has not taken (nginx's {@code r->buffered ||
     * c->buffered}): a producer keeps its buffers busy and reads no more from its source until this is false or
     * its buffers came back. Added in SPI 1.3.
     *
     * @return true while output is pending
     */
    public boolean outputPending() {
        return false;
    }

    /**
     * Logs a line about this request with nginx's context ({@code while ACTION, client: ..., server: ...,
     * request: "...", upstream: "...", host: "..."}), an errno's text after the message when not 0. Added in SPI
     * 1.3.
     *
     * @param level the level
     * @param errno the error number, or 0
     * @param message the message
     */
    public void log(LogLevel level, int errno, String message) {
        ErrorLog l = log();
        if (l != null && l.isEnabled(level)) {
            l.log(level, connection().number, errno == 0 ? message : message + " (" + errno + ")");
        }
    }

    /**
     * Sets what the request is doing, for the error log's {@code while ...} (nginx's {@code log->action}), such as
     * {@code "reading response header from upstream"}. Added in SPI 1.3.
     *
     * @param action the action, or null
     */
    public void logAction(String action) {
    }

    /**
     * Sets the upstream the request talks to, which the error log's lines about it name
     * ({@code upstream: "http://127.0.0.1:8081/x"}, as nginx's {@code ngx_http_log_error_handler()} prints
     * {@code r->upstream}'s peer). Added in SPI 1.3.
     *
     * @param text the text between the quotes, or null
     */
    public void logUpstream(String text) {
    }

    /**
     * Tells whether {@link #unparsedUri} still names what {@link #uri} is: no rewrite changed the URI and no internal
     * redirect happened (nginx's {@code r->valid_unparsed_uri}); a proxy then sends the client's URI as it came.
     * Added in SPI 1.3.
     *
     * @return true when the unparsed URI may be sent as it is
     */
    public boolean validUnparsedUri() {
        return false;
    }

    /**
     * Tells whether the URI as sent held percent escapes or other bytes that normalising changed (nginx's
     * {@code r->quoted_uri}): a URI made from {@link #uri} must then be escaped again. Added in SPI 1.3.
     *
     * @return true when escaped
     */
    public boolean quotedUri() {
        return true;
    }

    /**
     * Appends the request's context to a log line about it or about a connection it uses ({@code while ACTION,
     * client: ..., server: ..., request: "...", upstream: "...", host: "..."}), as nginx's
     * {@code ngx_http_log_error()} does for the upstream connection's log. Added in SPI 1.3.
     *
     * @param sb the line so far
     */
    public void appendLogContext(StringBuilder sb) {
    }

    /**
     * Runs what the request's connection has posted (nginx's {@code ngx_http_run_posted_requests()}): a handler of
     * an event that is not the client connection's, such as an upstream's, calls it once it returns, as nginx's
     * {@code ngx_http_upstream_handler()} does, so that a request it finalized is ended now rather than at the
     * client's next event. Check first that the client connection is still the one the request came on (its
     * {@link Connection#number}): the request object is reused once freed. Added in SPI 1.3.
     */
    public void runPostedRequests() {
    }

    /**
     * Asks that the body {@link #readClientRequestBody} reads be passed on as it comes rather than read whole first
     * (nginx's {@code r->request_body_no_buffering}, {@code proxy_request_buffering off}): the post handler then runs
     * once what came with the header is read, {@link #readingBody()} tells whether more is to come, and the caller
     * takes the body piece by piece with {@link #readUnbufferedRequestBody()} and {@link #takeRequestBodyBufs()}.
     * Set before reading the body. Added in SPI 1.4.
     *
     * @param on whether to pass the body on unbuffered
     * @throws UnsupportedOperationException for a request the core did not make (a test double)
     */
    public void requestBodyNoBuffering(boolean on) {
        throw new UnsupportedOperationException("requestBodyNoBuffering() needs a request of the HTTP core");
    }

    /**
     * Tells whether an unbuffered body has more to come (nginx's {@code r->reading_body}). Added in SPI 1.4.
     *
     * @return true while the client is still sending the body
     */
    public boolean readingBody() {
        return false;
    }

    /**
     * Reads what the client has sent of an unbuffered body (nginx's {@code ngx_http_read_unbuffered_request_body()}):
     * the pieces read wait in {@link #takeRequestBodyBufs()}. The core's receive buffer is reused only once every
     * piece taken from it was consumed (its position at its limit), so a consumer that does not keep up stops the
     * reading, and the client with it. While more is to come the request's {@link #readEventHandler read handler}
     * runs when the client sends again, or when {@code client_body_timeout} expires. Added in SPI 1.4.
     *
     * @return {@link jinx.kernel.Rc#OK} when the whole body was read, {@link jinx.kernel.Rc#AGAIN} when more is to
     *     come, or an HTTP status (400, 408, 413, 500) to end the request with
     * @throws UnsupportedOperationException for a request the core did not make (a test double)
     */
    public int readUnbufferedRequestBody() {
        throw new UnsupportedOperationException("readUnbufferedRequestBody() needs a request of the HTTP core");
    }

    /**
     * Takes the pieces of an unbuffered body read since the last call (nginx's {@code out = r->request_body->bufs;
     * r->request_body->bufs = NULL}): memory buffers to send and consume, the last one flagged {@code last}. Added
     * in SPI 1.4.
     *
     * @return the chain, or null when nothing new was read
     */
    public BufChain takeRequestBodyBufs() {
        return null;
    }

    /**
     * Tells whether the location has an {@code error_page} for {@code status} (nginx's loop over
     * {@code clcf->error_pages} in {@code ngx_http_upstream_intercept_errors()}): a module that passes a response
     * from elsewhere ({@code proxy_intercept_errors}) finalizes the request with the status instead, so that the
     * page is served. Added in SPI 1.4.
     *
     * @param status the response's status
     * @return true when {@link #finalizeRequest(int)} with {@code status} would serve an error page
     */
    public boolean hasErrorPage(int status) {
        return false;
    }

    /**
     * Sets the rate the response is sent to the client at, in bytes per second, 0 for no limit: nginx's
     * {@code r->limit_rate}, as {@code limit_rate}, {@code set $limit_rate} and an upstream's
     * {@code X-Accel-Limit-Rate} set it. Added in SPI 1.4.
     *
     * @param bytesPerSecond the rate, 0 for none
     * @throws UnsupportedOperationException for a request the core did not make (a test double)
     */
    public void limitRate(long bytesPerSecond) {
        throw new UnsupportedOperationException("limitRate() needs a request of the HTTP core");
    }

    /**
     * Sends a whole response in one call, nginx's {@code ngx_http_send_response()} for a body in hand: reads and
     * drops the request body, sets the status, {@code Content-Type} and {@code Content-Length}, sends the header
     * and then {@code body} as the last buffer (the header only for HEAD, 204 or 304). A content handler returns
     * what this returns:
     *
     * <pre>{@code
     * return r.sendResponse(200, "text/plain", "Hello!\n");
     * }</pre>
     *
     * A redirect is not sent this way: set {@code headersOut.location} and return the status. Added in SPI 1.3.
     *
     * @param status the status, 200 and up
     * @param contentType the {@code Content-Type}, or null for the type of the URI's extension in the location's
     *     {@code types}, else its {@code default_type}
     * @param body the body; copied, so the caller may reuse the array
     * @return {@link jinx.kernel.Rc#OK}, {@link jinx.kernel.Rc#AGAIN}, {@link jinx.kernel.Rc#ERROR} or an HTTP
     *     status, for the handler to return
     */
    public int sendResponse(int status, String contentType, byte[] body) {
        return ResponseBodies.send(this, status, contentType, body);
    }

    /**
     * {@link #sendResponse(int, String, byte[])} with a text body, encoded as UTF-8. Added in SPI 1.3.
     *
     * @param status the status, 200 and up
     * @param contentType the {@code Content-Type}, or null for the location's type
     * @param body the body
     * @return what the handler returns
     */
    public int sendResponse(int status, String contentType, String body) {
        return sendResponse(status, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    /* ---- SPI 1.5: subrequests, nginx's ngx_http_subrequest() ---- */

    /**
     * {@link #subrequest} flag: the subrequest's response body is collected in one memory buffer of
     * {@code subrequest_output_buffer_size} bytes ({@link #subrequestOutput()}) instead of going to the client
     * (nginx's {@code NGX_HTTP_SUBREQUEST_IN_MEMORY}). Added in SPI 1.5.
     */
    public static final int SUBREQUEST_IN_MEMORY = 2;
    /**
     * {@link #subrequest} flag: the subrequest is marked done even when it ends before its turn to output comes, so
     * that its parent learns it ended (nginx's {@code NGX_HTTP_SUBREQUEST_WAITED}). Added in SPI 1.5.
     */
    public static final int SUBREQUEST_WAITED = 4;
    /**
     * {@link #subrequest} flag: the subrequest runs in the parent's location with its method and content handler,
     * from the phase the parent is in (nginx's {@code NGX_HTTP_SUBREQUEST_CLONE}). Added in SPI 1.5.
     */
    public static final int SUBREQUEST_CLONE = 8;
    /**
     * {@link #subrequest} flag: the subrequest outputs nothing and nobody waits for it; the main request's response
     * may end before it (nginx's {@code NGX_HTTP_SUBREQUEST_BACKGROUND}, as {@code mirror} uses). Added in SPI 1.5.
     */
    public static final int SUBREQUEST_BACKGROUND = 16;

    /**
     * What runs each time a subrequest is finalized, before the core acts on the result (nginx's
     * {@code ngx_http_post_subrequest_t}): it may record the subrequest's status and returns the result to go on
     * with, usually {@code rc} itself. The core posts the parent afterwards, so a parent that returned
     * {@link jinx.kernel.Rc#AGAIN} from a phase handler runs its phases again. Added in SPI 1.5.
     */
    @FunctionalInterface
    public interface PostSubrequest {

        /**
         * Handles the end of a subrequest.
         *
         * @param sr the subrequest
         * @param rc the result it is finalized with
         * @return the result to finalize it with
         */
        int handle(HttpRequest sr, int rc);
    }

    /**
     * Starts a subrequest of this request (nginx's {@code ngx_http_subrequest()}): a GET of {@code uri} (already
     * decoded, as {@link #uri}) in the same server, with this request's headers, body and variables, that runs its
     * phases from SERVER_REWRITE once the current handler returns. Its response header is never sent; its body
     * goes to the client in order, after what this request output before the call and before what it outputs after
     * (nginx's postponed output), or into memory ({@link #SUBREQUEST_IN_MEMORY}), or nowhere
     * ({@link #SUBREQUEST_BACKGROUND}). Nesting is limited to 50 levels ({@code subrequests cycle while processing})
     * and a main request to 64535 references. The caller may set the subrequest's {@link #headerOnly}, {@link #method}
     * and {@link #methodName} before returning. Added in SPI 1.5.
     *
     * @param uri the path
     * @param args the arguments, or null
     * @param flags {@link #SUBREQUEST_IN_MEMORY}, {@link #SUBREQUEST_WAITED}, {@link #SUBREQUEST_CLONE},
     *     {@link #SUBREQUEST_BACKGROUND}, or 0
     * @param ps what to run when it is finalized, or null
     * @return the subrequest, or null on error (logged; finalize with {@link jinx.kernel.Rc#ERROR})
     * @throws UnsupportedOperationException for a request the core did not make (a test double)
     */
    public HttpRequest subrequest(String uri, String args, int flags, PostSubrequest ps) {
        throw new UnsupportedOperationException("subrequest() needs a request of the HTTP core");
    }

    /**
     * Returns the request the client sent, which this one is a subrequest of, or this request itself (nginx's
     * {@code r->main}). Filters that act on the response the client gets skip subrequests:
     * {@code if (r.main() != r) return next.filter(r);}. Added in SPI 1.5.
     *
     * @return the main request
     */
    public HttpRequest main() {
        return this;
    }

    /**
     * Returns the request that started this subrequest, or null for a main request (nginx's {@code r->parent}).
     * Added in SPI 1.5.
     *
     * @return the parent, or null
     */
    public HttpRequest parent() {
        return null;
    }

    /**
     * Returns what an {@link #SUBREQUEST_IN_MEMORY in-memory} subrequest's response body collected (nginx's
     * {@code r->out}): one memory buffer from position to limit, or null when it had no body. Added in SPI 1.5.
     *
     * @return the body, or null
     */
    public jinx.kernel.Buf subrequestOutput() {
        return null;
    }
}
