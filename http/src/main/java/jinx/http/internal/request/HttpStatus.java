package jinx.http.internal.request;

/**
 * The status codes the core answers with, nginx's {@code NGX_HTTP_*} of {@code ngx_http_request.h}, its own
 * codes (494 to 499, 444) included.
 */
public final class HttpStatus {

    /** 200. */
    public static final int OK = 200;
    /** 201. */
    public static final int CREATED = 201;
    /** 204. */
    public static final int NO_CONTENT = 204;
    /** The first code a special response (an error page or a redirect) is made for. */
    public static final int SPECIAL_RESPONSE = 300;
    /** 301. */
    public static final int MOVED_PERMANENTLY = 301;
    /** 302. */
    public static final int MOVED_TEMPORARILY = 302;
    /** 303. */
    public static final int SEE_OTHER = 303;
    /** 304. */
    public static final int NOT_MODIFIED = 304;
    /** 307. */
    public static final int TEMPORARY_REDIRECT = 307;
    /** 308. */
    public static final int PERMANENT_REDIRECT = 308;
    /** 400. */
    public static final int BAD_REQUEST = 400;
    /** 401. */
    public static final int UNAUTHORIZED = 401;
    /** 403. */
    public static final int FORBIDDEN = 403;
    /** 404. */
    public static final int NOT_FOUND = 404;
    /** 405. */
    public static final int NOT_ALLOWED = 405;
    /** 408. */
    public static final int REQUEST_TIME_OUT = 408;
    /** 413. */
    public static final int REQUEST_ENTITY_TOO_LARGE = 413;
    /** 414. */
    public static final int REQUEST_URI_TOO_LARGE = 414;
    /** 444: close the connection without a response (nginx's {@code NGX_HTTP_CLOSE}). */
    public static final int CLOSE = 444;
    /** The first of nginx's own codes ({@code NGX_HTTP_NGINX_CODES}). */
    public static final int NGINX_CODES = 494;
    /** 494: the header is too large; the client gets 400 "Request Header Or Cookie Too Large". */
    public static final int REQUEST_HEADER_TOO_LARGE = 494;
    /** 495: a TLS certificate error; the client gets 400. */
    public static final int HTTPS_CERT_ERROR = 495;
    /** 496: no TLS certificate; the client gets 400. */
    public static final int HTTPS_NO_CERT = 496;
    /** 497: plain HTTP to an HTTPS port; the client gets 400. */
    public static final int TO_HTTPS = 497;
    /** 499: the client closed the connection before the response. */
    public static final int CLIENT_CLOSED_REQUEST = 499;
    /** 500. */
    public static final int INTERNAL_SERVER_ERROR = 500;
    /** 501. */
    public static final int NOT_IMPLEMENTED = 501;
    /** 503. */
    public static final int SERVICE_UNAVAILABLE = 503;
    /** 505. */
    public static final int VERSION_NOT_SUPPORTED = 505;

    private HttpStatus() {
    }
}
