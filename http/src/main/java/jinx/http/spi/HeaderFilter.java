package jinx.http.spi;

import jinx.http.HttpRequest;

/**
 * A header filter: it sees (and may change) the response status and headers before they are sent, then calls
 * the next filter. nginx's {@code ngx_http_output_header_filter_pt}; the chain is built once, at configuration
 * time.
 */
@FunctionalInterface
public interface HeaderFilter {

    /**
     * Filters the response header.
     *
     * @param r the request
     * @param next the rest of the chain
     * @return {@link jinx.kernel.Rc#OK}, {@link jinx.kernel.Rc#AGAIN}, {@link jinx.kernel.Rc#ERROR}
     */
    int filter(HttpRequest r, Next next);

    /**
     * The rest of the header filter chain.
     */
    @FunctionalInterface
    interface Next {

        /**
         * Runs the rest of the chain.
         *
         * @param r the request
         * @return the chain's result
         */
        int filter(HttpRequest r);
    }
}
