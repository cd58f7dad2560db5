package jinx.http.internal.core;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import jinx.kernel.ConfException;
import jinx.kernel.LoopLocal;
import jinx.kernel.Rc;

/**
 * A regex of the configuration ({@code location ~}, {@code server_name ~}, and for other modules {@code if},
 * {@code map}, {@code rewrite} ...): nginx's {@code ngx_regex_t} with {@code ngx_regex_exec()}. The PCRE source is
 * translated for {@link java.util.regex} by {@link RegexTranslator}; what Java cannot run is refused when the
 * configuration is read.
 *
 * <h2>Bounded matching</h2>
 * {@link #exec} reads the subject through a counting {@link CharSequence}: a match that reads more than
 * {@link #STEP_BUDGET} characters, or overflows the stack inside {@code java.util.regex}, is abandoned and
 * returns {@link Rc#ERROR}, as PCRE's match limit makes {@code ngx_regex_exec()} fail. The caller finishes the
 * request with 500 and logs {@link #failure(CharSequence)}. One million reads is far more than a sane regex needs
 * on the longest URI nginx accepts, and a few milliseconds of CPU at worst.
 *
 * <p>Matching runs on loop threads; each thread has its own {@link Matcher}, so {@link #exec} allocates nothing
 * after the first match on a thread.
 */
public final class HttpRegex {

    /** The most characters one match may read before it is abandoned. */
    public static final int STEP_BUDGET = 1_000_000;

    private static final LoopLocal<BudgetSequence> SEQUENCES = new LoopLocal<>(BudgetSequence::new);

    private final String source;
    private final boolean caseless;
    private final Pattern pattern;
    private final List<String> names;
    private final int captures;
    private final LoopLocal<Matcher> matchers;
    private final int budget;
    /** The variable index of each named group, by group number minus one; -1 for unnamed groups. */
    int[] variables;

    private HttpRegex(String source, boolean caseless, Pattern pattern, List<String> names, int budget) {
        this.source = source;
        this.caseless = caseless;
        this.pattern = pattern;
        this.names = names;
        this.captures = names.size();
        this.budget = budget;
        this.matchers = new LoopLocal<>(() -> pattern.matcher(""));
        this.variables = new int[names.size()];
        Arrays.fill(variables, -1);
    }

    /**
     * Compiles a PCRE regex.
     *
     * @param source the regex as written
     * @param caseless true for a case-insensitive regex ({@code ~*}, nginx's {@code NGX_REGEX_CASELESS})
     * @return the regex
     * @throws ConfException for a construct Java cannot run, or a regex Java refuses, with nginx-like words
     */
    public static HttpRegex compile(String source, boolean caseless) throws ConfException {
        return compile(source, caseless, STEP_BUDGET);
    }

    static HttpRegex compile(String source, boolean caseless, int budget) throws ConfException {
        RegexTranslator.Result t;
        try {
            t = RegexTranslator.translate(source);
        } catch (RegexTranslator.Unsupported e) {
            throw new ConfException("the regex \"" + source + "\" uses " + e.getMessage()
                                    + ", which java.util.regex cannot run");
        }
        Pattern p;
        try {
            p = Pattern.compile(t.java(), caseless ? Pattern.CASE_INSENSITIVE : 0);
        } catch (PatternSyntaxException e) {
            throw new ConfException("regex compile failed: " + e.getDescription() + " in \"" + source + "\"");
        }
        if (p.matcher("").groupCount() != t.names().size()) {
            // the translator and Java disagree on the groups: better refuse than return wrong captures
            throw new ConfException("regex compile failed: cannot count the groups in \"" + source + "\"");
        }
        return new HttpRegex(source, caseless, p, t.names(), budget);
    }

