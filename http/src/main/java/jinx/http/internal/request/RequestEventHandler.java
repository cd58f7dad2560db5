package jinx.http.internal.request;

/**
 * What a request does when its connection becomes readable or writable: nginx's {@code r->read_event_handler}
 * and {@code r->write_event_handler} ({@code ngx_http_event_handler_pt}). The connection's events call
 * {@link RequestFinalizer#requestHandler}, which calls the request's handler for the direction.
 */
@FunctionalInterface
public interface RequestEventHandler {

    /**
     * Handles the event for the request.
     *
     * @param r the request
     */
    void handle(CoreRequest r);
}
