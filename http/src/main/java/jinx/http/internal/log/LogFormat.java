package jinx.http.internal.log;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import jinx.http.HttpRequest;
import jinx.http.internal.variables.CoreVariables;
import jinx.kernel.ConfException;

/**
 * A {@code log_format}: its name and the operations that write a line, nginx's {@code ngx_http_log_fmt_t} as
 * {@code ngx_http_log_compile_format()} builds it. Literal text is copied; a handful of variables
 * ({@code $status}, {@code $time_local}, {@code $body_bytes_sent} ...) are written directly, unescaped, as
 * nginx's {@code ngx_http_log_vars[]}; every other variable is read by index and escaped as {@code escape=} says.
 */
final class LogFormat {

    /** Gives the index of a variable name: {@code Variables.index} or {@code HttpConfig.variableIndex}. */
    @FunctionalInterface
    interface Indexer {

        /**
         * Returns the index of a name.
         *
         * @param name the name without {@code $}
         * @return the index
         * @throws ConfException for a name that cannot be indexed
         */
        int index(String name) throws ConfException;
    }

    /** One step of writing a line: nginx's {@code ngx_http_log_op_t}. */
    @FunctionalInterface
    interface Op {

        /**
         * Appends this step's text.
         *
         * @param r the request
         * @param line the line so far
         */
        void run(HttpRequest r, StringBuilder line);
    }

    /** nginx's {@code ngx_http_log_vars[]}: written without escaping, straight from the request. */
    private static final Map<String, Function<HttpRequest, String>> DIRECT = Map.of(
        "pipe", CoreVariables::pipe,
        "time_local", CoreVariables::timeLocal,
        "time_iso8601", CoreVariables::timeIso8601,
        "msec", CoreVariables::msec,
        "request_time", CoreVariables::requestTime,
        "status", CoreVariables::status,
        "bytes_sent", CoreVariables::bytesSent,
        "body_bytes_sent", CoreVariables::bodyBytesSent,
        "request_length", CoreVariables::requestLength);

    private final String name;
    private final List<Op> ops = new ArrayList<>();
    private LogEscape escape = LogEscape.DEFAULT;

    /**
     * Creates an empty format, filled by {@link #compile}.
     *
     * @param name the format's name
     */
    LogFormat(String name) {
        this.name = name;
    }

    String name() {
        return name;
    }

    LogEscape escape() {
        return escape;
    }

    /**
     * Tells whether the format has no operations yet (the {@code combined} format before it is compiled).
     *
     * @return true when empty
     */
    boolean isEmpty() {
        return ops.isEmpty();
    }

    /**
     * Compiles the format's strings, {@code args[from..]}, an {@code escape=} first among them allowed: nginx's
     * {@code ngx_http_log_compile_format()}. The strings are joined without separator.
     *
     * @param args the directive's words
     * @param from the first word of the format
     * @param indexer gives variable indexes
     * @throws ConfException {@code unknown log format escaping "x"}, {@code invalid parameter "x"},
     *     {@code the closing bracket in "x" variable is missing}
     */
    void compile(List<String> args, int from, Indexer indexer) throws ConfException {
        int s = from;
        if (s < args.size() && args.get(s).startsWith("escape=")) {
            String data = args.get(s).substring("escape=".length());
            escape = switch (data) {
                case "json" -> LogEscape.JSON;
                case "none" -> LogEscape.NONE;
                case "default" -> LogEscape.DEFAULT;
                default -> throw new ConfException("unknown log format escaping \"" + data + "\"");
            };
            s++;
        }
        for (; s < args.size(); s++) {
            compileString(args.get(s), indexer);
        }
    }

    private void compileString(String value, Indexer indexer) throws ConfException {
        int len = value.length();
        int i = 0;
        while (i < len) {
            int start = i;
            if (value.charAt(i) != '$') {
                i++;
                while (i < len && value.charAt(i) != '$') {
                    i++;
                }
                ops.add(literal(value.substring(start, i)));
                continue;
            }
            if (++i == len) {
                throw invalid(value, start);
            }
            boolean bracket = value.charAt(i) == '{';
            if (bracket && ++i == len) {
                throw invalid(value, start);
            }
            int nameStart = i;
            while (i < len && isNameChar(value.charAt(i))) {
                i++;
            }
            String var = value.substring(nameStart, i);
            if (bracket) {
                if (i == len || value.charAt(i) != '}') {
                    throw new ConfException("the closing bracket in \"" + var + "\" variable is missing");
                }
                i++;
            }
            if (var.isEmpty()) {
                throw invalid(value, start);
            }
            ops.add(variable(var, indexer));
        }
    }

    private static ConfException invalid(String value, int start) {
        // nginx prints the rest of the word from the '$' on ("%s" of the NUL-terminated argument)
        return new ConfException("invalid parameter \"" + value.substring(start) + "\"");
    }

    private static boolean isNameChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }

    private static Op literal(String text) {
        return (r, line) -> line.append(text);
    }

    private Op variable(String var, Indexer indexer) throws ConfException {
        Function<HttpRequest, String> direct = DIRECT.get(var);
        if (direct != null) {
            return (r, line) -> {
                String v = direct.apply(r);
                line.append(v == null ? "-" : v);
            };
        }
        int index = indexer.index(var);
        LogEscape e = escape;
        return (r, line) -> e.append(line, r.variable(index));
    }

    /**
     * Writes a request's line, without the line feed.
     *
     * @param r the request
     * @param line where to write
     */
    void render(HttpRequest r, StringBuilder line) {
        for (Op op : ops) {
            op.run(r, line);
        }
    }
}
