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
     * goes in {@link #keptCtx(int, Object)}. (Jinx has no subrequests: a request has one state per module.)
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
}
