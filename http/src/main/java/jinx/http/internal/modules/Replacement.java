package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;

import jinx.http.HttpRequest;
import jinx.http.internal.core.Captures;
import jinx.http.internal.variables.Variables;
import jinx.kernel.ConfException;
import jinx.kernel.spi.ConfContext;

/**
 * The replacement of a {@code rewrite}, compiled as nginx's {@code ngx_http_script_compile()} compiles it: literal
 * text, variables, captures {@code $1} ... {@code $9}, and, unless the rewrite redirects, the first {@code ?}, which
 * starts the arguments. A capture copied into the arguments or into a redirect is escaped as nginx's
 * {@code NGX_ESCAPE_ARGS} when the request's URI was percent-encoded or held a {@code +}.
 */
final class Replacement {

    private static final int LITERAL = 0;
    private static final int VARIABLE = 1;
    private static final int CAPTURE = 2;
    private static final int ARGS = 3;

    private record Part(int kind, String literal, int index) {
    }

    /**
     * A replacement evaluated for a request.
     *
     * @param uri the text before the arguments (all of it without a {@code ?})
     * @param args the arguments, or null when the replacement has no {@code ?} (or redirects)
     */
    record Value(String uri, String args) {
    }

    private final List<Part> parts;
    private final boolean hasArgs;

    private Replacement(List<Part> parts, boolean hasArgs) {
        this.parts = parts;
        this.hasArgs = hasArgs;
    }

    /**
     * Tells whether the replacement holds a {@code ?}: a redirect then joins the request's arguments with
     * {@code &}.
     *
     * @return true when it does
     */
    boolean hasArgs() {
        return hasArgs;
    }

    /**
     * Compiles a replacement.
     *
     * @param cf the directive's context
     * @param source the replacement, its final {@code ?} already removed
     * @param compileArgs true unless the rewrite redirects: the first {@code ?} starts the arguments
     * @return the compiled replacement
     * @throws ConfException nginx's {@code invalid variable name} and
     *     {@code the closing bracket in "x" variable is missing}, or an unknown variable
     */
    static Replacement compile(ConfContext cf, String source, boolean compileArgs) throws ConfException {
        List<Part> parts = new ArrayList<>();
        boolean args = false;
        boolean splitArgs = compileArgs;
        int len = source.length();
        int i = 0;
        while (i < len) {
            char c = source.charAt(i);
            if (c == '$') {
                if (++i == len) {
                    throw new ConfException("invalid variable name");
                }
                c = source.charAt(i);
                if (c >= '1' && c <= '9') {
                    parts.add(new Part(CAPTURE, null, c - '0'));
                    i++;
                    continue;
                }
                boolean bracket = c == '{';
                if (bracket && ++i == len) {
                    throw new ConfException("invalid variable name");
                }
                int start = i;
                while (i < len && isNameChar(source.charAt(i))) {
                    i++;
                }
                String name = source.substring(start, i);
                if (bracket) {
                    if (i == len || source.charAt(i) != '}') {
                        throw new ConfException("the closing bracket in \"" + name + "\" variable is missing");
                    }
                    i++;
                }
                if (name.isEmpty()) {
                    throw new ConfException("invalid variable name");
                }
                parts.add(new Part(VARIABLE, null, Variables.of(cf).index(cf, name)));
                continue;
            }
            if (c == '?' && splitArgs) {
                args = true;
                splitArgs = false;
                parts.add(new Part(ARGS, null, 0));
                i++;
                continue;
            }
            int start = i;
            while (i < len && source.charAt(i) != '$') {
                if (source.charAt(i) == '?') {
                    args = true;
                    if (splitArgs) {
                        break;
                    }
                }
                i++;
            }
            parts.add(new Part(LITERAL, source.substring(start, i), 0));
        }
        return new Replacement(List.copyOf(parts), args);
    }

    private static boolean isNameChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }

    /**
     * Evaluates the replacement.
     *
     * @param r the request
     * @param captures the groups of the regex that matched
     * @param quote true for a redirect: captures are escaped when the URI was encoded
     * @param encodedUri the request's URI held {@code %} or {@code +} (nginx's {@code quoted_uri},
     *     {@code plus_in_uri})
     * @return the text, split at the arguments
     */
    Value evaluate(HttpRequest r, Captures captures, boolean quote, boolean encodedUri) {
        StringBuilder uri = new StringBuilder(64);
        StringBuilder args = null;
        StringBuilder to = uri;
        for (Part p : parts) {
            switch (p.kind) {
                case LITERAL -> to.append(p.literal);
                case VARIABLE -> {
                    String v = r.variable(p.index);
                    if (v != null) {
                        to.append(v);
                    }
                }
                case CAPTURE -> {
                    String g = p.index < captures.count() ? captures.group(p.index) : "";
                    if ((args != null || quote) && encodedUri) {
                        UriEscape.escapeArgs(to, g);
                    } else {
                        to.append(g);
                    }
                }
                default -> {
                    args = new StringBuilder(32);
                    to = args;
                }
            }
        }
        return new Value(uri.toString(), args == null ? null : args.toString());
    }
}
