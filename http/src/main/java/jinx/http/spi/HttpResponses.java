package jinx.http.spi;

import jinx.http.HttpRequest;
import jinx.http.internal.modules.CoreOutput;

/**
 * What a content handler may ask of the core while it builds a response. Added in SPI 1.1 for third-party
 * modules.
 */
public final class HttpResponses {

    private HttpResponses() {
    }

    /**
     * Sets the response's {@code Content-Type} as nginx's {@code ngx_http_set_content_type()} does, unless one is
     * set: the type of the URI's extension in the location's {@code types}, else its {@code default_type}.
     *
     * @param r the request
     */
    public static void setContentType(HttpRequest r) {
        CoreOutput.setContentType(r);
    }
}
