package jinx.http.internal.request;

import java.nio.ByteBuffer;

import jinx.http.HttpRequest;
import jinx.http.internal.core.AddrConf;
import jinx.http.internal.core.HttpCoreSrvConf;
import jinx.http.internal.core.ListeningServers;
import jinx.http.internal.core.Servers;
import jinx.http.internal.parse.HttpParseState;
import jinx.http.internal.parse.HttpParser;
import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.Errors;

/**
 * Reading a request: nginx's {@code ngx_http_init_connection()}, {@code ngx_http_wait_request_handler()},
 * {@code ngx_http_create_request()}, {@code ngx_http_process_request_line()},
 * {@code ngx_http_process_request_headers()}, {@code ngx_http_read_request_header()} and
 * {@code ngx_http_process_request()} (src/http/ngx_http_request.c). The header lines' own handling and the checks
 * of the whole header are in {@link RequestHeaders}, the large header buffers in {@link HeaderBuffers}.
 */
public final class RequestReader {

    private RequestReader() {
    }

    /**
     * Takes a new connection (the listening socket's handler): nginx's {@code ngx_http_init_connection()}. Chooses
     * the default server of the connection's address and waits for the request, at most
     * {@code client_header_timeout}, as a reusable connection.
     *
     * @param c the accepted connection
     */
    public static void initConnection(Connection c) {
        HttpConnection hc = BufferPool.current().connection(c);
        c.data = hc;
        ListeningServers port = (ListeningServers) c.listening.servers;
        AddrConf addr = Servers.addr(port, port.needsLocalAddress() ? hc.localSockaddr() : null);
        hc.addrConf = addr;
        hc.confs(addr.defaultServer().ctx);
        hc.action = "waiting for request";

        Event rev = c.read;
        rev.handler = RequestReader::waitRequestHandler;
        if (addr.takeover() != null) {
            // nginx's hc->ssl: ngx_http_ssl_handshake() reads first
            hc.secureRequired = true;
            hc.action = "SSL handshaking";
            rev.handler = RequestReader::takeoverHandler;
        }
        c.write.handler = RequestEvents::emptyEventHandler;

        if (rev.ready) {
            // the deferred accept()
            rev.handler.handle(rev);
            return;
        }
        HttpCoreSrvConf cscf = hc.defaultServer();
        hc.loop.addTimer(rev, cscf.clientHeaderTimeout);
        hc.loop.reusableConnection(c, true);
        if (HttpEvents.handleRead(rev, 0) != Rc.OK) {
            RequestFinalizer.closeConnection(hc);
        }
    }

    /**
     * The read handler of a connection on an address a module takes over ({@code listen ... ssl}).
     *
     * @param rev the read event
     */
    static void takeoverHandler(Event rev) {
        HttpConnection hc = HttpConnection.of(rev.connection());
        try {
            hc.addrConf.takeover().takeOver(hc);
        } catch (RuntimeException | StackOverflowError e) {
            RequestFinalizer.failed(hc, e);
        }
    }

    /**
     * nginx's {@code ngx_http_wait_request_handler()}: the first bytes of a request on a new connection.
     *
     * @param rev the read event
     */
    static void waitRequestHandler(Event rev) {
        HttpConnection hc = HttpConnection.of(rev.connection());
        try {
            waitRequest(rev, hc);
        } catch (RuntimeException | StackOverflowError e) {
            RequestFinalizer.failed(hc, e);
        }
    }

    private static void waitRequest(Event rev, HttpConnection hc) {
        Connection c = hc.c;
        if (rev.timedout) {
            hc.log(LogLevel.INFO, Errors.ETIMEDOUT, "client timed out");
            RequestFinalizer.closeConnection(hc);
            return;
        }
        if (c.close) {
            RequestFinalizer.closeConnection(hc);
            return;
        }
        HttpCoreSrvConf cscf = hc.defaultServer();
        int size = (int) cscf.clientHeaderBufferSize;
        ByteBuffer b = hc.ensureBuffer(size);

        int n = recv(hc, b);
        if (n == Rc.AGAIN) {
            if (!rev.timerSet()) {
                hc.loop.addTimer(rev, cscf.clientHeaderTimeout);
                hc.loop.reusableConnection(c, true);
            }
            if (HttpEvents.handleRead(rev, 0) != Rc.OK) {
                RequestFinalizer.closeConnection(hc);
                return;
            }
            // we are trying to not hold c->buffer's memory for an idle connection (nginx)
            if (b.limit() == 0) {
                hc.releaseBuffer();
            }
            return;
        }
        if (n == Rc.ERROR) {
            RequestFinalizer.closeConnection(hc);
            return;
        }
        if (n == 0) {
            hc.log(LogLevel.INFO, "client closed connection");
            RequestFinalizer.closeConnection(hc);
            return;
        }
        hc.action = "reading client request line";
        hc.loop.reusableConnection(c, false);
        createRequest(hc);
        rev.handler = RequestReader::processRequestLine;
        requestLine(rev, hc);
        RequestFinalizer.runPostedRequests(hc);
    }

