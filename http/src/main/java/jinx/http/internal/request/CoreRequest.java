package jinx.http.internal.request;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import jinx.http.HttpRequest;
import jinx.http.internal.core.Captures;
import jinx.http.internal.core.ErrorPage;
import jinx.http.internal.core.HttpConfCtx;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.core.HttpCoreMainConf;
import jinx.http.internal.core.HttpCoreSrvConf;
import jinx.http.internal.core.LocationMatch;
import jinx.http.internal.io.HttpRequestBody;
import jinx.http.internal.io.RequestBody;
import jinx.http.internal.io.UnbufferedRequestBody;
import jinx.http.internal.parse.HttpParseState;
import jinx.http.internal.variables.RequestFacts;
import jinx.http.spi.PhaseHandler;
import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;

/**
 * The request the core makes: nginx's {@code ngx_http_request_t} behind the API's {@link HttpRequest}. Besides
 * the API's fields it keeps the parser's state, the confs chosen for the request (module conf arrays indexed by
 * the module's HTTP index), the module contexts, the variable cache, the phase index and the flags of nginx's
 * request that the engine and the body and output code share ({@link #discardBody}, {@link #readingBody},
 * {@link #count}, {@link #buffered} ...).
 *
 * <p>Other core packages (the request body, the filters, the variables) may cast an {@link HttpRequest} to this
 * class; modules never do.
 */
public final class CoreRequest extends HttpRequest implements RequestFacts, Captures.Holder {

    /** A new request's read handler, one object for every request. */
    private static final RequestEventHandler BLOCK_READING = RequestEvents::blockReading;

    /** nginx's {@code NGX_HTTP_MAX_URI_CHANGES}. */
    static final int MAX_URI_CHANGES = 10;

    /** The connection; set again when the object is reused for another connection's request. */
    HttpConnection hc;
    /** {@link #hc}'s kernel connection. */
    Connection c;

    /** The main confs (nginx's {@code r->main_conf}). */
    Object[] mainConf;
    /** The server's confs (nginx's {@code r->srv_conf}). */
    Object[] srvConf;
    /** The location's confs (nginx's {@code r->loc_conf}). */
    Object[] locConf;
    private final Object[] ctx;

    /** The parser's state for this request (nginx's parse fields of {@code ngx_http_request_t}). */
    public final HttpParseState parse = new HttpParseState();
    /** The buffer the request line and headers are read into (nginx's {@code r->header_in}). */
    public ByteBuffer headerIn;

    /** The groups of the last regex that matched (server name, location): nginx's {@code r->captures}. */
    public final Captures captures = new Captures();
    final LocationMatch locationMatch = new LocationMatch(captures);

    /** nginx's {@code r->read_event_handler}. */
    public RequestEventHandler readEventHandler = BLOCK_READING;
    /** nginx's {@code r->write_event_handler}; null until the header is read. */
    public RequestEventHandler writeEventHandler;
    /** The location's content handler (nginx's {@code r->content_handler}), or null. */
    public PhaseHandler contentHandler;

    /** The entry of the phase engine to run next (nginx's {@code r->phase_handler}). */
    public int phaseHandler;
    /** The status an error page was asked for, sent instead of the page's own (nginx's {@code r->err_status}). */
    public int errStatus;
    /** The access phase's pending status under {@code satisfy any} (nginx's {@code r->access_code}). */
    int accessCode;
    /** References to the request: body reading adds one (nginx's {@code r->main->count}). */
    public int count = 1;
    /** Filters hold back data (nginx's {@code r->buffered}). */
    public int buffered;

