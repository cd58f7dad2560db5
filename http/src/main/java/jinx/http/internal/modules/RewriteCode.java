package jinx.http.internal.modules;

import java.util.List;

import jinx.http.HttpRequest;
import jinx.http.internal.core.Captures;
import jinx.http.internal.core.HttpRegex;
import jinx.http.internal.request.CoreRequest;
import jinx.http.spi.ComplexValue;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.spi.ConfValues;

/**
 * One step of a rewrite program: nginx's script codes of {@code src/http/ngx_http_script.c} as the rewrite module
 * uses them ({@code ngx_http_script_regex_start_code()} with {@code ..._regex_end_code()},
 * {@code ngx_http_script_return_code()}, {@code ngx_http_script_set_var_code()},
 * {@code ngx_http_script_break_code()}, {@code ngx_http_script_if_code()}).
 */
interface RewriteCode {

    /**
     * Runs the step.
     *
     * @param e the program's state
     * @return true to go on with the next step, false to stop
     */
    boolean run(Engine e);

    /**
     * The state of a running program: nginx's {@code ngx_http_script_engine_t}.
     */
    final class Engine {
        /** The request. */
        final HttpRequest r;
        /** {@code rewrite_log on}. */
        final boolean log;
        /** What the handler answers: {@link Rc#DECLINED} unless a step says otherwise. */
        int status = Rc.DECLINED;

        Engine(HttpRequest r, boolean log) {
            this.r = r;
            this.log = log;
        }

        void notice(String message) {
            if (log) {
                CoreOutput.log(r, LogLevel.NOTICE, 0, message);
            }
        }
    }

    /**
     * {@code rewrite regex replacement [flag]}.
     *
     * @param regex the regex
     * @param replacement the replacement
     * @param redirectStatus 301 or 302 for a redirect, else 0
     * @param breakCycle the {@code break} flag
     * @param addArgs the request's arguments are kept (no final {@code ?})
     * @param last the program stops after a match ({@code last}, {@code break}, a redirect)
     */
    record Rewrite(HttpRegex regex, Replacement replacement, int redirectStatus, boolean breakCycle,
                   boolean addArgs, boolean last) implements RewriteCode {

        @Override
        public boolean run(Engine e) {
            HttpRequest r = e.r;
            CoreRequest cr = r instanceof CoreRequest c ? c : null;
            Captures captures = cr != null ? cr.captures : new Captures();
            String line = r.uri;
            int rc = regex.exec(line, captures);
            if (rc == Rc.DECLINED) {
                e.notice("\"" + regex.source() + "\" does not match \"" + line + "\"");
                captures.clear();
                return true;
            }
            if (rc == Rc.ERROR) {
                CoreOutput.log(r, LogLevel.ALERT, 0, regex.failure(line));
                e.status = CoreOutput.INTERNAL_SERVER_ERROR;
                return false;
            }
            e.notice("\"" + regex.source() + "\" matches \"" + line + "\"");
            boolean redirect = redirectStatus != 0;
            if (redirect) {
                e.status = redirectStatus;
            }
            boolean encoded = false;
            r.internal = true;
            if (cr != null) {
                cr.parse.validUnparsedUri = false;
                cr.uriChanged = !breakCycle;
                encoded = cr.parse.quotedUri || cr.parse.plusInUri;
            }
            Replacement.Value v = replacement.evaluate(r, captures, redirect, encoded);
            if (redirect) {
                return redirect(e, v) && !last;
            }
            String uri = v.uri();
            if (v.args() != null) {
                r.args = addArgs && !r.args.isEmpty() ? v.args() + "&" + r.args : v.args();
            } else if (!addArgs) {
                r.args = "";
            }
            e.notice("rewritten data: \"" + uri + "\", args: \"" + r.args + "\"");
            r.uri = uri;
            if (uri.isEmpty()) {
                CoreOutput.log(r, LogLevel.ERROR, 0, "the rewritten URI has a zero length");
                e.status = CoreOutput.INTERNAL_SERVER_ERROR;
                return false;
            }
            CoreOutput.setExten(r);
            return !last;
        }

        private boolean redirect(Engine e, Replacement.Value v) {
            HttpRequest r = e.r;
            String location = UriEscape.unescapeRedirect(v.uri());
            if (addArgs && !r.args.isEmpty()) {
                location += (replacement.hasArgs() ? '&' : '?') + r.args;
            }
            e.notice("rewritten redirect: \"" + location + "\"");
            CoreOutput.setLocation(r, location);
            return true;
        }
    }

    /**
     * {@code return code [text]} and {@code return URL}.
     *
     * @param status the status
     * @param text the text or URL, or null for none
     */
    record Return(int status, ComplexValue text) implements RewriteCode {

        @Override
        public boolean run(Engine e) {
            if (status < CoreOutput.BAD_REQUEST || text != null) {
                e.status = CoreOutput.sendResponse(e.r, status, text);
            } else {
                e.status = status;
            }
            return false;
        }
    }

    /**
     * {@code set $name value}: the value is kept in the request's variable cache, as nginx keeps it in
     * {@code r->variables}; {@code $args} and {@code $limit_rate} have setters of their own.
     *
     * @param index the variable's index
     * @param name its lower-case name
     * @param value the value
     */
    record SetVar(int index, String name, ComplexValue value) implements RewriteCode {

        @Override
        public boolean run(Engine e) {
            HttpRequest r = e.r;
            String v = value.evaluate(r);
            switch (name) {
                case "args" -> r.args = v;
                case "limit_rate" -> setLimitRate(r, v);
                default -> {
                    if (r instanceof CoreRequest cr) {
                        cr.variableCache()[index] = v;
                    }
                }
            }
            return true;
        }

        /** nginx's {@code ngx_http_variable_request_set_size()} on {@code r->limit_rate}. */
        private static void setLimitRate(HttpRequest r, String v) {
            long size = ConfValues.parseSize(v);
            if (size == -1) {
                CoreOutput.log(r, LogLevel.ERROR, 0, "invalid size \"" + v + "\"");
                return;
            }
            if (r instanceof CoreRequest cr) {
                cr.limitRate = size;
            }
        }
    }

    /**
     * {@code break}.
     */
    record Break() implements RewriteCode {

        @Override
        public boolean run(Engine e) {
            if (e.r instanceof CoreRequest cr) {
                cr.uriChanged = false;
            }
            return false;
        }
    }

    /**
     * {@code if (condition) { ... }}: nginx compiles the block's directives into the enclosing program, skipped
     * when the condition fails; here the block is a program of its own run in place. In a location, a holding
     * condition also gives the request the block's location confs ({@code r->loc_conf = code->loc_conf} and
     * {@code ngx_http_update_location_config()}).
     *
     * @param condition the condition
     * @param body the block's steps
     * @param locConf the block's location confs, or null for an {@code if} in a server
     */
    record If(RewriteIf.Condition condition, List<RewriteCode> body, Object[] locConf) implements RewriteCode {

        @Override
        public boolean run(Engine e) {
            int rc = condition.test(e);
            if (rc == RewriteIf.ERROR) {
                e.status = CoreOutput.INTERNAL_SERVER_ERROR;
                return false;
            }
            if (rc == RewriteIf.FALSE) {
                return true;
            }
            if (locConf != null && e.r instanceof CoreRequest cr) {
                cr.useLocationConf(locConf);
            }
            for (int i = 0, n = body.size(); i < n; i++) {
                if (!body.get(i).run(e)) {
                    return false;
                }
            }
            return true;
        }
    }
}
