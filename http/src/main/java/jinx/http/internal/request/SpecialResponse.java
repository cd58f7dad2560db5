package jinx.http.internal.request;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import jinx.http.HttpRequest;
import jinx.http.internal.core.ErrorPage;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.parse.HttpParser;
import jinx.http.internal.parse.UriArgs;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Cycle;
import jinx.kernel.LoadedModule;
import jinx.kernel.Rc;

/**
 * Error pages and redirects: nginx's {@code ngx_http_special_response_handler()},
 * {@code ngx_http_send_error_page()} ({@code error_page} with {@code =code}, {@code =}, a URI, a named location,
 * a URL), {@code ngx_http_send_special_response()} (the built-in pages of {@link ErrorPages}, the tail with or
 * without the version, the MSIE padding) and {@code ngx_http_send_refresh()} ({@code msie_refresh}).
 */
public final class SpecialResponse {

    private SpecialResponse() {
    }

    /**
     * nginx's {@code ngx_http_special_response_handler()}: answers {@code error} with its {@code error_page}, or
     * with the built-in page.
     *
     * @param r the request
     * @param error the status (3xx, 4xx, 5xx, nginx's 494 to 499, 201, 204)
     * @return what {@link CoreRequest#finalizeRequest} goes on with
     */
    static int handle(CoreRequest r, int error) {
        r.errStatus = error;
        if (r.keepalive) {
            switch (error) {
                case HttpStatus.BAD_REQUEST:
                case HttpStatus.REQUEST_ENTITY_TOO_LARGE:
                case HttpStatus.REQUEST_URI_TOO_LARGE:
                case HttpStatus.TO_HTTPS:
                case HttpStatus.HTTPS_CERT_ERROR:
                case HttpStatus.HTTPS_NO_CERT:
                case HttpStatus.INTERNAL_SERVER_ERROR:
                case HttpStatus.NOT_IMPLEMENTED:
                    r.keepalive = false;
                    break;
                default:
                    break;
            }
        }
        if (r.lingeringClose) {
            switch (error) {
                case HttpStatus.BAD_REQUEST:
                case HttpStatus.TO_HTTPS:
                case HttpStatus.HTTPS_CERT_ERROR:
                case HttpStatus.HTTPS_NO_CERT:
                    r.lingeringClose = false;
                    break;
                default:
                    break;
            }
        }
        r.headersOut.contentType = null;
        HttpCoreLocConf clcf = r.clcf();
        if (!r.errorPage && clcf.errorPages != null && r.uriChanges != 0) {
            if (clcf.recursiveErrorPages == 0) {
                r.errorPage = true;
            }
            for (ErrorPage ep : clcf.errorPages) {
                if (ep.status() == error) {
                    return sendErrorPage(r, ep);
                }
            }
        }
        r.expectTested = true;
        if (r.discardRequestBody() != Rc.OK) {
            r.keepalive = false;
        }
        if (clcf.msieRefresh == 1 && r.msie
            && (error == HttpStatus.MOVED_PERMANENTLY || error == HttpStatus.MOVED_TEMPORARILY)) {
            return sendRefresh(r);
        }
        switch (error) {
            case HttpStatus.TO_HTTPS:
            case HttpStatus.HTTPS_CERT_ERROR:
            case HttpStatus.HTTPS_NO_CERT:
            case HttpStatus.REQUEST_HEADER_TOO_LARGE:
                r.errStatus = HttpStatus.BAD_REQUEST;
                break;
            default:
                break;
        }
        // 201, 204 and codes nginx does not know get no page; ErrorPages has none for them
        return sendSpecialResponse(r, clcf, error);
    }

    /** nginx's {@code ngx_http_send_error_page()}. */
    private static int sendErrorPage(CoreRequest r, ErrorPage ep) {
        int overwrite = ep.overwrite();
        if (overwrite != 0 && overwrite != HttpStatus.OK) {
            r.expectTested = true;
        }
        if (overwrite >= 0) {
            r.errStatus = overwrite;
        }
        String uri = ep.value() != null ? ep.value().evaluate(r) : ep.uri();
        if (!uri.isEmpty() && uri.charAt(0) == '/') {
            String args;
            if (ep.value() != null) {
                UriArgs split = HttpParser.splitArgs(uri);
                uri = split.uri();
                args = split.args();
            } else {
                args = ep.args();
            }
            if (r.method != HttpRequest.HEAD) {
                r.method = HttpRequest.GET;
                r.methodName = "GET";
            }
            return r.internalRedirect(uri, args);
        }
        if (!uri.isEmpty() && uri.charAt(0) == '@') {
            return r.namedLocation(uri);
        }
        r.expectTested = true;
        if (r.discardRequestBody() != Rc.OK) {
            r.keepalive = false;
        }
        if (overwrite != HttpStatus.MOVED_PERMANENTLY && overwrite != HttpStatus.MOVED_TEMPORARILY
            && overwrite != HttpStatus.SEE_OTHER && overwrite != HttpStatus.TEMPORARY_REDIRECT
            && overwrite != HttpStatus.PERMANENT_REDIRECT) {
            r.errStatus = HttpStatus.MOVED_TEMPORARILY;
        }
        PhaseRunner.setLocation(r, uri);
        HttpCoreLocConf clcf = r.clcf();
        if (clcf.msieRefresh == 1 && r.msie) {
            return sendRefresh(r);
        }
        return sendSpecialResponse(r, clcf, r.errStatus);
    }