    /** The URI changed in the rewrite phase: look the location up again (nginx's {@code r->uri_changed}). */
    public boolean uriChanged;
    /** The URI is the one the location was found for, so {@code alias} applies (nginx's {@code valid_location}). */
    boolean validLocation;
    /** {@code try_files} in a regex {@code alias} location chose a file: append the URI (nginx's flag). */
    boolean addUriToAlias;
    /** The body is being discarded (nginx's {@code r->discard_body}). */
    public boolean discardBody;
    /** The body is being read (nginx's {@code r->reading_body}). */
    public boolean readingBody;
    /** {@code Expect: 100-continue} was answered, or must not be (nginx's {@code r->expect_tested}). */
    public boolean expectTested;
    /** The LOG phase has run (nginx's {@code r->logged}). */
    public boolean logged;
    /** The request is finished (nginx's {@code r->done}). */
    boolean done;
    /** The request has output body data (nginx's {@code r->request_output}), for SSI's {@code stub}. */
    public boolean requestOutput;
    /** The response was completely produced (nginx's {@code r->request_complete}). */
    public boolean requestComplete;
    /** The request runs its {@code post_action} (nginx's {@code r->post_action}). */
    public boolean postAction;
    /** A filter finalized the request (nginx's {@code r->filter_finalize}). */
    public boolean filterFinalize;
    /** The request was read from the previous request's buffer (nginx's {@code r->pipeline}). */
    public boolean pipelined;
    /** The write handler is to run once the current handler returns (nginx's posted request). */
    boolean posted;
    /** The request was freed (nginx's {@code r->pool == NULL}). */
    boolean freed;
    /** When lingering ends, in the loop's wall-clock seconds (nginx's {@code r->lingering_time}); 0 unset. */
    public long lingeringTime;
    /** The response rate limit in bytes per second (nginx's {@code r->limit_rate}). */
    public long limitRate;
    /** Bytes of the response header sent (nginx's {@code r->header_size}), set by the header filter. */
    public long headerSize;
    /** The request body's state, owned by the body code (nginx's {@code r->request_body}), or null. */
    public Object requestBody;
    /** The body is passed on as it comes rather than read whole first (nginx's {@code request_body_no_buffering}). */
    public boolean requestBodyNoBuffering;

    /** {@code Keep-Alive: timeout=} as sent (nginx's {@code headers_in.keep_alive_n}), -1 when absent. */
    long keepAliveN = -1;
    /** User-Agent flags nginx computes while reading the header (nginx's {@code headers_in.msie} ...). */
    public boolean msie;
    /** MSIE 4 to 6. */
    public boolean msie6;
    /** Opera. */
    public boolean opera;
    /** Gecko. */
    public boolean gecko;
    /** Chrome. */
    public boolean chrome;
    /** Safari on Mac OS X. */
    public boolean safari;
    /** Konqueror. */
    public boolean konqueror;
    /** {@code add_trailer} will add trailers: the response goes chunked (nginx's {@code r->expect_trailers}). */
    public boolean expectTrailers;
    /** The trailers, name and value in turn (nginx's {@code r->headers_out.trailers}), or null for none. */
    public java.util.List<String> trailers;
    /** {@code ngx_http_gzip_ok()} has run (nginx's {@code r->gzip_tested}). */
    public boolean gzipTested;
    /** Its answer (nginx's {@code r->gzip_ok}). */
    public boolean gzipOk;
    /** A gzip module looked at the response: {@code gzip_vary} adds its line (nginx's {@code r->gzip_vary}). */
    public boolean gzipVary;
    /** What {@code limit_req} decided, 1 to 5 for {@code $limit_req_status}; 0 until it ran. */
    public int limitReqStatus;
    /** What {@code limit_conn} decided, 1 to 3 for {@code $limit_conn_status}; 0 until it ran. */
    public int limitConnStatus;

    /** The variable cache (nginx's {@code r->variables}), made on first use. */
    public String[] variableCache;

    private List<Runnable> cleanups;
    /** Files to close when the request is freed. */
    private final FileCleanups files = new FileCleanups();
    /** The emptied list of the last cleanups, kept for the next request of a reused object. */
    private List<Runnable> spareCleanups;

    /**
     * The write filter's state object, kept when this object is reused for another request (the filter makes it
     * new again): the one field {@link #reuse} leaves alone.
     */
    public Object writeState;
    /** What the error log names as the request's upstream ({@link #logUpstream}), or null. */
    private String upstreamLogName;

    /* ---- subrequests (nginx's r->main, r->parent, r->postponed ...); a main request allocates none of this ---- */

