package jinx.http.internal.request;

import java.util.List;

import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.io.HttpRequestBody;
import jinx.http.spi.PhaseHandler;
import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;

/**
 * Finishing a request: nginx's {@code ngx_http_request_handler()}, {@code ngx_http_run_posted_requests()},
 * {@code ngx_http_finalize_request()}, {@code ngx_http_terminate_request()},
 * {@code ngx_http_finalize_connection()}, {@code ngx_http_set_write_handler()}, {@code ngx_http_writer()},
 * {@code ngx_http_block_reading()}, {@code ngx_http_test_reading()}, {@code ngx_http_post_action()},
 * {@code ngx_http_close_request()}, {@code ngx_http_free_request()}, {@code ngx_http_log_request()} and
 * {@code ngx_http_close_connection()} (src/http/ngx_http_request.c). Keep-alive and lingering close are in
 * {@link KeepAlive}.
 *
 * <p>Reference counting is nginx's, for one thread: the main request's {@link CoreRequest#count} starts at 1; reading
 * or discarding a body, every internal redirect and every subrequest add one, and each {@code finalizeRequest(DONE)},
 * subrequest's end or {@link #closeRequest} takes one; the request and its subrequests are freed when it falls to 0.
 * Subrequests follow nginx's {@code ngx_http_finalize_request()}: the post-subrequest handler sees every result, a
 * finished subrequest that is the {@link HttpConnection#active() active} one hands the output back to its parent,
 * and the parent is posted to run again.
 */
public final class RequestFinalizer {

    private RequestFinalizer() {
    }

    /**
     * The connection's event handler while a request runs: nginx's {@code ngx_http_request_handler()}.
     *
     * @param ev the read or write event
     */
    static void requestHandler(Event ev) {
        HttpConnection hc = HttpConnection.of(ev.connection());
        try {
            runRequest(ev, hc);
        } catch (RuntimeException | StackOverflowError e) {
            failed(hc, e);
        }
    }

    private static void runRequest(Event ev, HttpConnection hc) {
        Connection c = hc.c;
        CoreRequest r = hc.active();
        if (c.close) {
            r.main.count++;
            terminateRequest(r, 0);
            runPostedRequests(hc);
            return;
        }
        if (ev.delayed && ev.timedout) {
            ev.delayed = false;
            ev.timedout = false;
        }
        if (ev.write) {
            r.writeEventHandler.handle(r);
        } else {
            r.readEventHandler.handle(r);
        }
        runPostedRequests(hc);
    }

    /**
     * Ends a connection whose handler failed with an exception (a bug: nginx has no such path): the failure is
     * logged at alert, the request (if any) is logged and freed with 500, and the connection closed, so that
     * nothing a client sends can leave a connection stuck.
     *
     * @param hc the connection
     * @param e the failure
     */
    static void failed(HttpConnection hc, Throwable e) {
        hc.log(LogLevel.ALERT, "unexpected " + e);
        CoreRequest r = hc.request;
        if (hc.c.fd() == -1 || hc.c.data != hc) {
            return;
        }
        if (r != null && !r.freed) {
            r.count = 1;
            try {
                closeRequest(r, HttpStatus.INTERNAL_SERVER_ERROR);
                return;
            } catch (RuntimeException again) {
                hc.log(LogLevel.ALERT, "unexpected " + again);
            }
        }
        if (hc.c.fd() != -1 && hc.c.data == hc) {
            closeConnection(hc);
        }
    }

    /**
     * nginx's {@code ngx_http_run_posted_requests()}: runs the write handlers of the requests posted (subrequests,
     * parents of finished subrequests, the terminal handler of {@link #terminateRequest}), after the handler that
     * posted them returned.
     *
     * @param hc the connection
     */
    static void runPostedRequests(HttpConnection hc) {
        for (;;) {
            if (hc.c.destroyed || hc.c.fd() == -1) {
                return;
            }
            CoreRequest r = hc.active();
            if (r == null) {
                return;
            }
            CoreRequest m = r.main;
            if (m.posted) {
                m.posted = false;
                m.writeEventHandler.handle(m);
                continue;
            }
            CoreRequest pr = m.postedRequests == null ? null : m.postedRequests.pollFirst();
            if (pr == null) {
                return;
            }
            pr.writeEventHandler.handle(pr);
        }
    }

