package jinx.kernel.internal.conf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import jinx.kernel.ConfException;

/**
 * Splits a configuration file into directives, block starts and block ends, exactly as nginx's
 * {@code ngx_conf_read_token()} in {@code src/core/ngx_conf_file.c} does (as of nginx 1.22 to 1.27). Each
 * {@link #next()} is one call of it: {@link Kind#DIRECTIVE} is its {@code NGX_OK}, {@link Kind#BLOCK_START}
 * {@code NGX_CONF_BLOCK_START}, {@link Kind#BLOCK_END} {@code NGX_CONF_BLOCK_DONE} and {@link Kind#EOF}
 * {@code NGX_CONF_FILE_DONE}. Below, LB and RB stand for the braces <code>&#123;</code> and <code>&#125;</code>.
 *
 * <h2>Grammar</h2>
 * <ul>
 * <li>Whitespace is space, tab, CR and LF only; a form feed or a NUL is an ordinary byte of a word.</li>
 * <li>A word ends at whitespace, {@code ;} or LB. RB ends nothing inside a word ({@code a} followed by RB is one
 *     word) and is a block end only where a word could start and no word came before it.</li>
 * <li>{@code #} starts a comment, up to the end of the line, only where a word could start: {@code a#b} is one
 *     word.</li>
 * <li>A word that starts with {@code "} or {@code '} runs to the same unescaped quote, across lines; the quotes are
 *     not part of it ({@code ""} is an empty word). After the closing quote comes whitespace, {@code ;}, LB or
 *     {@code )}; the {@code )}, for {@code if ($a = "b")}, starts the next word. A quote inside an unquoted word is
 *     an ordinary byte.</li>
 * <li>A backslash makes the next byte ordinary, whatever it is. After the word is read, {@code \"}, {@code \'}
 *     and {@code \\} become the escaped byte, {@code \t}, {@code \r} and {@code \n} become tab, CR and LF, and any
 *     other pair is kept as it is, in quoted and unquoted words alike.</li>
 * <li>An LB right after a {@code $} does not end a word, so {@code ${b}}, {@code a${b}c} and {@code "${b}"} are
 *     single words; nor does an LB right after such an LB.</li>
 * </ul>
 *
 * <h2>Lines</h2>
 * The line counts from 1 and goes up at every LF, wherever the LF is (a comment, a quoted word, after a
 * backslash). {@link #line()} is the line of the {@code ;}, LB or RB that ended the last item, the last line of the
 * file at {@link Kind#EOF}, or the line where an error was found; for the two "too long parameter" errors it is
 * the line where the parameter started, as nginx resets it.
 *
 * <h2>Length limit</h2>
 * nginx reads the file through a 4096-byte buffer ({@code NGX_CONF_BUFFER}) that must keep everything from the
 * start of the current word (after its opening quote) or comment; between words that start moves with every byte.
 * When the buffer is full of that and the file has more, nginx stops with "too long parameter". So every byte read
 * must lie less than 4096 bytes past that start. The byte that ends a word and, after a closing quote, the byte
 * that follows it are read before the start moves, so an unquoted word may have 4095 bytes when {@code ;} or LB
 * ends it and 4094 when whitespace does and more follows; a quoted word 4094 and 4093; a comment line 4095 with
 * its {@code #}. This class reads the whole file at once but applies the same rule, which does not depend on where
 * the buffer boundaries fall in the file.
 *
 * <h2>Errors</h2>
 * The tokenizer throws these, with nginx's texts ({@code %c} is the offending byte, written as is):
 * <ul>
 * <li>{@code unexpected "%c"}: a byte other than whitespace, {@code ;}, LB or {@code )} right after a closing quote
 *     ({@code "a"b}); or a {@code ;} or LB with no word before it (an empty directive).</li>
 * <li><code>unexpected "&#125;"</code>: an RB where a word could start, after words of an unfinished
 *     directive.</li>
 * <li><code>unexpected end of file, expecting ";" or "&#125;"</code>: the file ends in a word, in a quoted string,
 *     after a backslash, after a closing quote, or after words not yet terminated.</li>
 * <li>{@code too long parameter "%*s..." started}: the length limit, outside quotes; {@code %*s} is the first ten
 *     raw bytes of the word or comment.</li>
 * <li>{@code too long parameter, probably missing terminating "%c" character}: the length limit inside a quoted
 *     word, {@code %c} being its quote.</li>
 * </ul>
 * nginx's {@code unexpected end of parameter, expecting ";"} is for the {@code -g} option, whose text is no file;
 * a caller tokenizing {@code -g} should replace the end-of-file text with it. nginx has no "unbalanced" error.
 *
 * <p>The caller (the parser, porting the loop of {@code ngx_conf_parse()}) tracks nesting and reports, at
 * {@link #line()}:
 * <ul>
 * <li><code>unexpected "&#125;"</code> for a {@link Kind#BLOCK_END} outside any block (also at the top of an
 *     included file, which nginx parses as a file, not as a block);</li>
 * <li><code>unexpected end of file, expecting "&#125;"</code> for {@link Kind#EOF} inside a block;</li>
 * <li><code>unexpected "&#123;"</code> for a {@link Kind#BLOCK_START} while a custom handler reads a block's
 *     contents, as in {@code types { ... }};</li>
 * <li>{@code block directives are not supported in -g option} for a {@link Kind#BLOCK_START} in {@code -g}.</li>
 * </ul>
 * The directive dispatcher ({@code ngx_conf_handler()}) adds {@code unknown directive "%s"},
 * {@code "%s" directive is not allowed here}, {@code directive "%s" is not terminated by ";"},
 * <code>directive "%s" has no opening "&#123;"</code>, {@code invalid number of arguments in "%s" directive} and
 * {@code "%s" directive %s}.
 *
 * <p>Once {@link #next()} has thrown, it throws the same error again. Not thread-safe.
 */