    /** The main request, this one for a request the client sent (nginx's {@code r->main}). */
    public CoreRequest main = this;
    /** The request this subrequest belongs to, or null (nginx's {@code r->parent}). */
    public CoreRequest parent;
    /** Subrequests and output waiting their turn, in order (nginx's {@code r->postponed}), or null. */
    public Postponed postponed;
    /** What runs when this subrequest is finalized (nginx's {@code r->post_subrequest}), or null. */
    HttpRequest.PostSubrequest postSubrequest;
    /** Nesting levels left (nginx's {@code r->subrequests}): 51 for a main request. */
    int subrequests = Subrequests.MAX_SUBREQUESTS + 1;
    /** The body goes to {@link #out} (nginx's {@code r->subrequest_in_memory}). */
    public boolean subrequestInMemory;
    /** nginx's {@code r->waited}. */
    boolean waited;
    /** nginx's {@code r->background}. */
    boolean background;
    /** An in-memory subrequest's body (nginx's {@code r->out}), or null. */
    public jinx.kernel.Buf out;
    /** The main request's posted subrequests (nginx's {@code r->posted_requests} but the terminal one), or null. */
    java.util.ArrayDeque<CoreRequest> postedRequests;

    CoreRequest(HttpConnection hc) {
        this.ctx = new Object[hc.confCtx.mainConf.length];
        start(hc);
    }

    /** What the constructor and a reuse share: the request starts on {@code hc}. */
    private void start(HttpConnection hc) {
        this.hc = hc;
        this.c = hc.c;
        HttpConfCtx confs = hc.confCtx;
        this.mainConf = confs.mainConf;
        this.srvConf = confs.srvConf;
        this.locConf = confs.locConf;
        this.headerIn = hc.busy.isEmpty() ? hc.buffer : hc.busy.peekFirst();
        this.startMsec = hc.loop.wallMillis();
        this.method = UNKNOWN;
        this.httpVersion = VERSION_10;
        this.uriChanges = MAX_URI_CHANGES + 1;
    }

    /**
     * Tells whether this freed request can serve as a new request of {@code hc}: its module context array fits
     * the connection's configuration.
     *
     * @param hc the connection
     * @return whether {@link #reuse} may be called
     */
    boolean fits(HttpConnection hc) {
        return freed && ctx.length == hc.confCtx.mainConf.length;
    }

    /**
     * Makes this freed request a new request of {@code hc}, as the constructor makes one: nginx allocates a
     * request from a fresh pool, and reusing the object keeps the loop from allocating per request.
     * {@code ReuseTest} checks that every field is back to a new request's value.
     *
     * @param hc the connection
     * @return this request
     */
    CoreRequest reuse(HttpConnection hc) {
        clearForReuse();
        java.util.Arrays.fill(ctx, null);
        parse.reset();
        parse.upstream = false;
        headerIn = null;
        captures.clear();
        locationMatch.loc = null;
        locationMatch.failed = null;
        readEventHandler = BLOCK_READING;
        writeEventHandler = null;
        contentHandler = null;
        phaseHandler = 0;
        errStatus = 0;
        accessCode = 0;
        count = 1;
        buffered = 0;
        expectTrailers = false;
        trailers = null;
        uriChanged = false;
        validLocation = false;
        addUriToAlias = false;
        discardBody = false;
        readingBody = false;
        expectTested = false;
        logged = false;
        done = false;
        requestOutput = false;
        requestComplete = false;
        postAction = false;
        filterFinalize = false;
        pipelined = false;
        posted = false;
        freed = false;
        lingeringTime = 0;
        limitRate = 0;
        headerSize = 0;
        requestBody = null;
        requestBodyNoBuffering = false;
        keepAliveN = -1;
        msie = false;
        msie6 = false;
        opera = false;
        gecko = false;
        chrome = false;
        safari = false;
        konqueror = false;
        gzipTested = false;
        gzipOk = false;
        gzipVary = false;
        limitReqStatus = 0;
        limitConnStatus = 0;
        variableCache = null;
        cleanups = null;
        upstreamLogName = null;
        main = this;
        parent = null;
        postponed = null;
        postSubrequest = null;
        subrequests = Subrequests.MAX_SUBREQUESTS + 1;
        subrequestInMemory = false;
        waited = false;
        background = false;
        out = null;
        if (postedRequests != null) {
            postedRequests.clear();
        }
        start(hc);
        return this;
    }

    /* ---- SPI 1.5 ---- */

    @Override
    protected void copyRequest(HttpRequest from) {
        super.copyRequest(from);
    }

    @Override
    public HttpRequest subrequest(String uri, String args, int flags, PostSubrequest ps) {
        return Subrequests.create(this, uri, args, flags, ps);
    }

    @Override
    public HttpRequest main() {
        return main;
    }

    @Override
    public HttpRequest parent() {
        return parent;
    }

