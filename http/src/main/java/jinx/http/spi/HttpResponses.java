package jinx.http.spi;

import jinx.http.HttpRequest;
import jinx.http.internal.modules.CoreOutput;
import jinx.http.internal.parse.HttpParser;
import jinx.http.internal.parse.UriArgs;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;

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

    /**
     * Moves the request to a URI that came from outside the configuration, as nginx does with an upstream's
     * {@code X-Accel-Redirect} in {@code ngx_http_upstream_process_headers()}: a name starting with {@code @} goes
     * to that named location; anything else is checked as {@code ngx_http_parse_unsafe_uri()} checks it (a
     * {@code ..} segment or a NUL, before or after percent-decoding, logs {@code unsafe URI "..." was detected}
     * and answers 404), its arguments split off at the first {@code ?}, the method becomes GET unless it is HEAD,
     * and the request restarts there. The request is finalized with {@link Rc#DONE} afterwards, so the caller
     * calls this once it has let go of what it held and does nothing with the request after it. Added in SPI 1.4.
     *
     * @param r the request
     * @param uri the URI or {@code @name}, not empty
     */
    public static void redirectUnsafe(HttpRequest r, String uri) {
        if (uri.startsWith("@")) {
            r.namedLocation(uri);
            r.finalizeRequest(Rc.DONE);
            return;
        }
        UriArgs ua = HttpParser.parseUnsafeUri(uri);
        if (ua == null) {
            r.log(LogLevel.ERROR, 0, "unsafe URI \"" + uri + "\" was detected");
            r.finalizeRequest(404);
            return;
        }
        if (r.method != HttpRequest.HEAD) {
            r.method = HttpRequest.GET;
            r.methodName = "GET";
        }
        r.internalRedirect(ua.uri(), ua.args());
        r.finalizeRequest(Rc.DONE);
    }
}
