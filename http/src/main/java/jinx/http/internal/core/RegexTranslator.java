package jinx.http.internal.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Rewrites a PCRE regex, as nginx configurations write them, into {@link java.util.regex.Pattern}'s syntax, and
 * refuses what Java cannot run. Every capturing group, named or not, becomes a plain {@code (} for Java and keeps
 * its PCRE number; names are kept aside ({@link Result#names}), so PCRE names Java would refuse
 * ({@code file_name}) work, and backreferences by name become numbered ones.
 *
 * <p>Translated: {@code (?<n>} {@code (?P<n>} {@code (?'n'} (named groups), {@code (?P=n)} {@code \k<n>}
 * {@code \k'n'} {@code \k{n}} {@code \g{n}} {@code \gN} {@code \g{-N}} (backreferences), {@code (?#...)}
 * (comments), {@code \N} (not a newline), {@code \o{...}}, {@code \0} alone, a stray {@code \E}, a literal
 * {@code {} that does not start a quantifier; inside a class: {@code [:alpha:]} and the other POSIX classes, a
 * literal {@code [}, {@code &}, and {@code \b} (backspace). Refused: recursion and subroutine calls, conditionals,
 * branch reset, backtracking control verbs and option settings {@code (*...)}, callouts, {@code \K}, the PCRE
 * flags Java lacks or spells differently ({@code U}, {@code X}, {@code J}, {@code n}, {@code ^}), and a name used
 * before its group.
 */
final class RegexTranslator {

    /** A PCRE POSIX class name and what Java writes for it; {@code word} has no {@code \p} form. */
    private static final Map<String, String> POSIX = Map.ofEntries(
        Map.entry("alnum", "Alnum"), Map.entry("alpha", "Alpha"), Map.entry("ascii", "ASCII"),
        Map.entry("blank", "Blank"), Map.entry("cntrl", "Cntrl"), Map.entry("digit", "Digit"),
        Map.entry("graph", "Graph"), Map.entry("lower", "Lower"), Map.entry("print", "Print"),
        Map.entry("punct", "Punct"), Map.entry("space", "Space"), Map.entry("upper", "Upper"),
        Map.entry("xdigit", "XDigit"));

    /**
     * A translated regex.
     *
     * @param java the regex in Java's syntax
     * @param names the name of each capturing group by its number minus one, null for a group without a name
     */
    record Result(String java, List<String> names) {
    }

    /** A construct Java cannot run; the message says which. */
    static final class Unsupported extends Exception {
        private static final long serialVersionUID = 1L;

        Unsupported(String message) {
            super(message);
        }
    }

    private final String re;
    private final StringBuilder out;
    private final List<String> names = new ArrayList<>();
    private int i;
    private boolean extended;

    private RegexTranslator(String re) {
        this.re = re;
        this.out = new StringBuilder(re.length() + 16);
    }

    /**
     * Translates a regex.
     *
     * @param re the PCRE regex
     * @return the Java regex and the group names
     * @throws Unsupported for a construct Java cannot run
     */
    static Result translate(String re) throws Unsupported {
        RegexTranslator t = new RegexTranslator(re);
        t.run();
        return new Result(t.out.toString(), t.namesCopy());
    }

    private List<String> namesCopy() {
        // List.copyOf refuses nulls: keep the nulls of unnamed groups in an unmodifiable view of a copy
        return Collections.unmodifiableList(new ArrayList<>(names));
    }

    private void run() throws Unsupported {
        int len = re.length();
        while (i < len) {
            char c = re.charAt(i);
            switch (c) {
                case '\\':
                    escape(false);
                    break;
                case '[':
                    charClass();
                    break;
                case '(':
                    group();
                    break;
                case '{':
                    brace();
                    break;
                case '#':
                    if (extended) {
                        comment();
                    } else {
                        out.append(c);
                        i++;
                    }
                    break;
                default:
                    out.append(c);
                    i++;
            }
        }
    }

    /** In extended mode, {@code #} to the end of the line is a comment. */
    private void comment() {
        while (i < re.length() && re.charAt(i) != '\n') {
            i++;
        }
    }

    /** A {@code {} that does not start {@code {n}}, {@code {n,}} or {@code {n,m}} is a literal for PCRE. */
    private void brace() {
        int j = i + 1;
        int digits = 0;
        while (j < re.length() && Character.isDigit(re.charAt(j))) {
            j++;
            digits++;
        }
        if (digits > 0 && j < re.length() && re.charAt(j) == ',') {
            j++;
            while (j < re.length() && Character.isDigit(re.charAt(j))) {
                j++;
            }
        }
        if (digits > 0 && j < re.length() && re.charAt(j) == '}') {
            out.append(re, i, j + 1);
            i = j + 1;
            return;
        }
        out.append("\\{");
        i++;
    }

    private void group() throws Unsupported {
        int len = re.length();
        if (i + 1 < len && re.charAt(i + 1) == '*') {
            throw new Unsupported("\"(*" + verb(i + 2) + "\" (a PCRE verb or option setting)");
        }
        if (i + 1 >= len || re.charAt(i + 1) != '?') {
            names.add(null);
            out.append('(');
            i++;
            return;
        }
        // "(?"
        if (i + 2 >= len) {
            out.append("(?");
            i += 2;
            return;
        }
        char c = re.charAt(i + 2);
        switch (c) {
            case '#':
                int close = re.indexOf(')', i);
                i = close < 0 ? len : close + 1;
                return;
            case ':':
            case '=':
            case '!':
            case '>':
                out.append(re, i, i + 3);
                i += 3;
                return;
            case '<':
                if (i + 3 < len && (re.charAt(i + 3) == '=' || re.charAt(i + 3) == '!')) {
                    out.append(re, i, i + 4);
                    i += 4;
                    return;
                }
                namedGroup(i + 3, '>');
                return;
            case '\'':
                namedGroup(i + 3, '\'');
                return;
            case 'P':
                pythonGroup();
                return;
            case '|':
                throw new Unsupported("\"(?|\" (branch reset)");
            case '(':
                throw new Unsupported("\"(?(\" (a conditional group)");
            case 'R':
            case '&':
            case '+':
                throw new Unsupported("\"(?" + c + "\" (recursion or a subroutine call)");
            case 'C':
                throw new Unsupported("\"(?C\" (a callout)");
            default:
                if (c >= '0' && c <= '9' || c == '-' && i + 3 < len && Character.isDigit(re.charAt(i + 3))) {
                    throw new Unsupported("\"(?" + c + "\" (recursion or a subroutine call)");
                }
                flags();
        }
    }

    private String verb(int from) {
        int close = re.indexOf(')', from);
        return close < 0 ? re.substring(from) : re.substring(from, close + 1);
    }

    /** {@code (?P<name>}, {@code (?P=name)}, {@code (?P>name)}. */
    private void pythonGroup() throws Unsupported {
        int at = i + 3;
        char kind = at < re.length() ? re.charAt(at) : 0;
        if (kind == '<') {
            namedGroup(at + 1, '>');
            return;
        }
        if (kind == '=') {
            int close = re.indexOf(')', at);
            if (close < 0) {
                out.append(re, i, re.length());
                i = re.length();
                return;
            }
            backref(re.substring(at + 1, close));
            i = close + 1;
            return;
        }
        if (kind == '>') {
            throw new Unsupported("\"(?P>\" (a subroutine call)");
        }
        // "(?P" alone: let Java report it
        out.append("(?P");
        i += 3;
    }

    private void namedGroup(int from, char end) {
        int close = re.indexOf(end, from);
        if (close < 0) {
            // unterminated: let Java report it on the original text
            out.append(re, i, re.length());
            i = re.length();
            return;
        }
        names.add(re.substring(from, close));
        out.append('(');
        i = close + 1;
    }

    /** {@code (?imsx-imsx)} or {@code (?imsx-imsx:}: Java has the same four; the rest are refused. */
    private void flags() throws Unsupported {
        int j = i + 2;
        boolean negate = false;
        while (j < re.length()) {
            char f = re.charAt(j);
            if (f == ')' || f == ':') {
                break;
            }
            switch (f) {
                case '-':
                    negate = true;
                    break;
                case 'x':
                    if (!negate) {
                        extended = true;
                    }
                    break;
                case 'i':
                case 'm':
                case 's':
                    break;
                default:
                    throw new Unsupported("the option \"" + f + "\" in \"" + re.substring(i, j + 1) + "\"");
            }
            j++;
        }
        int end = Math.min(j + 1, re.length());
        out.append(re, i, end);
        i = end;
    }

    /** Emits a backreference to a named group defined earlier. */
    private void backref(String name) throws Unsupported {
        int g = names.indexOf(name);
        if (g < 0) {
            throw new Unsupported("the reference to \"" + name + "\" before its group");
        }
        // (?:\N) so that a digit after the reference is not read as part of its number
        out.append("(?:\\").append(g + 1).append(')');
    }

    private void escape(boolean inClass) throws Unsupported {
        int len = re.length();
        if (i + 1 >= len) {
            out.append('\\');
            i++;
            return;
        }
        char c = re.charAt(i + 1);
        switch (c) {
            case 'Q':
                quoted();
                return;
            case 'E':
                // a \E without \Q: PCRE ignores it
                i += 2;
                return;
            case 'K':
                throw new Unsupported("\"\\K\" (reset of the match start)");
            case 'N':
                if (!inClass && (i + 2 >= len || re.charAt(i + 2) != '{')) {
                    out.append("[^\\n]");
                    i += 2;
                    return;
                }
                break;
            case 'b':
                if (inClass) {
                    out.append("\\x08");
                    i += 2;
                    return;
                }
                break;
            case '0':
                if (i + 2 >= len || re.charAt(i + 2) < '0' || re.charAt(i + 2) > '7') {
                    out.append("\\x00");
                    i += 2;
                    return;
                }
                break;
            case 'o':
                octal();
                return;
            case 'g':
                if (!inClass) {
                    gReference();
                    return;
                }
                break;
            case 'k':
                if (!inClass) {
                    kReference();
                    return;
                }
                break;
            default:
                break;
        }
        out.append('\\').append(c);
        i += 2;
    }

    /** {@code \Q...\E} is the same in Java; copied as is. */
    private void quoted() {
        int end = re.indexOf("\\E", i + 2);
        int stop = end < 0 ? re.length() : end + 2;
        out.append(re, i, stop);
        i = stop;
    }

    /** {@code \o{17}}: PCRE's octal with braces, which Java lacks. */
    private void octal() {
        int close = re.indexOf('}', i);
        if (i + 2 < re.length() && re.charAt(i + 2) == '{' && close > 0) {
            try {
                int v = Integer.parseInt(re.substring(i + 3, close), 8);
                out.append("\\x{").append(Integer.toHexString(v)).append('}');
                i = close + 1;
                return;
            } catch (NumberFormatException e) {
                // fall through: Java reports the escape
            }
        }
        out.append("\\o");
        i += 2;
    }

    /** {@code \gN}, {@code \g{N}}, {@code \g{-N}}, {@code \g{name}}; {@code \g<..>} and {@code \g'..'} are calls. */
    private void gReference() throws Unsupported {
        int at = i + 2;
        int len = re.length();
        if (at >= len) {
            out.append("\\g");
            i = at;
            return;
        }
        char c = re.charAt(at);
        if (c == '<' || c == '\'') {
            throw new Unsupported("\"\\g" + c + "\" (a subroutine call)");
        }
        String ref;
        if (c == '{') {
            int close = re.indexOf('}', at);
            if (close < 0) {
                out.append("\\g");
                i = at;
                return;
            }
            ref = re.substring(at + 1, close);
            i = close + 1;
        } else {
            int j = at;
            if (j < len && (re.charAt(j) == '-' || re.charAt(j) == '+')) {
                j++;
            }
            while (j < len && Character.isDigit(re.charAt(j))) {
                j++;
            }
            ref = re.substring(at, j);
            i = j;
        }
        numberedOrNamed(ref);
    }

    private void numberedOrNamed(String ref) throws Unsupported {
        if (ref.matches("-?\\d+")) {
            int n = Integer.parseInt(ref);
            if (n < 0) {
                // relative: -1 is the group opened last
                n = names.size() + 1 + n;
            }
            if (n <= 0) {
                throw new Unsupported("the reference \"" + ref + "\" to no group");
            }
            out.append("(?:\\").append(n).append(')');
            return;
        }
        backref(ref);
    }

    /** {@code \k<name>}, {@code \k'name'}, {@code \k{name}}. */
    private void kReference() throws Unsupported {
        int at = i + 2;
        if (at >= re.length()) {
            out.append("\\k");
            i = at;
            return;
        }
        char open = re.charAt(at);
        char close = open == '<' ? '>' : open == '\'' ? '\'' : open == '{' ? '}' : 0;
        int end = close == 0 ? -1 : re.indexOf(close, at + 1);
        if (end < 0) {
            out.append("\\k");
            i = at;
            return;
        }
        backref(re.substring(at + 1, end));
        i = end + 1;
    }

    /**
     * A character class. PCRE takes {@code [} and {@code &&} literally inside one, Java nests and intersects: both
     * are escaped. POSIX classes become {@code \p{...}}.
     */
    private void charClass() throws Unsupported {
        int len = re.length();
        out.append('[');
        i++;
        if (i < len && re.charAt(i) == '^') {
            out.append('^');
            i++;
        }
        if (i < len && re.charAt(i) == ']') {
            out.append("\\]");
            i++;
        }
        while (i < len) {
            char c = re.charAt(i);
            if (c == ']') {
                out.append(']');
                i++;
                return;
            }
            if (c == '\\') {
                escape(true);
                continue;
            }
            if (c == '[') {
                if (posix()) {
                    continue;
                }
                out.append("\\[");
                i++;
                continue;
            }
            if (c == '&') {
                out.append("\\&");
                i++;
                continue;
            }
            out.append(c);
            i++;
        }
    }

    /** {@code [:name:]} or {@code [:^name:]} at {@link #i}; returns false when it is not one. */
    private boolean posix() throws Unsupported {
        if (i + 1 >= re.length() || re.charAt(i + 1) != ':') {
            return false;
        }
        int end = re.indexOf(":]", i + 2);
        if (end < 0) {
            return false;
        }
        String name = re.substring(i + 2, end);
        boolean negated = name.startsWith("^");
        if (negated) {
            name = name.substring(1);
        }
        if (name.equals("word")) {
            out.append(negated ? "\\W" : "\\w");
        } else {
            String java = POSIX.get(name);
            if (java == null) {
                throw new Unsupported("the unknown POSIX class \"[:" + name + ":]\"");
            }
            out.append(negated ? "\\P{" : "\\p{").append(java).append('}');
        }
        i = end + 2;
        return true;
    }
}