    @Override
    public jinx.kernel.Buf subrequestOutput() {
        return out;
    }

    /* ---- SPI 1.3 ---- */

    @Override
    public int readClientRequestBody(Runnable postHandler) {
        return HttpRequestBody.readClientRequestBody(this, postHandler);
    }

    @Override
    public BufChain requestBodyBufs() {
        return requestBody instanceof RequestBody rb ? rb.bufs() : null;
    }

    @Override
    public void requestBodyNoBuffering(boolean on) {
        requestBodyNoBuffering = on;
    }

    @Override
    public boolean readingBody() {
        return readingBody;
    }

    @Override
    public int readUnbufferedRequestBody() {
        return UnbufferedRequestBody.read(this);
    }

    @Override
    public BufChain takeRequestBodyBufs() {
        return UnbufferedRequestBody.take(this);
    }

    @Override
    public void readEventHandler(EventHandler handler) {
        readEventHandler = handler == null ? BLOCK_READING : r -> handler.handle(r);
    }

    @Override
    public void writeEventHandler(EventHandler handler) {
        writeEventHandler = handler == null ? RequestEvents::emptyHandler : r -> handler.handle(r);
    }

    @Override
    public boolean outputPending() {
        return buffered != 0 || hc.buffered != 0;
    }

    @Override
    public boolean validUnparsedUri() {
        return parse.validUnparsedUri;
    }

    @Override
    public boolean quotedUri() {
        return parse.quotedUri;
    }

    @Override
    public void appendLogContext(StringBuilder sb) {
        if (hc.action != null) {
            sb.append(" while ").append(hc.action);
        }
        sb.append(", client: ").append(remoteAddr());
        appendRequestContext(sb);
    }

    @Override
    public void runPostedRequests() {
        RequestFinalizer.runPostedRequests(hc);
    }

    @Override
    public void logUpstream(String text) {
        upstreamLogName = text;
    }

    /* ---- the confs ---- */

    /**
     * Returns {@code http_core}'s main conf.
     *
     * @return the main conf
     */
    public HttpCoreMainConf cmcf() {
        return (HttpCoreMainConf) mainConf[hc.coreIndex];
    }

    /**
     * Returns {@code http_core}'s conf of the request's server.
     *
     * @return the server conf
     */
    public HttpCoreSrvConf cscf() {
        return (HttpCoreSrvConf) srvConf[hc.coreIndex];
    }

    /**
     * Returns {@code http_core}'s conf of the request's location.
     *
     * @return the location conf
     */
    public HttpCoreLocConf clcf() {
        return (HttpCoreLocConf) locConf[hc.coreIndex];
    }

    /**
     * Sets the request's location: the module confs of {@code loc} (nginx's {@code r->loc_conf = ...}).
     *
     * @param loc the location conf
     */
    void location(HttpCoreLocConf loc) {
        locConf = loc.locConf;
    }

    /**
     * Gives the request the confs of a location without a name ({@code if {}} in a location) and applies what
     * they decide: nginx's {@code r->loc_conf = ...} with {@code ngx_http_update_location_config()}.
     *
     * @param confs the location's confs, indexed by HTTP module
     */
    public void useLocationConf(Object[] confs) {
        locConf = confs;
        PhaseRunner.updateLocationConfig(this);
    }

    /**
     * Returns the request's HTTP connection.
     *
     * @return the connection's HTTP state
     */
    public HttpConnection httpConnection() {
        return hc;
    }

    /* ---- HttpRequest ---- */

    @Override
    public Connection connection() {
        return c;
    }

    @Override
    public EventLoop loop() {
        return hc.loop;
    }

    @Override
    public ErrorLog log() {
        return c.log;
    }

    /**
     * Logs a line about this request with nginx's context ({@code while ..., client: ..., server: ...,
     * request: "..."}).
     *
     * @param level the level
     * @param message the message
     */
    public void log(LogLevel level, String message) {
        hc.log(level, 0, message);
    }

    /**
     * Logs a line with an errno's text, as {@code ngx_log_error(level, log, err, ...)}.
     *
     * @param level the level
     * @param errno the error number, 0 for none
     * @param message the message
     */
    @Override
    public void log(LogLevel level, int errno, String message) {
        hc.log(level, errno, message);
    }

