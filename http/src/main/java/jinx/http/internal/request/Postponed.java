package jinx.http.internal.request;

import jinx.kernel.BufChain;

/**
 * One entry of a request's postponed output, nginx's {@code ngx_http_postponed_request_t}: a subrequest whose
 * output comes here, or output of the request itself that waits for the subrequests before it.
 */
public final class Postponed {

    /** The subrequest, or null for output. */
    public final CoreRequest request;
    /** The output waiting, or null. */
    public BufChain out;
    /** The last link of {@link #out}. */
    public BufChain outTail;
    /** The next entry, or null. */
    public Postponed next;

    /**
     * Makes an entry.
     *
     * @param request the subrequest, or null for output
     */
    public Postponed(CoreRequest request) {
        this.request = request;
    }
}
