package jinx.stream.internal;

import java.util.ArrayList;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamConfig;
import jinx.stream.spi.StreamVariable;

/**
 * A {@code log_format}: nginx's {@code ngx_stream_log_compile_format()} and the ops that write a line: literal
 * text and variables, a variable without a value written as {@code -} ({@code escape=default}) or nothing
 * ({@code json}, {@code none}), escaped as nginx escapes them.
 */
final class LogFormat {

    static final int ESCAPE_DEFAULT = 0;
    static final int ESCAPE_JSON = 1;
    static final int ESCAPE_NONE = 2;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    final String name;
    private final int escape;
    private final String[] literals;
    private final StreamVariable[] vars;

    private LogFormat(String name, int escape, String[] literals, StreamVariable[] vars) {
        this.name = name;
        this.escape = escape;
        this.literals = literals;
        this.vars = vars;
    }

    static LogFormat compile(StreamConfig cf, String name, List<String> args) throws ConfException {
        int escape = ESCAPE_DEFAULT;
        int from = 0;
        if (!args.isEmpty() && args.get(0).startsWith("escape=")) {
            String e = args.get(0).substring(7);
            if (e.equals("json")) {
                escape = ESCAPE_JSON;
            } else if (e.equals("none")) {
                escape = ESCAPE_NONE;
            } else if (!e.equals("default")) {
                throw new ConfException("unknown log format escaping \"" + e + "\"");
            }
            from = 1;
        }
        List<String> lits = new ArrayList<>();
        List<StreamVariable> vs = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        for (String a : args.subList(from, args.size())) {
            int i = 0;
            while (i < a.length()) {
                char ch = a.charAt(i);
                if (ch != '$') {
                    lit.append(ch);
                    i++;
                    continue;
                }
                i++;
                boolean bracket = i < a.length() && a.charAt(i) == '{';
                if (bracket) {
                    i++;
                }
                int start = i;
                while (i < a.length() && isNameChar(a.charAt(i))) {
                    i++;
                }
                if (i == start) {
                    throw new ConfException("invalid variable name in \"" + a + "\"");
                }
                String var = a.substring(start, i);
                if (bracket) {
                    if (i >= a.length() || a.charAt(i) != '}') {
                        throw new ConfException("the closing bracket in \"" + var + "\" variable is missing");
                    }
                    i++;
                }
                lits.add(lit.toString());
                lit.setLength(0);
                vs.add(cf.variable(var));
            }
        }
        lits.add(lit.toString());
        return new LogFormat(name, escape, lits.toArray(new String[0]), vs.toArray(new StreamVariable[0]));
    }

    private static boolean isNameChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }

    /** The line, with its newline. */
    String line(StreamSession s) {
        StringBuilder sb = new StringBuilder(256);
        for (int i = 0; i < vars.length; i++) {
            sb.append(literals[i]);
            String v = vars[i].get(s);
            if (v == null) {
                if (escape == ESCAPE_DEFAULT) {
                    sb.append('-');
                }
                continue;
            }
            switch (escape) {
                case ESCAPE_DEFAULT -> escapeDefault(sb, v);
                case ESCAPE_JSON -> escapeJson(sb, v);
                default -> sb.append(v);
            }
        }
        sb.append(literals[vars.length]).append('\n');
        return sb.toString();
    }

    /** nginx's {@code ngx_stream_log_escape()}: controls, {@code "}, {@code \}, DEL and bytes above 127. */
    static void escapeDefault(StringBuilder sb, String v) {
        for (int i = 0; i < v.length(); i++) {
            int c = v.charAt(i) & 0xff;
            if (c < 0x20 || c == '"' || c == '\\' || c >= 0x7f) {
                sb.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xf]);
            } else {
                sb.append((char) c);
            }
        }
    }

    /** nginx's {@code ngx_escape_json()}. */
    static void escapeJson(StringBuilder sb, String v) {
        for (int i = 0; i < v.length(); i++) {
            int c = v.charAt(i) & 0xff;
            if (c == '"' || c == '\\') {
                sb.append('\\').append((char) c);
            } else if (c < 0x20) {
                switch (c) {
                    case '\n' -> sb.append("\\n");
                    case '\r' -> sb.append("\\r");
                    case '\t' -> sb.append("\\t");
                    case '\b' -> sb.append("\\b");
                    case '\f' -> sb.append("\\f");
                    default -> sb.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
                }
            } else {
                sb.append((char) c);
            }
        }
    }
}