    /**
     * Sets what the connection is doing, for the error log's {@code while ...} (nginx's {@code log->action}):
     * the static module says {@code "sending response to client"}.
     *
     * @param action the action, or null
     */
    @Override
    public void logAction(String action) {
        hc.action = action;
    }

    @Override
    public Object mainConf(int ctxIndex) {
        return mainConf[ctxIndex];
    }

    @Override
    public Object srvConf(int ctxIndex) {
        return srvConf[ctxIndex];
    }

    @Override
    public Object locConf(int ctxIndex) {
        return locConf[ctxIndex];
    }

    @Override
    public Object ctx(int ctxIndex) {
        return ctx[ctxIndex];
    }

    @Override
    public void ctx(int ctxIndex, Object state) {
        ctx[ctxIndex] = state;
    }

    /** Clears every module's context: an internal redirect or a named location starts afresh. */
    void clearCtx() {
        java.util.Arrays.fill(ctx, null);
    }

    @Override
    public int sendHeader() {
        if (postAction) {
            return Rc.OK;
        }
        if (headerSent) {
            log(LogLevel.ALERT, "header already sent");
            return Rc.ERROR;
        }
        if (errStatus != 0) {
            headersOut.status = errStatus;
            headersOut.statusLine = null;
        }
        return cmcf().headerFilter.filter(this);
    }

    /**
     * Tells whether this request is the one whose output goes to the client now (nginx's
     * {@code r == r->connection->data}).
     *
     * @return true when active
     */
    public boolean active() {
        return hc.active() == this;
    }

    /**
     * Tells whether the request is finished (nginx's {@code r->done}): a waited subrequest is marked so even
     * before its turn to output comes.
     *
     * @return true when done
     */
    public boolean isDone() {
        return done;
    }

    @Override
    public int outputFilter(BufChain in) {
        if (in != null && in.buf.size() > 0) {
            requestOutput = true;
        }
        int rc = cmcf().bodyFilter.filter(this, in);
        if (rc == Rc.ERROR) {
            // ERROR may be returned by any filter
            c.error = true;
        }
        return rc;
    }

    @Override
    public void finalizeRequest(int rc) {
        RequestFinalizer.finalizeRequest(this, rc);
    }

    @Override
    public int internalRedirect(String newUri, String newArgs) {
        return InternalRedirects.internalRedirect(this, newUri, newArgs);
    }

    @Override
    public int namedLocation(String name) {
        return InternalRedirects.namedLocation(this, name);
    }

    @Override
    public int discardRequestBody() {
        return HttpRequestBody.discardRequestBody(this);
    }

    @Override
    public String variable(int index) {
        return cmcf().variables.evaluate(this, index, variableCache());
    }

    /**
     * Returns the variable cache, made on first use.
     *
     * @return the cache
     */
    public String[] variableCache() {
        if (variableCache == null) {
            variableCache = cmcf().variables.newCache();
        }
        return variableCache;
    }

    @Override
    public String documentRoot() {
        return UriToPath.documentRoot(this);
    }

    @Override
    public String mapUriToPath() {
        return UriToPath.map(this);
    }

    /**
     * Sends the response's end without data (nginx's {@code ngx_http_send_special(r, NGX_HTTP_LAST)}).
     *
     * @return the body filters' result
     */
    public int sendLast() {
        jinx.kernel.Buf b = new jinx.kernel.Buf();
        if (!postAction) {
            b.last = true;
        } else {
            b.sync = true;
            b.lastInChain = true;
        }
        return outputFilter(BufChain.of(b));
    }

    @Override
    public void retain() {
        main.count++;
    }

    /**
     * Adds something to run when the request is freed (nginx's {@code ngx_http_cleanup_add()}): temporary files,
     * for instance.
     *
     * @param cleanup what to run
     */
    @Override
    public void addCleanup(Runnable cleanup) {
        if (main != this) {
            main.addCleanup(cleanup);
            return;
        }
        if (cleanups == null) {
            cleanups = spareCleanups != null ? spareCleanups : new ArrayList<>(2);
            spareCleanups = null;
        }
        cleanups.add(cleanup);
    }

    /**
     * Closes a file's descriptor when the request is freed (nginx's {@code ngx_pool_cleanup_file()}), after the
     * cleanups added with {@link #addCleanup}.
     *
     * @param fd the descriptor
     * @param path the file's name, for the error log
     */
    public void addFileCleanup(int fd, String path) {
        main.files.add(fd, path);
    }

