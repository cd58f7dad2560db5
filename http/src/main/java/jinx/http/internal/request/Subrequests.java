package jinx.http.internal.request;

import java.util.ArrayDeque;

import jinx.http.HttpRequest;
import jinx.kernel.LogLevel;

/**
 * Subrequests: nginx's {@code ngx_http_subrequest()} (src/http/ngx_http_core_module.c) and
 * {@code ngx_http_post_request()} (src/http/ngx_http_request.c).
 *
 * <p>A subrequest is a request of the same connection: it shares its parent's headers, body and variable cache,
 * has its own module contexts and response headers, and runs its phases from SERVER_REWRITE once the handler that
 * made it returns (it is posted to the main request). Its output reaches the client through the postpone filter
 * in order; the connection's {@link HttpConnection#active() active request} (nginx's {@code c->data}) is the one
 * whose output may go out now. Main requests never come here, so an ordinary request allocates nothing for it.
 */
public final class Subrequests {

    /** nginx's {@code NGX_HTTP_MAX_SUBREQUESTS}: nesting levels. */
    public static final int MAX_SUBREQUESTS = 50;

    /** References a main request may hold: 65535 with 1000 kept for other uses, as nginx's check. */
    static final int MAX_COUNT = 65535 - 1000;

    private Subrequests() {
    }

    /**
     * nginx's {@code ngx_http_subrequest()}.
     *
     * @param r the parent
     * @param uri the subrequest's URI
     * @param args its arguments, or null
     * @param flags {@link HttpRequest#SUBREQUEST_IN_MEMORY} and kin
     * @param ps what runs when it is finalized, or null
     * @return the subrequest, or null (logged)
     */
    static CoreRequest create(CoreRequest r, String uri, String args, int flags, HttpRequest.PostSubrequest ps) {
        if (r.subrequests == 0) {
            r.log(LogLevel.ERROR, "subrequests cycle while processing \"" + uri + "\"");
            return null;
        }
        // 1000 is reserved for other purposes (nginx)
        if (r.main.count >= MAX_COUNT) {
            r.log(LogLevel.CRIT, "request reference counter overflow while processing \"" + uri + "\"");
            return null;
        }
        if (r.subrequestInMemory) {
            r.log(LogLevel.ERROR, "nested in-memory subrequest \"" + uri + "\"");
            return null;
        }
        HttpConnection hc = r.hc;
        CoreRequest sr = new CoreRequest(hc);
        sr.copyRequest(r);
        sr.mainConf = r.mainConf;
        sr.srvConf = r.srvConf;
        sr.locConf = r.cscf().ctx.locConf;
        sr.requestBody = r.requestBody;
        sr.method = HttpRequest.GET;
        sr.methodName = "GET";
        sr.uri = uri;
        sr.args = args != null ? args : "";
        sr.subrequestInMemory = (flags & HttpRequest.SUBREQUEST_IN_MEMORY) != 0;
        sr.waited = (flags & HttpRequest.SUBREQUEST_WAITED) != 0;
        sr.background = (flags & HttpRequest.SUBREQUEST_BACKGROUND) != 0;
        InternalRedirects.setExten(sr);
        sr.main = r.main;
        sr.parent = r;
        sr.postSubrequest = ps;
        sr.readEventHandler = RequestEvents::emptyHandler;
        sr.writeEventHandler = PhaseRunner::handler;
        sr.variableCache = r.variableCache();
        if (!sr.background) {
            if (hc.active() == r && r.postponed == null) {
                hc.active = sr;
            }
            Postponed pr = new Postponed(sr);
            if (r.postponed == null) {
                r.postponed = pr;
            } else {
                Postponed p = r.postponed;
                while (p.next != null) {
                    p = p.next;
                }
                p.next = pr;
            }
        }
        sr.internal = true;
        sr.discardBody = r.discardBody;
        sr.expectTested = true;
        sr.uriChanges = CoreRequest.MAX_URI_CHANGES + 1;
        sr.subrequests = r.subrequests - 1;
        r.main.count++;
        if ((flags & HttpRequest.SUBREQUEST_CLONE) != 0) {
            sr.method = r.method;
            sr.methodName = r.methodName;
            sr.locConf = r.locConf;
            sr.validLocation = r.validLocation;
            sr.parse.validUnparsedUri = r.parse.validUnparsedUri;
            sr.contentHandler = r.contentHandler;
            sr.phaseHandler = r.phaseHandler;
            sr.writeEventHandler = PhaseRunner::runPhases;
            PhaseRunner.updateLocationConfig(sr);
        }
        post(sr);
        return sr;
    }

    /**
     * nginx's {@code ngx_http_post_request()}: {@code r}'s write handler runs once the current event's handler
     * returns ({@link RequestFinalizer#runPostedRequests}).
     *
     * @param r the request
     */
    public static void post(CoreRequest r) {
        CoreRequest m = r.main;
        if (m.postedRequests == null) {
            m.postedRequests = new ArrayDeque<>(4);
        }
        m.postedRequests.addLast(r);
    }
}
