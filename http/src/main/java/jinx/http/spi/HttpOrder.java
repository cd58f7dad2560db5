package jinx.http.spi;

/**
 * Where a third-party HTTP module stands, in words a module author uses: the names to give
 * {@link jinx.kernel.spi.JinxModule#before()} and {@link jinx.kernel.spi.JinxModule#after()}. Phase handlers and
 * filters run in module order (a module ordered {@code after("x")} runs later than x), and the kernel places a
 * module that names nothing after every built-in module: there its CONTENT handler comes after
 * {@code http_static}, which answers every request whose URI does not end in {@code /}, and its filters come
 * after the ones that write the response out, so none of them runs. {@code jinx -t} warns about both.
 *
 * <p>The usual choice: {@code before(HttpOrder.CONTENT_HANDLERS)} for a module with a content handler, a header
 * filter or both (its filters then run first, before the built-in ones); {@code after(HttpOrder.ADD_HEADER)} and
 * {@code before(HttpOrder.HEADER_WRITER)} for a header filter that must see {@code add_header}'s lines. Added in
 * SPI 1.3.
 */
public final class HttpOrder {

    /**
     * The first built-in CONTENT handler ({@code http_index}): a module ordered before it has its content handler
     * run before {@code index} and {@code static}.
     */
    public static final String CONTENT_HANDLERS = "http_index";

    /**
     * The built-in CONTENT handler that answers every GET or HEAD whose URI does not end in {@code /}
     * ({@code http_static}): a content handler after it runs only for directory URIs that have no index file.
     */
    public static final String STATIC = "http_static";

    /** The filter of {@code add_header} and {@code expires} ({@code http_headers_filter}). */
    public static final String ADD_HEADER = "http_headers_filter";

    /**
     * The header filter that writes the status line and headers ({@code http_header_filter}) and ends the chain:
     * a header filter must run before it.
     */
    public static final String HEADER_WRITER = "http_header_filter";

    /**
     * The body filter that writes the body to the client ({@code http_write_filter}) and ends the chain: a body
     * filter must run before it.
     */
    public static final String BODY_WRITER = "http_write_filter";

    /**
     * The body filter that puts subrequests' output in order ({@code http_postpone_filter}): a body filter before it
     * sees each request's and subrequest's own output (as nginx's SSI and {@code sub_filter}); one after it sees the
     * response the client gets, as the main request's (as gzip and chunked). Added in SPI 1.5.
     */
    public static final String POSTPONE = "http_postpone_filter";

    private HttpOrder() {
    }
}