    /** nginx's {@code ngx_http_send_special_response()}: the built-in page of {@code page}, or none. */
    private static int sendSpecialResponse(CoreRequest r, HttpCoreLocConf clcf, int page) {
        ByteBuffer body = ErrorPages.page(page);
        ByteBuffer tail = ErrorPages.tail(clcf.serverTokens != HttpCoreLocConf.SERVER_TOKENS_OFF,
            version(r.loop().cycle()));
        boolean padding = false;
        if (body != null) {
            r.headersOut.contentLengthN = body.remaining() + tail.remaining();
            if (clcf.msiePadding == 1 && (r.msie || r.chrome) && r.httpVersion >= HttpRequest.VERSION_10
                && page >= HttpStatus.BAD_REQUEST) {
                r.headersOut.contentLengthN += ErrorPages.MSIE_PADDING.length();
                padding = true;
            }
            r.headersOut.contentType = "text/html";
        } else {
            r.headersOut.contentLengthN = 0;
        }
        clearHeaders(r);
        int rc = r.sendHeader();
        if (rc == Rc.ERROR || r.headerOnly) {
            return rc;
        }
        if (body == null) {
            return r.sendLast();
        }
        Buf last = Buf.of(tail);
        BufChain out = new BufChain(Buf.of(body), BufChain.of(last));
        if (padding) {
            last = Buf.of(ErrorPages.msiePadding());
            out.next.next = BufChain.of(last);
        }
        last.last = true;
        last.lastInChain = true;
        return r.outputFilter(out);
    }

    /** nginx's {@code ngx_http_send_refresh()}: MSIE gets 200 and a page that refreshes to the Location. */
    private static int sendRefresh(CoreRequest r) {
        String location = r.headersOut.location.value;
        String page = ErrorPages.MSIE_REFRESH_HEAD + escapeRefresh(location) + ErrorPages.MSIE_REFRESH_TAIL;
        r.errStatus = HttpStatus.OK;
        r.headersOut.contentType = "text/html";
        PhaseRunner.clearLocation(r);
        r.headersOut.contentLengthN = page.length();
        clearHeaders(r);
        int rc = r.sendHeader();
        if (rc == Rc.ERROR || r.headerOnly) {
            return rc;
        }
        byte[] bytes = page.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
        b.put(bytes).flip();
        Buf buf = Buf.of(b);
        buf.last = true;
        buf.lastInChain = true;
        return r.outputFilter(BufChain.of(buf));
    }

    /** nginx's {@code ngx_escape_uri(..., NGX_ESCAPE_REFRESH)}: space, {@code "}, {@code '}, controls, 0x7f and up. */
    static String escapeRefresh(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch <= 0x20 || ch == '"' || ch == '\'' || ch >= 0x7f) {
                if (sb == null) {
                    sb = new StringBuilder(s.length() + 16).append(s, 0, i);
                }
                sb.append('%').append(Character.toUpperCase(Character.forDigit((ch >> 4) & 0xf, 16)))
                    .append(Character.toUpperCase(Character.forDigit(ch & 0xf, 16)));
            } else if (sb != null) {
                sb.append(ch);
            }
        }
        return sb == null ? s : sb.toString();
    }

    /** nginx's {@code ngx_http_clear_accept_ranges()}, {@code ..._last_modified()} and {@code ..._etag()}. */
    private static void clearHeaders(CoreRequest r) {
        if (r.headersOut.acceptRanges != null) {
            r.headersOut.acceptRanges.removed = true;
            r.headersOut.acceptRanges = null;
        }
        r.headersOut.lastModifiedTime = -1;
        if (r.headersOut.etag != null) {
            r.headersOut.etag.removed = true;
            r.headersOut.etag = null;
        }
    }

    /**
     * Returns Jinx's version as {@code server_tokens on} shows it (nginx's {@code NGINX_VER} without the name):
     * the kernel's.
     *
     * @param cycle the cycle, or null
     * @return the version
     */
    public static String version(Cycle cycle) {
        LoadedModule core = cycle == null ? null : cycle.module("core");
        if (core != null && core.version() != null && !"-".equals(core.version())) {
            return core.version();
        }
        String impl = Cycle.class.getPackage() == null ? null : Cycle.class.getPackage().getImplementationVersion();
        return impl != null ? impl : "unknown";
    }
}
