package jinx.http.internal.variables;

import java.util.ArrayList;
import java.util.List;

import jinx.http.HttpRequest;
import jinx.http.spi.ComplexValue;
import jinx.kernel.ConfException;

/**
 * A string with variables, compiled once into literal parts, variable indexes and regex captures: nginx's
 * {@code ngx_http_complex_value_t} as {@code ngx_http_script_compile()} builds it. {@code $name} and
 * {@code ${name}} name a variable (letters, digits, {@code _}); {@code $1} ... {@code $9} the captures of the last
 * regex matched for the request ({@link RequestFacts#capture(int)}).
 */
public final class CompiledValue implements ComplexValue {

    private static final int LITERAL = 0;
    private static final int VARIABLE = 1;
    private static final int CAPTURE = 2;

    private record Part(int kind, String literal, int index) {
    }

    private final String source;
    private final Part[] parts;
    private final int[] variables;
    private final boolean captures;

    private CompiledValue(String source, List<Part> parts) {
        this.source = source;
        this.parts = parts.toArray(new Part[0]);
        this.variables = parts.stream().filter(p -> p.kind == VARIABLE).mapToInt(Part::index).toArray();
        this.captures = parts.stream().anyMatch(p -> p.kind == CAPTURE);
    }

    /**
     * Compiles {@code value}, asking {@code vars} for the index of every variable it names.
     *
     * @param vars the registry
     * @param value the string as written
     * @param file the configuration file it stands in, or null
     * @param line its line, or 0
     * @return the compiled value
     * @throws ConfException nginx's {@code invalid variable name} ({@code $} at the end, {@code ${} at the end, an
     *     empty name) or {@code the closing bracket in "x" variable is missing}
     */
    static CompiledValue compile(Variables vars, String value, String file, int line) throws ConfException {
        List<Part> parts = new ArrayList<>();
        int len = value.length();
        int i = 0;
        while (i < len) {
            if (value.charAt(i) != '$') {
                int start = i;
                while (i < len && value.charAt(i) != '$') {
                    i++;
                }
                parts.add(new Part(LITERAL, value.substring(start, i), -1));
                continue;
            }
            if (++i == len) {
                throw new ConfException("invalid variable name");
            }
            char c = value.charAt(i);
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
            while (i < len && isNameChar(value.charAt(i))) {
                i++;
            }
            String name = value.substring(start, i);
            if (bracket) {
                if (i == len || value.charAt(i) != '}') {
                    throw new ConfException("the closing bracket in \"" + name + "\" variable is missing");
                }
                i++;
            }
            if (name.isEmpty()) {
                throw new ConfException("invalid variable name");
            }
            parts.add(new Part(VARIABLE, null, vars.index(name, file, line)));
        }
        return new CompiledValue(value, parts);
    }

    /**
     * Tells whether a character may stand in a variable's name, as {@code ngx_http_script_compile()} decides.
     *
     * @param c the character
     * @return true for a letter, a digit or {@code _}
     */
    static boolean isNameChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }

    @Override
    public String evaluate(HttpRequest r) {
        if (variables.length == 0 && !captures) {
            return source;
        }
        StringBuilder b = new StringBuilder(source.length() + 32);
        for (Part p : parts) {
            switch (p.kind) {
                case LITERAL -> b.append(p.literal);
                case VARIABLE -> {
                    String v = r.variable(p.index);
                    if (v != null) {
                        b.append(v);
                    }
                }
                default -> {
                    String v = r instanceof RequestFacts f ? f.capture(p.index) : null;
                    if (v != null) {
                        b.append(v);
                    }
                }
            }
        }
        return b.toString();
    }

    @Override
    public boolean isStatic() {
        return parts.length <= 1 && (parts.length == 0 || parts[0].kind == LITERAL);
    }

    @Override
    public String source() {
        return source;
    }

    /**
     * Returns the indexes of the variables the value names, in order (nginx's {@code flushes}).
     *
     * @return the indexes
     */
    public int[] variableIndexes() {
        return variables.clone();
    }

    /**
     * Tells whether the value uses regex captures ({@code $1} ... {@code $9}).
     *
     * @return true when it does
     */
    public boolean usesCaptures() {
        return captures;
    }

    @Override
    public String toString() {
        return source;
    }
}