    /**
     * nginx's {@code ngx_http_create_request()} and {@code ngx_http_alloc_request()}: a request with the default
     * server's confs, reading from the connection's buffer (or from the large buffer a pipelined request is in).
     *
     * @param hc the connection
     * @return the request, now the connection's
     */
    static CoreRequest createRequest(HttpConnection hc) {
        CoreRequest r = hc.pool.request(hc);
        hc.c.requests++;
        hc.request = r;
        hc.active = null;
        RequestHeaders.setConnectionLog(r);
        return r;
    }

    /**
     * nginx's {@code ngx_http_process_request_line()}.
     *
     * @param rev the read event
     */
    static void processRequestLine(Event rev) {
        HttpConnection hc = HttpConnection.of(rev.connection());
        try {
            requestLine(rev, hc);
            RequestFinalizer.runPostedRequests(hc);
        } catch (RuntimeException | StackOverflowError e) {
            RequestFinalizer.failed(hc, e);
        }
    }

    private static void requestLine(Event rev, HttpConnection hc) {
        CoreRequest r = hc.request;
        if (rev.timedout) {
            hc.log(LogLevel.INFO, Errors.ETIMEDOUT, "client timed out");
            hc.c.timedout = true;
            RequestFinalizer.closeRequest(r, HttpStatus.REQUEST_TIME_OUT);
            return;
        }
        int rc = Rc.AGAIN;
        for (;;) {
            if (rc == Rc.AGAIN) {
                int n = readRequestHeader(r);
                if (n == Rc.AGAIN || n == Rc.ERROR) {
                    break;
                }
            }
            rc = HttpParser.parseRequestLine(r.parse, r.headerIn);
            if (rc == Rc.OK) {
                requestLineDone(rev, r);
                break;
            }
            if (rc != Rc.AGAIN) {
                // there was error while a request line parsing; nginx's parser has set r->http_version if it
                // got that far (an HTTP/0.9 request gets its page without a header)
                if (r.parse.httpVersion != 0) {
                    r.httpVersion = r.parse.httpVersion;
                }
                hc.log(LogLevel.INFO, clientError(rc));
                r.finalizeRequest(rc == HttpParser.PARSE_INVALID_VERSION
                    ? HttpStatus.VERSION_NOT_SUPPORTED : HttpStatus.BAD_REQUEST);
                break;
            }
            // AGAIN: a request line parsing is still incomplete
            if (r.headerIn.position() == r.headerIn.capacity()) {
                int rv = HeaderBuffers.allocLargeHeaderBuffer(r, true);
                if (rv == Rc.ERROR) {
                    RequestFinalizer.closeRequest(r, HttpStatus.INTERNAL_SERVER_ERROR);
                    break;
                }
                if (rv == Rc.DECLINED) {
                    r.requestLine = HttpParser.string(r.headerIn, r.parse.requestStart, r.headerIn.capacity());
                    hc.log(LogLevel.INFO, "client sent too long URI");
                    r.finalizeRequest(HttpStatus.REQUEST_URI_TOO_LARGE);
                    break;
                }
            }
        }
    }

    /** nginx's {@code ngx_http_client_errors[]}. */
    private static String clientError(int rc) {
        switch (rc) {
            case HttpParser.PARSE_INVALID_METHOD:
                return "client sent invalid method";
            case HttpParser.PARSE_INVALID_VERSION:
                return "client sent invalid version";
            case HttpParser.PARSE_INVALID_09_METHOD:
                return "client sent invalid method in HTTP/0.9 request";
            default:
                return "client sent invalid request";
        }
    }

