package jinx.http.internal.modules;

import java.util.List;

import jinx.http.HttpRequest;
import jinx.http.internal.core.Captures;
import jinx.http.internal.core.HttpRegex;
import jinx.kernel.ConfException;
import jinx.kernel.Rc;

/**
 * SSI's conditionals and the string evaluation they share with {@code set} and {@code include}: nginx's
 * {@code ngx_http_ssi_if()}, {@code _else()}, {@code _endif()}, {@code ngx_http_ssi_evaluate_string()} and
 * {@code ngx_http_ssi_regex_match()}. A regex is compiled when the command runs, as nginx does, and matched with
 * the step budget every Jinx regex has ({@link HttpRegex}), so a hostile value cannot make it run away.
 */
final class SsiIf {

    private SsiIf() {
    }

    /** nginx's {@code ngx_http_ssi_if()}, for {@code if} and {@code elif}. */
    static int ifCommand(HttpRequest r, SsiFilter ctx, String[] params) {
        if (ctx.parser.command.length() == 2 && ctx.conditional != 0) {
            ctx.log("the \"if\" command inside the \"if\" command");
            return SsiFilter.SSI_ERROR;
        }
        if (ctx.outputChosen) {
            ctx.output = false;
            return Rc.OK;
        }
        String expr = params[0];
        char[] e = expr.toCharArray();
        int p = 0;
        int last = e.length;
        for (; p < last; p++) {
            char c = e[p];
            if (c >= 'A' && c <= 'Z') {
                e[p] = (char) (c | 0x20);
                continue;
            }
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '$' || c == '{' || c == '}' || c == '_'
                  || c == '"' || c == '\'')) {
                break;
            }
        }
        String left = evaluate(r, ctx, new String(e, 0, p), false);
        if (left == null) {
            return SsiFilter.SSI_ERROR;
        }
        while (p < last && e[p] == ' ') {
            p++;
        }
        if (p == last) {
            choose(ctx, !left.isEmpty());
            return Rc.OK;
        }
        boolean negative;
        if (e[p] == '=') {
            negative = false;
            p++;
        } else if (p + 1 < last && e[p] == '!' && e[p + 1] == '=') {
            negative = true;
            p += 2;
        } else {
            return invalid(ctx, e);
        }
        while (p < last && e[p] == ' ') {
            p++;
        }
        boolean regex = false;
        if (p < last - 1 && e[p] == '/') {
            if (e[last - 1] != '/') {
                return invalid(ctx, e);
            }
            regex = true;
            last--;
            p++;
        } else if (p < last - 1 && e[p] == '\\' && e[p + 1] == '/') {
            p++;
        }
        String right = evaluate(r, ctx, new String(e, p, last - p), false);
        if (right == null) {
            return SsiFilter.SSI_ERROR;
        }
        boolean match;
        if (!regex) {
            match = left.equals(right);
        } else {
            int rc = regexMatch(ctx, right, left);
            if (rc == SsiFilter.SSI_ERROR) {
                return rc;
            }
            match = rc == Rc.OK;
        }
        choose(ctx, match != negative);
        return Rc.OK;
    }

    private static void choose(SsiFilter ctx, boolean yes) {
        if (yes) {
            ctx.output = true;
            ctx.outputChosen = true;
        } else {
            ctx.output = false;
        }
        ctx.conditional = SsiFilter.COND_IF;
    }

    private static int invalid(SsiFilter ctx, char[] expr) {
        ctx.log("invalid expression in \"" + new String(expr) + "\"");
        return SsiFilter.SSI_ERROR;
    }

    /** nginx's {@code ngx_http_ssi_else()}. */
    static int elseCommand(HttpRequest r, SsiFilter ctx, String[] params) {
        ctx.output = !ctx.outputChosen;
        ctx.conditional = SsiFilter.COND_ELSE;
        return Rc.OK;
    }

    /** nginx's {@code ngx_http_ssi_endif()}. */
    static int endif(HttpRequest r, SsiFilter ctx, String[] params) {
        ctx.output = true;
        ctx.outputChosen = false;
        ctx.conditional = 0;
        return Rc.OK;
    }

    /** nginx's {@code ngx_http_ssi_regex_match()}: {@link Rc#OK}, {@link Rc#DECLINED} or an SSI error. */
    private static int regexMatch(SsiFilter ctx, String pattern, String subject) {
        HttpRegex re;
        try {
            re = HttpRegex.compile(pattern, false);
        } catch (ConfException e) {
            ctx.log(e.getMessage());
            return SsiFilter.SSI_ERROR;
        }
        Captures captures = new Captures();
        int rc = re.exec(subject, captures);
        if (rc == Rc.ERROR) {
            ctx.log(re.failure(subject));
            return SsiFilter.SSI_ERROR;
        }
        if (rc != Rc.OK) {
            return Rc.DECLINED;
        }
        // as pcre_exec()'s count: the groups up to the last that matched; a later digit is not found
        int count = captures.count();
        while (count > 1 && captures.start(count - 1) < 0) {
            count--;
        }
        String[] groups = new String[count];
        for (int i = 0; i < groups.length; i++) {
            String g = captures.group(i);
            groups[i] = g == null ? "" : g;
        }
        ctx.shared.captures = groups;
        List<String> names = re.names();
        for (String name : names) {
            if (name != null) {
                int g = re.groupOf(name);
                String v = captures.start(g) < 0 ? null : captures.group(g);
                ctx.shared.variables.put(CoreOutput.lowerAscii(name), v == null ? "" : v);
            }
        }
        return Rc.OK;
    }

    /**
     * nginx's {@code ngx_http_ssi_evaluate_string()}: {@code $name} and {@code ${name}} replaced by the document's
     * variable or else the request's (nothing when not found), a backslash dropped before {@code \ ' " $}; with
     * {@code addPrefix}, a result not starting with {@code /} is taken relative to the request's URI.
     *
     * @return the value, or null after logging an SSI error
     */
    static String evaluate(HttpRequest r, SsiFilter ctx, String text, boolean addPrefix) {
        StringBuilder b = new StringBuilder(text.length() + 16);
        int i = 0;
        int n = text.length();
        boolean any = false;
        while (i < n) {
            if (text.charAt(i) != '$') {
                i = unescape(text, i, b);
                continue;
            }
            if (++i == n) {
                ctx.log("invalid variable name in \"" + text + "\"");
                return null;
            }
            boolean bracket = text.charAt(i) == '{';
            if (bracket && ++i == n) {
                ctx.log("invalid variable name in \"" + text + "\"");
                return null;
            }
            int start = i;
            int end = i;
            for (; i < n; i++) {
                char ch = text.charAt(i);
                if (ch == '}' && bracket) {
                    end = i++;
                    bracket = false;
                    break;
                }
                if (!(ch >= 'A' && ch <= 'Z' || ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '_')) {
                    break;
                }
                end = i + 1;
            }
            if (bracket) {
                ctx.log("the closing bracket in \"" + text.substring(start, end) + "\" variable is missing");
                return null;
            }
            if (end == start) {
                ctx.log("invalid variable name in \"" + text + "\"");
                return null;
            }
            String value = SsiCommands.variable(r, ctx, CoreOutput.lowerAscii(text.substring(start, end)));
            if (value != null) {
                b.append(value);
            }
            any = true;
        }
        String s = b.toString();
        if (addPrefix && !s.isEmpty() && s.charAt(0) != '/' || addPrefix && !any && text.isEmpty()) {
            String uri = r.uri;
            int slash = uri.lastIndexOf('/');
            if (slash >= 0) {
                s = uri.substring(0, slash + 1) + s;
            }
        }
        return s;
    }

    /** Copies text up to an unquoted {@code $}, dropping a backslash before {@code \ ' " $}. */
    private static int unescape(String text, int i, StringBuilder b) {
        boolean quoted = false;
        for (; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (!quoted) {
                if (ch == '\\') {
                    quoted = true;
                    continue;
                }
                if (ch == '$') {
                    break;
                }
            } else {
                quoted = false;
                if (ch != '\\' && ch != '\'' && ch != '"' && ch != '$') {
                    b.append('\\');
                }
            }
            b.append(ch);
        }
        return i;
    }
}