    /**
     * nginx's {@code ngx_http_finalize_request()}.
     *
     * @param r the request
     * @param rc {@link Rc#DONE}, {@link Rc#OK}, {@link Rc#DECLINED}, {@link Rc#ERROR}, {@link Rc#AGAIN} or a status
     */
    static void finalizeRequest(CoreRequest r, int rc) {
        Connection c = r.c;
        if (rc == Rc.DONE) {
            finalizeConnection(r);
            return;
        }
        if (rc == Rc.OK && r.filterFinalize) {
            c.error = true;
        }
        if (rc == Rc.DECLINED) {
            r.contentHandler = null;
            r.writeEventHandler = PhaseRunner::runPhases;
            PhaseRunner.runPhases(r);
            return;
        }
        if (r != r.main && r.postSubrequest != null) {
            rc = r.postSubrequest.handle(r, rc);
        }
        if (rc == Rc.ERROR || rc == HttpStatus.REQUEST_TIME_OUT || rc == HttpStatus.CLIENT_CLOSED_REQUEST
            || c.error) {
            if (postAction(r) == Rc.OK) {
                return;
            }
            terminateRequest(r, rc);
            return;
        }
        if (rc >= HttpStatus.SPECIAL_RESPONSE || rc == HttpStatus.CREATED || rc == HttpStatus.NO_CONTENT) {
            if (rc == HttpStatus.CLOSE) {
                c.timedout = true;
                terminateRequest(r, rc);
                return;
            }
            if (r == r.main) {
                c.loop().deleteTimer(c.read);
                c.loop().deleteTimer(c.write);
                c.read.handler = RequestFinalizer::requestHandler;
                c.write.handler = RequestFinalizer::requestHandler;
            }
            finalizeRequest(r, SpecialResponse.handle(r, rc));
            return;
        }
        if (r != r.main) {
            finalizeSubrequest(r);
            return;
        }
        if (r.buffered != 0 || r.hc.buffered != 0 || r.postponed != null) {
            if (RequestEvents.setWriteHandler(r) != Rc.OK) {
                terminateRequest(r, 0);
            }
            return;
        }
        if (r != r.hc.active()) {
            r.log(LogLevel.ALERT, "http finalize non-active request: \"" + r.uri + "?" + r.args + "\"");
            return;
        }
        r.done = true;
        r.readEventHandler = RequestEvents::blockReading;
        r.writeEventHandler = RequestEvents::emptyHandler;
        if (!r.postAction) {
            r.requestComplete = true;
        }
        if (postAction(r) == Rc.OK) {
            return;
        }
        c.loop().deleteTimer(c.read);
        if (c.write.timerSet()) {
            c.write.delayed = false;
            c.loop().deleteTimer(c.write);
        }
        finalizeConnection(r);
    }

    /**
     * The subrequest part of nginx's {@code ngx_http_finalize_request()}: a subrequest with output still pending
     * waits for it; a finished one that is active (or in the background) is logged ({@code log_subrequest}) and
     * gives the output back to its parent; one that is not active yet waits for its turn to be finalized again. The
     * parent is posted either way.
     */
    private static void finalizeSubrequest(CoreRequest r) {
        if (r.buffered != 0 || r.postponed != null) {
            if (RequestEvents.setWriteHandler(r) != Rc.OK) {
                terminateRequest(r, 0);
            }
            return;
        }
        CoreRequest pr = r.parent;
        HttpConnection hc = r.hc;
        if (r == hc.active() || r.background) {
            if (!r.logged) {
                if (r.clcf().logSubrequest == 1) {
                    logRequest(r);
                }
                r.logged = true;
            } else {
                r.log(LogLevel.ALERT, "subrequest: \"" + r.uri + "?" + r.args + "\" logged again");
            }
            r.done = true;
            if (r.background) {
                finalizeConnection(r);
                return;
            }
            r.main.count--;
            if (pr.postponed != null && pr.postponed.request == r) {
                pr.postponed = pr.postponed.next;
            }
            hc.active = pr;
        } else {
            r.writeEventHandler = RequestFinalizer::requestFinalizer;
            if (r.waited) {
                r.done = true;
            }
        }
        Subrequests.post(pr);
    }

    /** nginx's {@code ngx_http_request_finalizer()}: a subrequest's turn came; it is finalized again. */
    private static void requestFinalizer(CoreRequest r) {
        finalizeRequest(r, 0);
    }

    /**
     * nginx's {@code ngx_http_terminate_request()}: the request ends without more output; once the handler that
     * called this returns, the connection closes.
     *
     * @param r the request, or one of its subrequests
     * @param rc the status to log, or 0
     */
    static void terminateRequest(CoreRequest r, int rc) {
        CoreRequest mr = r.main;
        if (rc > 0 && (mr.headersOut.status == 0 || mr.c.sent == 0)) {
            mr.headersOut.status = rc;
        }
        mr.runCleanups();
        if (mr.writeEventHandler != null) {
            if (mr.postedRequests != null) {
                mr.postedRequests.clear();
            }
            mr.posted = true;
            mr.writeEventHandler = RequestFinalizer::terminateHandler;
            return;
        }
        closeRequest(mr, rc);
    }

