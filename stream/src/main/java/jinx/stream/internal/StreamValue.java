package jinx.stream.internal;

import java.util.ArrayList;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamConfig;
import jinx.stream.spi.StreamVariable;

/**
 * A value with variables ({@code "$remote_addr:$remote_port"}), compiled once: nginx's
 * {@code ngx_stream_complex_value_t} (ngx_stream_script.c). A variable without a value adds nothing.
 */
final class StreamValue {

    private final String[] literals;
    private final StreamVariable[] vars;
    private final String constant;

    private StreamValue(String[] literals, StreamVariable[] vars) {
        this.literals = literals;
        this.vars = vars;
        this.constant = vars.length == 0 ? literals[0] : null;
    }

    /**
     * Compiles a value: {@code $name} and {@code ${name}}, names of letters, digits and {@code _}.
     *
     * @throws ConfException {@code invalid variable name in "x"}
     */
    static StreamValue compile(StreamConfig cf, String text) throws ConfException {
        List<String> lits = new ArrayList<>();
        List<StreamVariable> vs = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            char ch = text.charAt(i);
            if (ch != '$') {
                lit.append(ch);
                i++;
                continue;
            }
            i++;
            boolean brace = i < text.length() && text.charAt(i) == '{';
            if (brace) {
                i++;
            }
            int start = i;
            while (i < text.length() && isNameChar(text.charAt(i))) {
                i++;
            }
            if (i == start) {
                throw new ConfException("invalid variable name in \"" + text + "\"");
            }
            String name = text.substring(start, i);
            if (brace) {
                if (i >= text.length() || text.charAt(i) != '}') {
                    throw new ConfException("the closing bracket in \"" + name + "\" variable is missing");
                }
                i++;
            }
            lits.add(lit.toString());
            lit.setLength(0);
            vs.add(cf.variable(name));
        }
        lits.add(lit.toString());
        return new StreamValue(lits.toArray(new String[0]), vs.toArray(new StreamVariable[0]));
    }

    private static boolean isNameChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }

    boolean isConstant() {
        return constant != null;
    }

    String evaluate(StreamSession s) {
        if (constant != null) {
            return constant;
        }
        StringBuilder sb = new StringBuilder(64);
        appendTo(s, sb, null);
        return sb.toString();
    }

    /** Appends the value; a variable without one appends {@code none} (nginx's log module writes {@code -}). */
    void appendTo(StreamSession s, StringBuilder sb, String none) {
        for (int i = 0; i < vars.length; i++) {
            sb.append(literals[i]);
            String v = vars[i].get(s);
            if (v != null) {
                sb.append(v);
            } else if (none != null) {
                sb.append(none);
            }
        }
        sb.append(literals[vars.length]);
    }
}