    /** Runs the cleanups, the last added first, as nginx's list does, then closes the files. */
    void runCleanups() {
        List<Runnable> list = cleanups;
        cleanups = null;
        if (list == null) {
            files.closeAll(this);
            return;
        }
        for (int i = list.size() - 1; i >= 0; i--) {
            list.get(i).run();
        }
        list.clear();
        spareCleanups = list;
        files.closeAll(this);
    }

    /* ---- the error log's request context: ngx_http_log_error_handler() ---- */

    void appendRequestContext(StringBuilder sb) {
        sb.append(", server: ").append(cscf().serverName);
        String line = requestLine;
        if (line == null && parse.requestStart != HttpParseState.NONE && headerIn != null) {
            line = partialRequestLine();
        }
        if (line != null && !line.isEmpty()) {
            sb.append(", request: \"").append(line).append('"');
        }
        if (upstreamLogName != null) {
            sb.append(", upstream: \"").append(upstreamLogName).append('"');
        }
        if (headersIn.host != null) {
            sb.append(", host: \"").append(headersIn.host.value).append('"');
        }
        if (headersIn.referer != null) {
            sb.append(", referrer: \"").append(headersIn.referer.value).append('"');
        }
    }

    /**
     * Returns the groups of the last regex that matched, which the named-capture variables
     * ({@code (?<name>...)} makes {@code $name}) read.
     *
     * @return the captures
     */
    @Override
    public Captures captures() {
        return captures;
    }

    /** The request line read so far, up to a CR or LF: nginx computes it so for the log. */
    private String partialRequestLine() {
        ByteBuffer b = headerIn;
        int start = parse.requestStart;
        int end = b.limit();
        if (start > end) {
            return null;
        }
        StringBuilder sb = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            byte ch = b.get(i);
            if (ch == '\r' || ch == '\n') {
                break;
            }
            sb.append((char) (ch & 0xff));
        }
        return sb.toString();
    }

    /* ---- RequestFacts: what the variables read ---- */

    @Override
    public String remoteAddr() {
        return hc.remoteAddr();
    }

    @Override
    public int remotePort() {
        return hc.remotePort();
    }

    @Override
    public String serverAddr() {
        jinx.kernel.os.SockAddr a = hc.localSockaddr();
        if (a == null) {
            return "";
        }
        if (a.isUnix()) {
            // nginx's ngx_sock_ntop(): "unix:" and the listening socket's path
            return a.toString();
        }
        String t = a.toString();
        return t.startsWith("[") ? t.substring(1, t.lastIndexOf(']')) : t.substring(0, t.lastIndexOf(':'));
    }

    @Override
    public int serverPort() {
        jinx.kernel.os.SockAddr a = hc.localSockaddr();
        return a == null || a.isUnix() ? 0 : a.port();
    }

    @Override
    public String serverName() {
        return cscf().serverName;
    }

    @Override
    public long wallMillis() {
        return hc.loop.wallMillis();
    }

    @Override
    public long bytesSent() {
        return c.sent;
    }

    @Override
    public long bodyBytesSent() {
        return Math.max(0, c.sent - headerSize);
    }

    @Override
    public long connectionNumber() {
        return c.number;
    }

    @Override
    public int connectionRequests() {
        return c.requests;
    }

    @Override
    public String requestBody() {
        return HttpRequestBody.text(this);
    }

    @Override
    public int errStatus() {
        return errStatus;
    }

    @Override
    public long limitRate() {
        return limitRate;
    }

    @Override
    public void limitRate(long bytesPerSecond) {
        limitRate = bytesPerSecond;
    }

    @Override
    public boolean hasErrorPage(int status) {
        List<ErrorPage> pages = clcf().errorPages;
        if (pages == null) {
            return false;
        }
        for (ErrorPage ep : pages) {
            if (ep.status() == status) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean ssl() {
        return hc.secure;
    }

    @Override
    public boolean pipelined() {
        return pipelined;
    }

    @Override
    public long keepaliveHeader() {
        return clcf().keepaliveHeader;
    }

    @Override
    public String capture(int n) {
        if (n >= captures.count()) {
            return null;
        }
        return captures.group(n);
    }

    /**
     * Returns {@code Keep-Alive: timeout=} as the client sent it, -1 when absent.
     *
     * @return seconds
     */
    public long keepAliveN() {
        return keepAliveN;
    }
}
