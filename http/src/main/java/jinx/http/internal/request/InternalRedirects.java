package jinx.http.internal.request;

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.core.Locations;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;

/**
 * A request moved inside the server: nginx's {@code ngx_http_internal_redirect()}, {@code ngx_http_named_location()}
 * and {@code ngx_http_set_exten()} (src/http/ngx_http_core_module.c).
 */
public final class InternalRedirects {

    private InternalRedirects() {
    }

    /**
     * nginx's {@code ngx_http_internal_redirect()}: the request starts again at SERVER_REWRITE with another URI.
     * The caller finalizes with {@link Rc#DONE} afterwards, as in nginx.
     *
     * @param r the request
     * @param uri the new URI
     * @param args its arguments, or null
     * @return {@link Rc#DONE}
     */
    static int internalRedirect(CoreRequest r, String uri, String args) {
        r.uriChanges--;
        if (r.uriChanges == 0) {
            r.log(LogLevel.ERROR, "rewrite or internal redirection cycle while internally redirecting to \""
                + uri + "\"");
            r.main.count++;
            r.finalizeRequest(HttpStatus.INTERNAL_SERVER_ERROR);
            return Rc.DONE;
        }
        r.uri = uri;
        r.args = args != null ? args : "";
        setExten(r);
        // clear the modules contexts
        r.clearCtx();
        r.locConf = r.cscf().ctx.locConf;
        PhaseRunner.updateLocationConfig(r);
        r.internal = true;
        r.parse.validUnparsedUri = false;
        r.addUriToAlias = false;
        r.main.count++;
        PhaseRunner.handler(r);
        return Rc.DONE;
    }

    /**
     * nginx's {@code ngx_http_named_location()}: the request goes on at REWRITE in a named location, its URI kept.
     *
     * @param r the request
     * @param name the name, with its {@code @}
     * @return {@link Rc#DONE}
     */
    static int namedLocation(CoreRequest r, String name) {
        r.main.count++;
        r.uriChanges--;
        if (r.uriChanges == 0) {
            r.log(LogLevel.ERROR, "rewrite or internal redirection cycle while redirect to named location \""
                + name + "\"");
            r.finalizeRequest(HttpStatus.INTERNAL_SERVER_ERROR);
            return Rc.DONE;
        }
        if (r.uri == null || r.uri.isEmpty()) {
            r.log(LogLevel.ERROR, "empty URI in redirect to named location \"" + name + "\"");
            r.finalizeRequest(HttpStatus.INTERNAL_SERVER_ERROR);
            return Rc.DONE;
        }
        HttpCoreLocConf loc = Locations.named(r.cscf(), name);
        if (loc != null) {
            r.internal = true;
            r.contentHandler = null;
            r.uriChanged = false;
            r.location(loc);
            // clear the modules contexts
            r.clearCtx();
            PhaseRunner.updateLocationConfig(r);
            r.phaseHandler = r.cmcf().phaseEngine.locationRewriteIndex();
            r.writeEventHandler = PhaseRunner::runPhases;
            PhaseRunner.runPhases(r);
            return Rc.DONE;
        }
        r.log(LogLevel.ERROR, "could not find named location \"" + name + "\"");
        r.finalizeRequest(HttpStatus.INTERNAL_SERVER_ERROR);
        return Rc.DONE;
    }

    /**
     * nginx's {@code ngx_http_set_exten()}: the extension of the URI's last segment.
     *
     * @param r the request
     */
    public static void setExten(HttpRequest r) {
        String uri = r.uri;
        r.exten = "";
        for (int i = uri.length() - 1; i > 1; i--) {
            char ch = uri.charAt(i);
            if (ch == '.' && uri.charAt(i - 1) != '/') {
                r.exten = uri.substring(i + 1);
                return;
            }
            if (ch == '/') {
                return;
            }
        }
    }
}
