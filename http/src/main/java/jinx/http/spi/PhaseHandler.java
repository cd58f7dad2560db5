package jinx.http.spi;

import jinx.http.HttpRequest;

/**
 * A phase handler: nginx's {@code ngx_http_handler_pt}. It returns {@link jinx.kernel.Rc#OK} (this phase is done),
 * {@link jinx.kernel.Rc#DECLINED} (let the next handler decide), {@link jinx.kernel.Rc#AGAIN} or
 * {@link jinx.kernel.Rc#DONE} (the handler continues later, from an event), {@link jinx.kernel.Rc#ERROR}, or an
 * HTTP status to finish the request with.
 */
@FunctionalInterface
public interface PhaseHandler {

    /**
     * Handles the request in its phase.
     *
     * @param r the request
     * @return a return code or an HTTP status
     */
    int handle(HttpRequest r);
}