public final class ConfTokenizer {

    /** What {@link #next()} read. */
    public enum Kind {
        /** Words ended by {@code ;}. */
        DIRECTIVE,
        /** Words ended by <code>&#123;</code>. */
        BLOCK_START,
        /** A <code>&#125;</code>. */
        BLOCK_END,
        /** The end of the file, outside any directive. */
        EOF
    }

    /**
     * Where the scanner is; nginx keeps the same as flags ({@code last_space}, {@code sharp_comment},
     * {@code d_quoted}, {@code s_quoted}, {@code need_space}), of which at most one of these holds at a time.
     */
    private enum State {
        /** Between words ({@code last_space}). */
        SPACE,
        /** In a {@code #} comment ({@code sharp_comment}). */
        COMMENT,
        /** In an unquoted word. */
        WORD,
        /** In a {@code "} word ({@code d_quoted}). */
        D_QUOTED,
        /** In a {@code '} word ({@code s_quoted}). */
        S_QUOTED,
        /** Right after a closing quote ({@code need_space}). */
        NEED_SPACE
    }

    /** nginx's {@code NGX_CONF_BUFFER}. */
    private static final int BUFFER = 4096;

    /** How many bytes of a too long parameter nginx shows ({@code "%*s", 10}). */
    private static final int SHOWN = 10;

    private final byte[] in;
    private final List<String> words = new ArrayList<>();
    private final List<String> wordsView = Collections.unmodifiableList(words);
    private byte[] scratch = new byte[64];
    private int pos;
    private int line = 1;
    private String failure;

    // The locals of ngx_conf_read_token(), reset by every next().
    private State state;
    private boolean quoted;
    private boolean variable;
    private int start;
    private int startLine;

    /**
     * Creates a tokenizer over a whole file.
     *
     * @param content the file's bytes; text is decoded as ISO-8859-1, one char per byte. Not copied, so it must not
     *     change while the tokenizer is used.
     */
    public ConfTokenizer(byte[] content) {
        this.in = content;
    }

    /**
     * Reads the next item. For {@link Kind#DIRECTIVE} and {@link Kind#BLOCK_START}, {@link #words()} holds the
     * words (name first, never empty: an empty directive like a lone {@code ;} or <code>&#123;</code> is nginx's
     * error). For {@link Kind#BLOCK_END} and {@link Kind#EOF} it is empty. After {@link Kind#EOF}, every call
     * returns {@link Kind#EOF} again.
     *
     * @return what was read
     * @throws ConfException with nginx's text and no location (the caller adds " in file:line" using
     *     {@link #line()}); see the class comment for the texts
     */
    public Kind next() throws ConfException {
        if (failure != null) {
            throw new ConfException(failure);
        }
        words.clear();
        state = State.SPACE;
        quoted = false;
        variable = false;
        start = pos;
        startLine = line;
        return scan();
    }

    /**
     * Returns the words of the last item.
     *
     * @return an unmodifiable view, cleared by the next {@link #next()}; a caller that keeps the words copies them
     */
    public List<String> words() {
        return wordsView;
    }

    /**
     * Returns the current line, from 1.
     *
     * @return where the last item ended, or where the last error was found
     */
    public int line() {
        return line;
    }

    /** The loop of {@code ngx_conf_read_token()}, one byte at a time. */
    private Kind scan() throws ConfException {
        for (;;) {
            if (pos >= in.length) {
                return endOfFile();
            }
            if (pos - start >= BUFFER) {
                // nginx's buffer holds [start, pos) and is full; it has no room to read the next byte.
                throw tooLong();
            }
            int ch = in[pos++] & 0xff;
            if (ch == '\n') {
                line++;
                if (state == State.COMMENT) {
                    state = State.SPACE;
                }
            }
            if (state == State.COMMENT) {
                continue;
            }
            if (quoted) {
                quoted = false;
                continue;
            }
            Kind kind;
            switch (state) {
                case SPACE:
                    kind = space(ch);
                    break;
                case NEED_SPACE:
                    kind = needSpace(ch);
                    break;
                default:
                    kind = inWord(ch);
                    break;
            }
            if (kind != null) {
                return kind;
            }
        }
    }

