package jinx.http.spi;

import jinx.http.HttpRequest;
import jinx.kernel.BufChain;

/**
 * A body filter: it sees the response body as it is produced, a chain of buffers at a time, and passes what it
 * makes of it to the next filter. nginx's {@code ngx_http_output_body_filter_pt}; the chain is built once, at
 * configuration time. A buffer marked {@code last} ends the body.
 *
 * <p>The links of the chain a filter is given belong to its caller, which may reuse them once the call returns; a
 * filter that keeps buffers for later links them into chain links of its own, as nginx's
 * {@code ngx_chain_add_copy()} does.
 */
@FunctionalInterface
public interface BodyFilter {

    /**
     * Filters part of the body.
     *
     * @param r the request
     * @param in the buffers, or null to push what is pending
     * @param next the rest of the chain
     * @return {@link jinx.kernel.Rc#OK}, {@link jinx.kernel.Rc#AGAIN} (the rest is pending in the connection),
     *     {@link jinx.kernel.Rc#ERROR}
     */
    int filter(HttpRequest r, BufChain in, Next next);

    /**
     * The rest of the body filter chain.
     */
    @FunctionalInterface
    interface Next {

        /**
         * Runs the rest of the chain.
         *
         * @param r the request
         * @param in the buffers
         * @return the chain's result
         */
        int filter(HttpRequest r, BufChain in);
    }
}
