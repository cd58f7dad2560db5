package jinx.http.internal.request;

import jinx.http.HeadersIn;
import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.core.HttpCoreSrvConf;
import jinx.http.internal.core.Locations;
import jinx.http.internal.core.PhaseEngine;
import jinx.http.spi.Phase;
import jinx.http.spi.PhaseHandler;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;

/**
 * The run-time half of nginx's {@code ngx_http_core_module.c}: {@code ngx_http_handler()},
 * {@code ngx_http_core_run_phases()} and the phase checkers (generic, rewrite, find config, post rewrite, access,
 * post access, content), {@code ngx_http_update_location_config()}, {@code ngx_http_internal_redirect()},
 * {@code ngx_http_named_location()} and {@code ngx_http_set_exten()}.
 *
 * <p>A checker answers {@link Rc#AGAIN} to go on with the entry {@link CoreRequest#phaseHandler} names now, and
 * {@link Rc#OK} when the request stops running phases for now (it was finalized, or waits for an event).
 */
public final class PhaseRunner {

    /** What a warm-up request gets instead of a module's content handler: an empty 204. */
    private static final PhaseHandler WARM_UP_CONTENT = r -> HttpStatus.NO_CONTENT;

    /** {@code HttpConnection.tcpNopush}: never cork ({@code tcp_nopush off}), nginx's {@code NGX_TCP_NOPUSH_DISABLED}. */
    public static final int TCP_NOPUSH_DISABLED = -1;

    private PhaseRunner() {
    }

    /**
     * nginx's {@code ngx_http_handler()}: decides keep-alive and lingering from the header, then runs the phases
     * from the first (an internal redirect: from SERVER_REWRITE).
     *
     * @param r the request
     */
    static void handler(CoreRequest r) {
        r.hc.action = null;
        if (!r.internal) {
            switch (r.headersIn.connectionType) {
                case HeadersIn.CONNECTION_CLOSE:
                    r.keepalive = false;
                    break;
                case HeadersIn.CONNECTION_KEEP_ALIVE:
                    r.keepalive = true;
                    break;
                default:
                    r.keepalive = r.httpVersion > HttpRequest.VERSION_10;
                    break;
            }
            r.lingeringClose = r.headersIn.contentLengthN > 0 || r.headersIn.chunked;
            r.phaseHandler = 0;
        } else {
            r.phaseHandler = r.cmcf().phaseEngine.serverRewriteIndex();
        }
        r.validLocation = true;
        r.writeEventHandler = PhaseRunner::runPhases;
        runPhases(r);
    }

    /**
     * nginx's {@code ngx_http_core_run_phases()}: runs checkers until one stops.
     *
     * @param r the request
     */
    public static void runPhases(CoreRequest r) {
        PhaseEngine pe = r.cmcf().phaseEngine;
        while (r.phaseHandler < pe.size()) {
            int i = r.phaseHandler;
            int rc;
            try {
                rc = check(r, pe, i);
            } catch (RuntimeException | StackOverflowError e) {
                handlerFailed(r, pe.modules()[i] + "\" " + pe.phase(i) + " handler", e);
                return;
            }
            if (rc == Rc.OK) {
                return;
            }
        }
        // no CONTENT handler at all: what the content checker does when the last one declines
        if (r.contentHandler != null) {
            r.writeEventHandler = RequestEvents::emptyHandler;
            r.finalizeRequest(r.contentHandler.handle(r));
            return;
        }
        noContent(r);
    }

    private static int check(CoreRequest r, PhaseEngine pe, int i) {
        Phase phase = pe.phase(i);
        switch (phase) {
            case SERVER_REWRITE:
            case REWRITE:
                return rewritePhase(r, pe, i);
            case FIND_CONFIG:
                return findConfigPhase(r);
            case POST_REWRITE:
                return postRewritePhase(r, pe, i);
            case ACCESS:
                return accessPhase(r, pe, i);
            case POST_ACCESS:
                return postAccessPhase(r);
            case CONTENT:
                return contentPhase(r, pe, i);
            default:
                return genericPhase(r, pe, i);
        }
    }

    /** nginx's {@code ngx_http_core_generic_phase()}: POST_READ, PREACCESS, PRECONTENT. */
    private static int genericPhase(CoreRequest r, PhaseEngine pe, int i) {
        int rc = pe.handler(i).handle(r);
        if (rc == Rc.OK) {
            r.phaseHandler = pe.next(i);
            return Rc.AGAIN;
        }
        if (rc == Rc.DECLINED) {
            r.phaseHandler++;
            return Rc.AGAIN;
        }
        if (rc == Rc.AGAIN || rc == Rc.DONE) {
            return Rc.OK;
        }
        // ERROR or an HTTP status
        r.finalizeRequest(rc);
        return Rc.OK;
    }