    /**
     * Matches the regex anywhere in {@code subject}, as {@code pcre_exec()} does, and on a match fills
     * {@code captures}.
     *
     * @param subject the text (a URI, a host name)
     * @param captures where to put the groups on a match, or null
     * @return {@link Rc#OK} on a match, {@link Rc#DECLINED} without, {@link Rc#ERROR} when the match was
     *     abandoned (see the class documentation)
     */
    public int exec(CharSequence subject, Captures captures) {
        BudgetSequence seq = SEQUENCES.get();
        Matcher m = matchers.get();
        seq.reset(subject, budget);
        try {
            m.reset(seq);
            if (!m.find()) {
                return Rc.DECLINED;
            }
            if (captures != null) {
                captures.set(this, subject, m);
            }
            return Rc.OK;
        } catch (BudgetSequence.Exhausted | StackOverflowError e) {
            return Rc.ERROR;
        } finally {
            seq.reset(null, 0);
            m.reset("");
        }
    }

    /**
     * Tells whether the regex matches anywhere in {@code subject}, treating an abandoned match as no match.
     *
     * @param subject the text
     * @return true on a match
     */
    public boolean matches(CharSequence subject) {
        return exec(subject, null) == Rc.OK;
    }

    /**
     * Returns the error log line for an abandoned match, in the words of nginx's
     * {@code ngx_regex_exec_n " failed: %i on \"%V\" using \"%V\""}.
     *
     * @param subject the text the match was abandoned on
     * @return the message
     */
    public String failure(CharSequence subject) {
        return "regex match failed: step limit exceeded on \"" + subject + "\" using \"" + source + "\"";
    }

    /**
     * Returns the regex as written.
     *
     * @return the source
     */
    public String source() {
        return source;
    }

    /**
     * Tells whether the regex is case-insensitive.
     *
     * @return true for {@code ~*}
     */
    public boolean caseless() {
        return caseless;
    }

    /**
     * Returns the number of capturing groups.
     *
     * @return the count, group 0 not included
     */
    public int captureCount() {
        return captures;
    }

    /**
     * Returns the names of the groups by their number minus one; null for a group without a name.
     *
     * @return the names
     */
    public List<String> names() {
        return names;
    }

    /**
     * Returns the number of the group called {@code name}.
     *
     * @param name the name
     * @return the group's number, or -1
     */
    public int groupOf(String name) {
        int g = names.indexOf(name);
        return g < 0 ? -1 : g + 1;
    }

    /**
     * Returns the variable index a named group sets, as {@code HttpConfig.variableIndex} gave it when the
     * configuration was read (nginx makes each named capture a variable).
     *
     * @param group the group's number
     * @return the variable index, or -1 for an unnamed group or a regex compiled outside an {@code http} block
     */
    public int variableOf(int group) {
        return group >= 1 && group <= variables.length ? variables[group - 1] : -1;
    }

    /**
     * Returns the Java pattern the regex runs as, for tests and introspection.
     *
     * @return the pattern
     */
    public Pattern pattern() {
        return pattern;
    }

    @Override
    public String toString() {
        return (caseless ? "~*" : "~") + source;
    }

    /**
     * The subject as the matcher reads it: each {@link #charAt} counts against the budget.
     */
    static final class BudgetSequence implements CharSequence {

        /** Thrown, without a stack trace, when the budget is spent. */
        static final class Exhausted extends RuntimeException {
            private static final long serialVersionUID = 1L;
            static final Exhausted INSTANCE = new Exhausted();

            private Exhausted() {
                super("regex step limit", null, false, false);
            }
        }

        private CharSequence text;
        private int left;

        void reset(CharSequence subject, int budget) {
            text = subject;
            left = budget;
        }

        @Override
        public int length() {
            return text == null ? 0 : text.length();
        }

        @Override
        public char charAt(int index) {
            if (--left < 0) {
                throw Exhausted.INSTANCE;
            }
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return text.subSequence(start, end);
        }

        @Override
        public String toString() {
            return text == null ? "" : text.toString();
        }
    }
}
