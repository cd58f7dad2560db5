package jinx.http.internal.core;

import jinx.http.HttpRequest;
import jinx.http.spi.HeaderFilter;

/**
 * A link of the header filter chain: a filter and the rest of the chain. {@link FilterLinks} defines a hidden copy
 * of this class for each position of the chain, so that each link's call of its filter has a profile of its own
 * and is a direct, inlinable call, as nginx's {@code ngx_http_next_header_filter} is a direct pointer.
 */
final class HeaderLink implements HeaderFilter.Next {

    private final HeaderFilter filter;
    private final HeaderFilter.Next next;

    HeaderLink(HeaderFilter filter, HeaderFilter.Next next) {
        this.filter = filter;
        this.next = next;
    }

    @Override
    public int filter(HttpRequest r) {
        return filter.filter(r, next);
    }
}