    /** The request line has been parsed successfully: the rest of nginx's {@code NGX_OK} branch. */
    private static void requestLineDone(Event rev, CoreRequest r) {
        HttpConnection hc = r.hc;
        HttpParseState p = r.parse;
        ByteBuffer b = r.headerIn;
        r.requestLine = HttpParser.requestLine(p, b);
        r.requestLength = b.position() - p.requestStart;
        r.methodName = HttpParser.methodName(p, b);
        r.method = p.method;
        r.httpVersion = p.httpVersion;
        r.httpProtocol = HttpParser.httpProtocol(p, b);

        if (processRequestUri(r) != Rc.OK) {
            return;
        }
        if (p.schemaEnd != HttpParseState.NONE) {
            r.schema = HttpParser.string(b, p.schemaStart, p.schemaEnd);
        }
        if (p.hostEnd != HttpParseState.NONE) {
            r.hostInLine = HttpParser.string(b, p.hostStart, p.hostEnd);
            String host = RequestHeaders.validateHost(r.hostInLine);
            if (host == null) {
                hc.log(LogLevel.INFO, "client sent invalid host in request line");
                r.finalizeRequest(HttpStatus.BAD_REQUEST);
                return;
            }
            if (RequestHeaders.setVirtualServer(r, host) == Rc.ERROR) {
                return;
            }
            r.headersIn.server = host;
        }
        if (r.httpVersion < HttpRequest.VERSION_10) {
            if (r.headersIn.server == null && RequestHeaders.setVirtualServer(r, "") == Rc.ERROR) {
                return;
            }
            processRequest(r);
            return;
        }
        hc.action = "reading client request headers";
        rev.handler = RequestReader::processRequestHeaders;
        requestHeaders(rev, hc);
    }

    /** nginx's {@code ngx_http_process_request_uri()}: the URI's strings, decoded and normalised. */
    private static int processRequestUri(CoreRequest r) {
        HttpParseState p = r.parse;
        boolean mergeSlashes = r.cscf().mergeSlashes == 1;
        if (HttpParser.processRequestUri(p, r.headerIn, mergeSlashes) != Rc.OK) {
            r.uri = "";
            r.log(LogLevel.INFO, "client sent invalid request");
            r.finalizeRequest(HttpStatus.BAD_REQUEST);
            return Rc.ERROR;
        }
        r.uri = p.uri;
        r.unparsedUri = p.unparsedUri;
        r.args = p.args;
        r.exten = p.exten;
        return Rc.OK;
    }

    /**
     * nginx's {@code ngx_http_process_request_headers()}.
     *
     * @param rev the read event
     */
    static void processRequestHeaders(Event rev) {
        HttpConnection hc = HttpConnection.of(rev.connection());
        try {
            requestHeaders(rev, hc);
            RequestFinalizer.runPostedRequests(hc);
        } catch (RuntimeException | StackOverflowError e) {
            RequestFinalizer.failed(hc, e);
        }
    }

    private static void requestHeaders(Event rev, HttpConnection hc) {
        CoreRequest r = hc.request;
        if (rev.timedout) {
            hc.log(LogLevel.INFO, Errors.ETIMEDOUT, "client timed out");
            hc.c.timedout = true;
            RequestFinalizer.closeRequest(r, HttpStatus.REQUEST_TIME_OUT);
            return;
        }
        int rc = Rc.AGAIN;
        for (;;) {
            if (rc == Rc.AGAIN) {
                if (r.headerIn.position() == r.headerIn.capacity() && !HeaderBuffers.largeHeader(r)) {
                    break;
                }
                int n = readRequestHeader(r);
                if (n == Rc.AGAIN || n == Rc.ERROR) {
                    break;
                }
            }
            // the host header could change the server configuration context
            HttpCoreSrvConf cscf = r.cscf();
            rc = HttpParser.parseHeaderLine(r.parse, r.headerIn, cscf.underscoresInHeaders == 1);
            if (rc == Rc.OK) {
                r.requestLength += r.headerIn.position() - r.parse.headerNameStart;
                if (r.parse.invalidHeader && cscf.ignoreInvalidHeaders == 1) {
                    // there was error while a header line parsing
                    hc.log(LogLevel.INFO, "client sent invalid header line: \""
                        + HttpParser.string(r.headerIn, r.parse.headerNameStart, r.parse.headerEnd) + "\"");
                    continue;
                }
                // a header line has been parsed successfully
                if (r.headersIn.headers.entries().size() >= cscf.maxHeaders) {
                    r.lingeringClose = true;
                    hc.log(LogLevel.INFO, "client sent too many header lines");
                    r.finalizeRequest(HttpStatus.REQUEST_HEADER_TOO_LARGE);
                    break;
                }
                if (RequestHeaders.processHeaderLine(r) != Rc.OK) {
                    break;
                }
                continue;
            }
            if (rc == HttpParser.PARSE_HEADER_DONE) {
                // a whole header has been parsed successfully
                r.requestLength += r.headerIn.position() - r.parse.headerNameStart;
                if (RequestHeaders.processRequestHeader(r) != Rc.OK) {
                    break;
                }
                processRequest(r);
                break;
            }
            if (rc == Rc.AGAIN) {
                // a header line parsing is still not complete
                continue;
            }
            // PARSE_INVALID_HEADER
            HttpParseState p = r.parse;
            int bad = r.headerIn.get(p.headerEnd) & 0xff;
            hc.log(LogLevel.INFO, "client sent invalid header line: \""
                + HttpParser.string(r.headerIn, p.headerNameStart, p.headerEnd)
                + "\\x" + Character.forDigit(bad >> 4, 16) + Character.forDigit(bad & 0xf, 16) + "...\"");
            r.finalizeRequest(HttpStatus.BAD_REQUEST);
            break;
        }
    }

