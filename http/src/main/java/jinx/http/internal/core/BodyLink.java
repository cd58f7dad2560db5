package jinx.http.internal.core;

import jinx.http.HttpRequest;
import jinx.http.spi.BodyFilter;
import jinx.kernel.BufChain;

/**
 * A link of the body filter chain: a filter and the rest of the chain; one hidden copy per position, as
 * {@link HeaderLink}.
 */
final class BodyLink implements BodyFilter.Next {

    private final BodyFilter filter;
    private final BodyFilter.Next next;

    BodyLink(BodyFilter filter, BodyFilter.Next next) {
        this.filter = filter;
        this.next = next;
    }

    @Override
    public int filter(HttpRequest r, BufChain in) {
        return filter.filter(r, in, next);
    }
}