    /** nginx's {@code ngx_http_core_rewrite_phase()}. */
    private static int rewritePhase(CoreRequest r, PhaseEngine pe, int i) {
        int rc = pe.handler(i).handle(r);
        if (rc == Rc.DECLINED) {
            r.phaseHandler++;
            return Rc.AGAIN;
        }
        if (rc == Rc.DONE) {
            return Rc.OK;
        }
        // OK, AGAIN, ERROR, an HTTP status
        r.finalizeRequest(rc);
        return Rc.OK;
    }

    /**
     * nginx's {@code ngx_http_core_find_config_phase()}: the location, {@code internal}, the body's size against
     * {@code client_max_body_size}, and the redirect of {@code /dir} to {@code /dir/}.
     */
    private static int findConfigPhase(CoreRequest r) {
        r.contentHandler = null;
        r.uriChanged = false;
        HttpCoreSrvConf cscf = r.cscf();
        int rc = Locations.find(cscf.locConf(), r.uri, r.locationMatch);
        if (rc == Rc.ERROR) {
            r.log(LogLevel.ALERT, r.locationMatch.failed.failure(r.uri));
            r.finalizeRequest(HttpStatus.INTERNAL_SERVER_ERROR);
            return Rc.OK;
        }
        r.location(r.locationMatch.loc);
        HttpCoreLocConf clcf = r.clcf();
        if (!r.internal && clcf.internal == 1) {
            r.finalizeRequest(HttpStatus.NOT_FOUND);
            return Rc.OK;
        }
        updateLocationConfig(r);
        clcf = r.clcf();
        long length = r.headersIn.contentLengthN;
        if (length != -1 && !r.discardBody && clcf.clientMaxBodySize != 0 && clcf.clientMaxBodySize < length) {
            r.log(LogLevel.ERROR, "client intended to send too large body: " + length + " bytes");
            r.expectTested = true;
            r.discardRequestBody();
            r.finalizeRequest(HttpStatus.REQUEST_ENTITY_TOO_LARGE);
            return Rc.OK;
        }
        if (rc == Rc.DONE) {
            String location = r.locationMatch.loc.escapedName;
            setLocation(r, r.args.isEmpty() ? location : location + "?" + r.args);
            r.finalizeRequest(HttpStatus.MOVED_PERMANENTLY);
            return Rc.OK;
        }
        r.phaseHandler++;
        return Rc.AGAIN;
    }

    /** nginx's {@code ngx_http_clear_location()} and a new {@code Location} line. */
    static void setLocation(CoreRequest r, String value) {
        clearLocation(r);
        r.headersOut.location = r.headersOut.headers.add("Location", value);
    }

    /**
     * nginx's {@code ngx_http_clear_location()}.
     *
     * @param r the request
     */
    static void clearLocation(CoreRequest r) {
        if (r.headersOut.location != null) {
            r.headersOut.location.removed = true;
            r.headersOut.location = null;
        }
    }

    /** nginx's {@code ngx_http_core_post_rewrite_phase()}: a rewritten URI looks its location up again. */
    private static int postRewritePhase(CoreRequest r, PhaseEngine pe, int i) {
        if (!r.uriChanged) {
            r.phaseHandler++;
            return Rc.AGAIN;
        }
        r.uriChanges--;
        if (r.uriChanges == 0) {
            r.log(LogLevel.ERROR, "rewrite or internal redirection cycle while processing \"" + r.uri + "\"");
            r.finalizeRequest(HttpStatus.INTERNAL_SERVER_ERROR);
            return Rc.OK;
        }
        r.phaseHandler = pe.next(i);
        r.locConf = r.cscf().ctx.locConf;
        return Rc.AGAIN;
    }

    /** nginx's {@code ngx_http_core_access_phase()}, with {@code satisfy all} and {@code satisfy any}. */
    private static int accessPhase(CoreRequest r, PhaseEngine pe, int i) {
        if (r != r.main) {
            // a subrequest is not checked again (nginx)
            r.phaseHandler = pe.next(i);
            return Rc.AGAIN;
        }
        int rc = pe.handler(i).handle(r);
        if (rc == Rc.DECLINED) {
            r.phaseHandler++;
            return Rc.AGAIN;
        }
        if (rc == Rc.AGAIN || rc == Rc.DONE) {
            return Rc.OK;
        }
        if (r.clcf().satisfy == HttpCoreLocConf.SATISFY_ALL) {
            if (rc == Rc.OK) {
                r.phaseHandler++;
                return Rc.AGAIN;
            }
        } else {
            if (rc == Rc.OK) {
                r.accessCode = 0;
                if (r.headersOut.wwwAuthenticate != null) {
                    r.headersOut.wwwAuthenticate.removed = true;
                }
                r.phaseHandler = pe.next(i);
                return Rc.AGAIN;
            }
            if (rc == HttpStatus.FORBIDDEN || rc == HttpStatus.UNAUTHORIZED) {
                if (r.accessCode != HttpStatus.UNAUTHORIZED) {
                    r.accessCode = rc;
                }
                r.phaseHandler++;
                return Rc.AGAIN;
            }
        }
        // ERROR or an HTTP status
        r.finalizeRequest(rc);
        return Rc.OK;
    }