    /** nginx's {@code ngx_http_terminate_handler()}. */
    private static void terminateHandler(CoreRequest r) {
        r.count = 1;
        closeRequest(r, 0);
    }

    /**
     * nginx's {@code ngx_http_finalize_connection()}: keep-alive, lingering close or close.
     *
     * @param r the request
     */
    static void finalizeConnection(CoreRequest r) {
        HttpCoreLocConf clcf = r.clcf();
        Connection c = r.c;
        if (r.main.count != 1) {
            if (r.discardBody) {
                r.readEventHandler = HttpRequestBody::discardedRequestBodyHandler;
                c.loop().addTimer(c.read, clcf.lingeringTimeout);
                if (r.lingeringTime == 0) {
                    r.lingeringTime = KeepAlive.nowSec(r.hc) + clcf.lingeringTime / 1000;
                }
            }
            closeRequest(r, 0);
            return;
        }
        r = r.main;
        if (c.read.eof) {
            closeRequest(r, 0);
            return;
        }
        if (r.readingBody) {
            r.keepalive = false;
            r.lingeringClose = true;
        }
        if (r.keepalive && clcf.keepaliveTimeout > 0 && !r.hc.loop.exiting()) {
            KeepAlive.setKeepalive(r);
            return;
        }
        if (clcf.lingeringClose == HttpCoreLocConf.LINGERING_ALWAYS
            || (clcf.lingeringClose == HttpCoreLocConf.LINGERING_ON
                && (r.lingeringClose || r.headerIn.position() < r.headerIn.limit() || c.read.ready
                    || r.hc.pipeline))) {
            KeepAlive.setLingeringClose(r.hc);
            return;
        }
        closeRequest(r, 0);
    }

    /** nginx's {@code ngx_http_post_action()}: {@code post_action} runs the request again, its response unsent. */
    private static int postAction(CoreRequest r) {
        HttpCoreLocConf clcf = r.clcf();
        String pa = clcf.postAction;
        if (pa == null) {
            return Rc.DECLINED;
        }
        if (r.postAction && r.uriChanges == 0) {
            return Rc.DECLINED;
        }
        r.count--;
        r.httpVersion = CoreRequest.VERSION_9;
        r.headerOnly = true;
        r.postAction = true;
        r.readEventHandler = RequestEvents::blockReading;
        if (pa.startsWith("/")) {
            r.internalRedirect(pa, null);
        } else {
            r.namedLocation(pa);
        }
        return Rc.OK;
    }

    /**
     * nginx's {@code ngx_http_close_request()}: drops one reference; the last frees the request and closes the
     * connection.
     *
     * @param r the request
     * @param rc the status to log, or 0
     */
    static void closeRequest(CoreRequest r, int rc) {
        r = r.main;
        if (r.count == 0) {
            r.log(LogLevel.ALERT, "http request count is zero");
        }
        r.count--;
        if (r.count > 0) {
            return;
        }
        freeRequest(r, rc);
        closeConnection(r.hc);
        r.hc.pool.recycle(r);
    }

    /**
     * nginx's {@code ngx_http_free_request()}: cleanups, the LOG phase, and {@code reset_timedout_connection}.
     *
     * @param r the request
     * @param rc the status to log, or 0
     */
    static void freeRequest(CoreRequest r, int rc) {
        HttpConnection hc = r.hc;
        if (r.freed) {
            hc.log(LogLevel.ALERT, "http request already closed");
            return;
        }
        r.runCleanups();
        if (rc > 0 && (r.headersOut.status == 0 || r.c.sent == 0)) {
            r.headersOut.status = rc;
        }
        if (!r.logged) {
            hc.action = "logging request";
            logRequest(r);
        }
        hc.action = "closing request";
        if (r.c.timedout && r.clcf().resetTimedoutConnection == 1) {
            KeepAlive.resetConnection(hc);
        }
        r.freed = true;
        r.c.destroyed = true;
    }

    /** nginx's {@code ngx_http_log_request()}: the LOG phase's handlers. */
    static void logRequest(CoreRequest r) {
        r.logged = true;
        List<PhaseHandler> handlers = r.cmcf().phaseEngine.logHandlers();
        for (int i = 0, n = handlers.size(); i < n; i++) {
            handlers.get(i).handle(r);
        }
    }

    /**
     * nginx's {@code ngx_http_close_connection()}: the buffers back to the pool, the connection closed.
     *
     * @param hc the connection
     */
    static void closeConnection(HttpConnection hc) {
        Connection c = hc.c;
        c.destroyed = true;
        hc.releaseAll();
        hc.request = null;
        hc.active = null;
        if (c.fd() != -1) {
            c.close();
        }
        hc.pool.recycle(hc);
    }
}
