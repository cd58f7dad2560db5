package jinx.http.internal.request;

import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.io.HttpRequestBody;
import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.spi.EventActions;

/**
 * A request's read and write handlers while its response goes out: nginx's {@code ngx_http_set_write_handler()},
 * {@code ngx_http_writer()}, {@code ngx_http_block_reading()}, {@code ngx_http_test_reading()} and the empty
 * handlers (src/http/ngx_http_request.c).
 */
public final class RequestEvents {

    private RequestEvents() {
    }

    /**
     * nginx's {@code ngx_http_set_write_handler()}: the rest of the response goes out as the socket takes it,
     * within {@code send_timeout}.
     *
     * @param r the request
     * @return {@link Rc#OK}, or {@link Rc#ERROR} (the request was closed)
     */
    static int setWriteHandler(CoreRequest r) {
        r.readEventHandler = r.discardBody ? HttpRequestBody::discardedRequestBodyHandler : RequestEvents::testReading;
        r.writeEventHandler = RequestEvents::writer;
        Event wev = r.c.write;
        if (wev.ready && wev.delayed) {
            return Rc.OK;
        }
        if (!wev.delayed) {
            r.c.loop().addTimer(wev, r.clcf().sendTimeout);
        }
        if (HttpEvents.handleWrite(wev) != Rc.OK) {
            RequestFinalizer.closeRequest(r, 0);
            return Rc.ERROR;
        }
        return Rc.OK;
    }

    /**
     * nginx's {@code ngx_http_writer()}: pushes the pending output; {@code send_timeout} without progress is
     * "client timed out" and the connection closes.
     *
     * @param r the request
     */
    static void writer(CoreRequest r) {
        Connection c = r.c;
        Event wev = c.write;
        HttpCoreLocConf clcf = r.clcf();
        if (wev.timedout) {
            r.log(LogLevel.INFO, Errors.ETIMEDOUT, "client timed out");
            c.timedout = true;
            r.finalizeRequest(HttpStatus.REQUEST_TIME_OUT);
            return;
        }
        if (wev.delayed) {
            if (HttpEvents.handleWrite(wev) != Rc.OK) {
                RequestFinalizer.closeRequest(r, 0);
            }
            return;
        }
        int rc = r.outputFilter(null);
        if (rc == Rc.ERROR) {
            r.finalizeRequest(rc);
            return;
        }
        if (r.buffered != 0 || r.postponed != null || (r == r.main && r.hc.buffered != 0)) {
            if (!wev.delayed) {
                c.loop().addTimer(wev, clcf.sendTimeout);
            }
            if (HttpEvents.handleWrite(wev) != Rc.OK) {
                RequestFinalizer.closeRequest(r, 0);
            }
            return;
        }
        r.writeEventHandler = RequestEvents::emptyHandler;
        r.finalizeRequest(rc);
    }

    /**
     * nginx's {@code ngx_http_block_reading()}: a level-triggered method stops reporting the readable socket.
     *
     * @param r the request
     */
    public static void blockReading(CoreRequest r) {
        if (HttpEvents.delLevel(r.c.read) != Rc.OK) {
            RequestFinalizer.closeRequest(r, 0);
        }
    }

    /**
     * nginx's {@code ngx_http_test_reading()}: while the response is written, a client that closed its side makes
     * the request end with 499.
     *
     * @param r the request
     */
    public static void testReading(CoreRequest r) {
        Connection c = r.c;
        Event rev = c.read;
        int err = 0;
        if (!c.hasDescriptor()) {
            // an in-memory connection sets pending_eof as EPOLLRDHUP does, whatever the method; it has no error
            if (!rev.pendingEof) {
                return;
            }
            rev.eof = true;
            c.error = true;
        } else if ((c.loop().methodFlags() & EventActions.USE_EPOLL_EVENT) != 0) {
            if (!rev.pendingEof) {
                return;
            }
            rev.eof = true;
            c.error = true;
            try {
                err = Sockets.getsockopt(c.fd(), Platform.SOL_SOCKET, Platform.SO_ERROR);
            } catch (NativeIoException e) {
                err = e.errno();
            }
        } else {
            int n;
            try {
                n = Sockets.recv(c.fd(), r.hc.pool.scratchAddress(), 1, Platform.MSG_PEEK);
            } catch (NativeIoException e) {
                n = Rc.ERROR;
                err = e.errno();
            }
            if (n == 0 || n == Rc.ERROR) {
                rev.eof = true;
                c.error = true;
            } else {
                if (HttpEvents.delLevel(rev) != Rc.OK) {
                    RequestFinalizer.closeRequest(r, 0);
                }
                return;
            }
        }
        if (err != 0) {
            rev.error = true;
        }
        r.log(LogLevel.INFO, err, "client prematurely closed connection");
        r.finalizeRequest(HttpStatus.CLIENT_CLOSED_REQUEST);
    }

    /**
     * nginx's {@code ngx_http_empty_handler()}: an event with nothing to do.
     *
     * @param ev the event
     */
    static void emptyEventHandler(Event ev) {
        // nothing to do (nginx)
    }

    /**
     * nginx's {@code ngx_http_request_empty_handler()}.
     *
     * @param r the request
     */
    public static void emptyHandler(CoreRequest r) {
        // nothing to do (nginx)
    }
}