    /**
     * nginx's {@code ngx_http_read_request_header()}: the bytes not parsed yet, or a read for more.
     *
     * @return the bytes available, {@link Rc#AGAIN} (the timer is set), {@link Rc#ERROR} (the request is finished)
     */
    private static int readRequestHeader(CoreRequest r) {
        HttpConnection hc = r.hc;
        Event rev = hc.c.read;
        ByteBuffer b = r.headerIn;
        int n = b.limit() - b.position();
        if (n > 0) {
            return n;
        }
        n = rev.ready ? recv(hc, b) : Rc.AGAIN;
        if (n == Rc.AGAIN) {
            if (!rev.timerSet()) {
                hc.loop.addTimer(rev, r.cscf().clientHeaderTimeout);
            }
            if (HttpEvents.handleRead(rev, 0) != Rc.OK) {
                RequestFinalizer.closeRequest(r, HttpStatus.INTERNAL_SERVER_ERROR);
                return Rc.ERROR;
            }
            return Rc.AGAIN;
        }
        if (n == 0) {
            hc.log(LogLevel.INFO, "client prematurely closed connection");
        }
        if (n == 0 || n == Rc.ERROR) {
            hc.c.error = true;
            hc.action = "reading client request headers";
            r.finalizeRequest(HttpStatus.BAD_REQUEST);
            return Rc.ERROR;
        }
        return n;
    }

    /**
     * Reads into the room after the data ({@code b->last} to {@code b->end}) and moves the limit by what came, as
     * {@code c->recv(c, b->last, b->end - b->last)} and {@code b->last += n}.
     *
     * @return bytes read, 0 at end of file, {@link Rc#AGAIN} or {@link Rc#ERROR}
     */
    static int recv(HttpConnection hc, ByteBuffer b) {
        int pos = b.position();
        int last = b.limit();
        b.limit(b.capacity()).position(last);
        int n = hc.io.recv(hc.c, b);
        int newLast = b.position();
        b.limit(newLast).position(pos);
        return n;
    }

    /**
     * nginx's {@code ngx_http_process_request()}: the header is read; the request runs its phases.
     *
     * @param r the request
     */
    static void processRequest(CoreRequest r) {
        Connection c = r.c;
        if (r.hc.secureRequired && !r.hc.secure) {
            r.hc.log(LogLevel.INFO, "client sent plain HTTP request to HTTPS port");
            RequestFinalizer.finalizeRequest(r, HttpStatus.TO_HTTPS);
            return;
        }
        if (r.hc.secure) {
            // nginx's client certificate checks (#if NGX_HTTP_SSL in ngx_http_process_request())
            int rc = r.hc.addrConf.takeover().processRequest(r);
            if (rc != Rc.OK) {
                RequestFinalizer.finalizeRequest(r, rc);
                return;
            }
        }
        c.loop().deleteTimer(c.read);
        c.read.handler = RequestFinalizer::requestHandler;
        c.write.handler = RequestFinalizer::requestHandler;
        r.readEventHandler = RequestEvents::blockReading;
        PhaseRunner.handler(r);
    }
}