    /** nginx's {@code ngx_http_core_post_access_phase()}: the access code {@code satisfy any} kept. */
    private static int postAccessPhase(CoreRequest r) {
        int accessCode = r.accessCode;
        if (accessCode != 0) {
            if (accessCode == HttpStatus.FORBIDDEN) {
                r.log(LogLevel.ERROR, "access forbidden by rule");
            }
            r.accessCode = 0;
            r.finalizeRequest(accessCode);
            return Rc.OK;
        }
        r.phaseHandler++;
        return Rc.AGAIN;
    }

    /**
     * nginx's {@code ngx_http_core_content_phase()}: the location's handler, else the CONTENT handlers in turn;
     * when every one declines, 403 for a directory, else 404.
     */
    private static int contentPhase(CoreRequest r, PhaseEngine pe, int i) {
        if (r.contentHandler != null) {
            r.writeEventHandler = RequestEvents::emptyHandler;
            r.finalizeRequest(r.contentHandler.handle(r));
            return Rc.OK;
        }
        int rc = pe.handler(i).handle(r);
        if (rc != Rc.DECLINED) {
            r.finalizeRequest(rc);
            return Rc.OK;
        }
        if (i + 1 < pe.size() && pe.phase(i + 1) == Phase.CONTENT) {
            r.phaseHandler++;
            return Rc.AGAIN;
        }
        noContent(r);
        return Rc.OK;
    }

    /**
     * A module's handler threw (a bug: nginx has no such path). That request ends with 500, or is closed when its
     * header went out already; the failure is logged at alert with the module's name; the connection's other
     * requests and the worker go on.
     */
    private static void handlerFailed(CoreRequest r, String what, Throwable e) {
        r.log(LogLevel.ALERT, "unexpected " + e + " in the \"" + what);
        r.keepalive = false;
        r.finalizeRequest(r.headerSent ? Rc.ERROR : HttpStatus.INTERNAL_SERVER_ERROR);
    }

    /** No content handler was found. */
    private static void noContent(CoreRequest r) {
        if (!r.uri.isEmpty() && r.uri.charAt(r.uri.length() - 1) == '/') {
            String path = UriToPath.map(r);
            if (path != null) {
                r.log(LogLevel.ERROR, "directory index of \"" + path + "\" is forbidden");
            }
            r.finalizeRequest(HttpStatus.FORBIDDEN);
            return;
        }
        r.log(LogLevel.ERROR, "no handler found");
        r.finalizeRequest(HttpStatus.NOT_FOUND);
    }

    /**
     * nginx's {@code ngx_http_update_location_config()}: what the location decides for the request
     * ({@code limit_except}, the error log, sendfile, keep-alive, tcp_nopush, limit_rate, its content handler).
     *
     * @param r the request
     */
    static void updateLocationConfig(CoreRequest r) {
        HttpCoreLocConf clcf = r.clcf();
        if ((r.method & clcf.limitExcept) != 0) {
            r.locConf = clcf.limitExceptLocConf;
            clcf = r.clcf();
        }
        RequestHeaders.setConnectionLog(r);
        HttpConnection hc = r.hc;
        hc.sendfile = clcf.sendfile == 1;
        if (r.keepalive) {
            if (clcf.keepaliveTimeout == 0 || hc.loop.exiting()) {
                // a gracefully exiting process answers with "Connection: close"
                r.keepalive = false;
            } else if (r.c.requests >= clcf.keepaliveRequests) {
                r.keepalive = false;
            } else if (hc.loop.currentMsec() - hc.startMsec > clcf.keepaliveTime) {
                r.keepalive = false;
            } else if (r.msie6 && r.method == HttpRequest.POST
                       && (clcf.keepaliveDisable & HttpCoreLocConf.KEEPALIVE_DISABLE_MSIE6) != 0) {
                // MSIE may wait for some time if an response for a POST request was sent over a keepalive
                // connection (nginx)
                r.keepalive = false;
            } else if (r.safari && (clcf.keepaliveDisable & HttpCoreLocConf.KEEPALIVE_DISABLE_SAFARI) != 0) {
                // Safari may send a POST request to a closed keepalive connection and may stall for some time,
                // see https://bugs.webkit.org/show_bug.cgi?id=5760 (nginx)
                r.keepalive = false;
            }
        }
        if (clcf.tcpNopush != 1) {
            hc.tcpNopush = TCP_NOPUSH_DISABLED;
        }
        if (r.limitRate == 0) {
            r.limitRate = clcf.limitRate;
        }
        if (clcf.handler != null) {
            // a module's handler may reach outside the server: a warm-up request never runs one
            r.contentHandler = r.c.warmUp ? WARM_UP_CONTENT : clcf.handler;
        }
    }
}