    /** A byte right after a closing quote; returns null to read on. */
    private Kind needSpace(int ch) throws ConfException {
        if (isSpace(ch)) {
            state = State.SPACE;
            return null;
        }
        if (ch == ';') {
            return Kind.DIRECTIVE;
        }
        if (ch == '{') {
            return Kind.BLOCK_START;
        }
        if (ch == ')') {
            // For if ($a = "b"): nginx clears need_space and lets the ")" start the next word.
            state = State.SPACE;
            return space(ch);
        }
        throw fail("unexpected \"" + (char) ch + "\"");
    }

    /** A byte where a word could start; returns null to read on. */
    private Kind space(int ch) throws ConfException {
        // nginx moves start on whitespace too, so whitespace between words never counts towards the length limit.
        start = pos - 1;
        startLine = line;
        if (isSpace(ch)) {
            return null;
        }
        switch (ch) {
            case ';':
            case '{':
                if (words.isEmpty()) {
                    throw fail("unexpected \"" + (char) ch + "\"");
                }
                return ch == '{' ? Kind.BLOCK_START : Kind.DIRECTIVE;
            case '}':
                if (!words.isEmpty()) {
                    throw fail("unexpected \"}\"");
                }
                return Kind.BLOCK_END;
            case '#':
                state = State.COMMENT;
                return null;
            case '\\':
                quoted = true;
                state = State.WORD;
                return null;
            case '"':
                start++;
                state = State.D_QUOTED;
                return null;
            case '\'':
                start++;
                state = State.S_QUOTED;
                return null;
            case '$':
                variable = true;
                state = State.WORD;
                return null;
            default:
                state = State.WORD;
                return null;
        }
    }

    /** A byte after the first of a word; returns null to read on. */
    private Kind inWord(int ch) {
        if (ch == '{' && variable) {
            // "${name}": the brace belongs to the word. variable stays set, as in nginx.
            return null;
        }
        variable = false;
        if (ch == '\\') {
            quoted = true;
            return null;
        }
        if (ch == '$') {
            variable = true;
            return null;
        }
        if (state == State.D_QUOTED || state == State.S_QUOTED) {
            if (ch != (state == State.D_QUOTED ? '"' : '\'')) {
                return null;
            }
            addWord();
            state = State.NEED_SPACE;
            return null;
        }
        if (!isSpace(ch) && ch != ';' && ch != '{') {
            return null;
        }
        addWord();
        state = State.SPACE;
        if (ch == ';') {
            return Kind.DIRECTIVE;
        }
        return ch == '{' ? Kind.BLOCK_START : null;
    }

    /** Adds the word in [start, pos - 1), unescaped as nginx does once the word is found. */
    private void addWord() {
        int end = pos - 1;
        if (scratch.length < end - start) {
            scratch = new byte[Math.max(end - start, scratch.length * 2)];
        }
        byte[] dst = scratch;
        int n = 0;
        int src = start;
        while (src < end) {
            // The scanner made the byte after every backslash ordinary, so a backslash is never last.
            if (in[src] == '\\' && src + 1 < end) {
                switch (in[src + 1]) {
                    case '"':
                    case '\'':
                    case '\\':
                        src++;
                        break;
                    case 't':
                        dst[n++] = '\t';
                        src += 2;
                        continue;
                    case 'r':
                        dst[n++] = '\r';
                        src += 2;
                        continue;
                    case 'n':
                        dst[n++] = '\n';
                        src += 2;
                        continue;
                    default:
                        break;
                }
            }
            dst[n++] = in[src++];
        }
        words.add(new String(dst, 0, n, StandardCharsets.ISO_8859_1));
    }

    private Kind endOfFile() throws ConfException {
        // nginx: "cf->args->nelts > 0 || !last_space"; last_space holds between words and in a comment.
        if (!words.isEmpty() || (state != State.SPACE && state != State.COMMENT)) {
            throw fail("unexpected end of file, expecting \";\" or \"}\"");
        }
        return Kind.EOF;
    }

    private ConfException tooLong() {
        line = startLine;
        if (state == State.D_QUOTED) {
            return fail("too long parameter, probably missing terminating \"\"\" character");
        }
        if (state == State.S_QUOTED) {
            return fail("too long parameter, probably missing terminating \"'\" character");
        }
        // "%*s" with 10: the raw bytes, whatever they are; the span is 4096 bytes long, so there are ten.
        String shown = new String(in, start, SHOWN, StandardCharsets.ISO_8859_1);
        return fail("too long parameter \"" + shown + "...\" started");
    }

    private ConfException fail(String text) {
        failure = text;
        return new ConfException(text);
    }

    private static boolean isSpace(int ch) {
        return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
    }
}
