package jinx.kernel.internal.conf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.kernel.ConfException;
import jinx.kernel.internal.conf.ConfTokenizer.Kind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Tests {@link ConfTokenizer} against the behaviour of nginx's {@code ngx_conf_read_token()}.
 */
class ConfTokenizerTest {

    /** One item as {@link ConfTokenizer#next()} returns it. */
    private record Item(Kind kind, List<String> words, int line) {
    }

    // ---- helpers

    private static byte[] bytes(String conf) {
        return conf.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Reads every item up to and including EOF. */
    private static List<Item> items(String conf) throws ConfException {
        ConfTokenizer t = new ConfTokenizer(bytes(conf));
        List<Item> out = new ArrayList<>();
        for (;;) {
            Kind k = t.next();
            out.add(new Item(k, List.copyOf(t.words()), t.line()));
            if (k == Kind.EOF) {
                return out;
            }
        }
    }

    /** Reads until the error every caller of this expects, and returns "text@line". */
    private static String error(String conf) {
        ConfTokenizer t = new ConfTokenizer(bytes(conf));
        ConfException e = assertThrows(ConfException.class, () -> {
            while (t.next() != Kind.EOF) {
                // read on to the error
            }
        });
        return e.getMessage() + "@" + t.line();
    }

    private static Item dir(int line, String... words) {
        return new Item(Kind.DIRECTIVE, List.of(words), line);
    }

    private static Item block(int line, String... words) {
        return new Item(Kind.BLOCK_START, List.of(words), line);
    }

    private static Item end(int line) {
        return new Item(Kind.BLOCK_END, List.of(), line);
    }

    private static Item eof(int line) {
        return new Item(Kind.EOF, List.of(), line);
    }

    private static String repeat(char c, int n) {
        char[] a = new char[n];
        Arrays.fill(a, c);
        return new String(a);
    }

    // ---- directives and blocks

    @Test
    void simpleDirective() throws ConfException {
        assertEquals(List.of(dir(1, "worker_processes", "4"), eof(1)), items("worker_processes 4;"));
    }

    @Test
    void directiveWithoutArguments() throws ConfException {
        assertEquals(List.of(dir(1, "daemon"), eof(2)), items("daemon;\n"));
    }

    @Test
    void emptyFile() throws ConfException {
        assertEquals(List.of(eof(1)), items(""));
    }

    @Test
    void onlyWhitespaceCountsLines() throws ConfException {
        assertEquals(List.of(eof(4)), items(" \t\n\r\n\n"));
    }

    @Test
    void eofRepeats() throws ConfException {
        ConfTokenizer t = new ConfTokenizer(bytes("a;"));
        assertEquals(Kind.DIRECTIVE, t.next());
        assertEquals(Kind.EOF, t.next());
        assertEquals(Kind.EOF, t.next());
        assertEquals(List.of(), t.words());
    }

    @Test
    void block() throws ConfException {
        assertEquals(List.of(block(1, "events"), dir(2, "worker_connections", "1024"), end(3), eof(4)),
                     items("events {\n    worker_connections 1024;\n}\n"));
    }

    @Test
    void nestedBlocks() throws ConfException {
        String conf = "http {\n"
                      + "    server {\n"
                      + "        listen 80;\n"
                      + "        location / {\n"
                      + "            root html;\n"
                      + "        }\n"
                      + "    }\n"
                      + "}\n";
        assertEquals(List.of(block(1, "http"), block(2, "server"), dir(3, "listen", "80"), block(4, "location", "/"),
                             dir(5, "root", "html"), end(6), end(7), end(8), eof(9)),
                     items(conf));
    }

    @Test
    void terminatorsNeedNoSpace() throws ConfException {
        assertEquals(List.of(dir(1, "a", "b"), block(1, "c"), dir(1, "d"), end(1), end(1), eof(1)),
                     items("a b;c{d;}}"));
    }

    @Test
    void blockEndIsReportedEvenAtTopLevel() throws ConfException {
        // The tokenizer does not track depth: the caller turns this into 'unexpected "}"'.
        assertEquals(List.of(end(2), eof(2)), items("\n}"));
    }

    @Test
    void wordsOfADirectiveSpanLines() throws ConfException {
        assertEquals(List.of(dir(3, "a", "b"), eof(3)), items("a\nb\n;"));
    }

    @Test
    void lineIsWhereTheTerminatorIs() throws ConfException {
        assertEquals(List.of(block(3, "a"), end(5), eof(5)), items("a\n\n{\n\n}"));
    }

    @Test
    void wordsAreClearedForBlockEnd() throws ConfException {
        ConfTokenizer t = new ConfTokenizer(bytes("a b { }"));
        assertEquals(Kind.BLOCK_START, t.next());
        assertEquals(List.of("a", "b"), t.words());
        assertEquals(Kind.BLOCK_END, t.next());
        assertEquals(List.of(), t.words());
    }

    @Test
    void wordsViewIsReadOnly() throws ConfException {
        ConfTokenizer t = new ConfTokenizer(bytes("a;"));
        t.next();
        assertThrows(UnsupportedOperationException.class, () -> t.words().add("x"));
    }

    @Test
    void closingBraceInsideAWordIsPartOfIt() throws ConfException {
        assertEquals(List.of(dir(1, "a}", "b}c"), eof(1)), items("a} b}c;"));
    }

    // ---- comments

    @Test
    void comments() throws ConfException {
        assertEquals(List.of(dir(2, "a"), dir(3, "b"), eof(4)), items("# first\na; # after\nb;#x\n# last"));
    }

    @Test
    void sharpInsideAWordIsNoComment() throws ConfException {
        assertEquals(List.of(dir(1, "a#b", "c#"), eof(1)), items("a#b c#;"));
    }

    @Test
    void commentBetweenWords() throws ConfException {
        assertEquals(List.of(dir(2, "a", "b"), eof(2)), items("a # comment ; { }\n b;"));
    }

    @Test
    void commentHidesTerminators() throws ConfException {
        assertEquals(List.of(dir(2, "a"), eof(2)), items("a # ; { } \" '\n;"));
    }

    @Test
    void commentEndsAtLfNotCr() throws ConfException {
        assertEquals(List.of(dir(2, "b"), eof(2)), items("# a;\r b;\nb;"));
    }

    @Test
    void escapedSharpIsNoComment() throws ConfException {
        assertEquals(List.of(dir(1, "\\#a"), eof(1)), items("\\#a;"));
    }

    @Test
    void endOfFileInACommentAfterWords() {
        assertEquals("unexpected end of file, expecting \";\" or \"}\"@2", error("a # x\n"));
    }

    @Test
    void commentAtEndOfFileIsFine() throws ConfException {
        assertEquals(List.of(dir(1, "a"), eof(1)), items("a;# no newline"));
    }

    // ---- quotes

    @Test
    void doubleAndSingleQuotes() throws ConfException {
        assertEquals(List.of(dir(1, "a", "b c", "d e"), eof(1)), items("a \"b c\" 'd e';"));
    }

    @Test
    void quotesHideTerminatorsAndComments() throws ConfException {
        assertEquals(List.of(dir(1, "a", "; { } # x", "'", "\""), eof(1)), items("a \"; { } # x\" \"'\" '\"';"));
    }

    @Test
    void emptyQuotedWords() throws ConfException {
        assertEquals(List.of(dir(1, "a", "", ""), eof(1)), items("a \"\" '';"));
    }

    @Test
    void quotedName() throws ConfException {
        assertEquals(List.of(block(1, "a b", "c"), end(1), eof(1)), items("\"a b\" c{}"));
    }

    @Test
    void closingQuoteFollowedByTerminator() throws ConfException {
        assertEquals(List.of(dir(1, "a", "b"), block(1, "c", "d"), end(1), eof(1)), items("a \"b\";c 'd'{}"));
    }

    @Test
    void quotesInsideAnUnquotedWordAreOrdinary() throws ConfException {
        assertEquals(List.of(dir(1, "a", "b\"c'd", "e\""), eof(1)), items("a b\"c'd e\";"));
    }

    @Test
    void quotedStringAcrossLines() throws ConfException {
        assertEquals(List.of(dir(3, "a", "x\ny\nz", "b"), dir(4, "c"), eof(4)), items("a \"x\ny\nz\" b;\nc;"));
    }

    @Test
    void closingParenthesisAfterAQuoteStartsAWord() throws ConfException {
        assertEquals(List.of(block(1, "if", "($a", "=", "b", ")"), end(1), eof(1)), items("if ($a = \"b\") { }"));
    }

    @Test
    void closingParenthesisGluesToTheNextBytes() throws ConfException {
        assertEquals(List.of(dir(1, "if", "a", ")x"), eof(1)), items("if \"a\")x;"));
    }

    @Test
    void byteAfterClosingQuote() {
        assertEquals("unexpected \"b\"@1", error("x \"a\"b;"));
        assertEquals("unexpected \"}\"@1", error("x 'a'}"));
        assertEquals("unexpected \"#\"@1", error("x \"a\"#"));
        assertEquals("unexpected \"\"\"@1", error("x \"a\"\"b\";"));
        assertEquals("unexpected \"\\\"@1", error("x \"a\"\\;"));
    }

    @Test
    void byteAfterClosingQuoteOnALaterLine() {
        assertEquals("unexpected \"c\"@3", error("x;\n\"a\nb\"c;"));
    }

    @Test
    void unterminatedQuotes() {
        assertEquals("unexpected end of file, expecting \";\" or \"}\"@3", error("a \"bc;\n}\n"));
        assertEquals("unexpected end of file, expecting \";\" or \"}\"@1", error("a 'bc;"));
        assertEquals("unexpected end of file, expecting \";\" or \"}\"@1", error("'"));
    }

    @Test
    void endOfFileAfterClosingQuote() {
        assertEquals("unexpected end of file, expecting \";\" or \"}\"@1", error("a \"b\""));
        assertEquals("unexpected end of file, expecting \";\" or \"}\"@1", error("\"\""));
    }

    // ---- escapes

    @Test
    void escapesInQuotedWords() throws ConfException {
        assertEquals(List.of(dir(1, "a", "q\"q", "q'q", "b\\s", "t\tr\rn\n", "s'\"\\"), eof(1)),
                     items("a \"q\\\"q\" 'q\\'q' \"b\\\\s\" \"t\\tr\\rn\\n\" 's\\'\\\"\\\\';"));
    }

    @Test
    void escapesInUnquotedWords() throws ConfException {
        assertEquals(List.of(dir(1, "\"", "'", "\\", "\t", "\r", "\n", "x\"y"), eof(1)),
                     items("\\\" \\' \\\\ \\t \\r \\n x\\\"y;"));
    }

    @Test
    void otherEscapesAreKept() throws ConfException {
        assertEquals(List.of(dir(1, "\\d+", "\\x", "a\\;b", "c\\ d", "\\{", "\\$"), eof(1)),
                     items("\"\\d+\" \\x a\\;b c\\ d \\{ \\$;"));
    }

    @Test
    void escapedTerminatorsDoNotEndTheWord() throws ConfException {
        assertEquals(List.of(block(1, "a\\;\\{\\}"), end(1), eof(1)), items("a\\;\\{\\}{}"));
    }

    @Test
    void escapedQuoteAtWordStartOpensNoQuote() throws ConfException {
        assertEquals(List.of(dir(1, "\"a\"", "b"), eof(1)), items("\\\"a\" b;"));
    }

    @Test
    void backslashNewlineIsKeptAndCounted() throws ConfException {
        assertEquals(List.of(dir(2, "a\\\nb"), eof(2)), items("a\\\nb;"));
    }

    @Test
    void escapedBackslashThenQuote() throws ConfException {
        assertEquals(List.of(dir(1, "a\\", "b"), eof(1)), items("\"a\\\\\" b;"));
    }

    @Test
    void endOfFileAfterBackslash() {
        assertEquals("unexpected end of file, expecting \";\" or \"}\"@1", error("a \\"));
        assertEquals("unexpected end of file, expecting \";\" or \"}\"@1", error("\\"));
    }

    // ---- variables

    @Test
    void variablesAreKept() throws ConfException {
        assertEquals(List.of(dir(1, "set", "$a", "x${b}y", "${c}", "${d}", "$$e"), eof(1)),
                     items("set $a x${b}y \"${c}\" '${d}' $$e;"));
    }

    @Test
    void bracesAfterDollarInsideAWordDoNotOpenABlock() throws ConfException {
        assertEquals(List.of(block(1, "location", "~", "a${b}", "$${{c"), end(1), eof(1)),
                     items("location ~ a${b} $${{c {}"));
    }

    @Test
    void dollarBraceAtTheStartOfAWord() throws ConfException {
        assertEquals(List.of(dir(1, "set", "$x", "${b}", "${c}d"), eof(1)), items("set $x ${b} ${c}d;"));
    }

    @Test
    void braceAfterDollarBraceStaysInTheWord() throws ConfException {
        // nginx's "variable" stays set after a "{", so a second brace is kept too.
        assertEquals(List.of(dir(1, "a", "${{b}", "x${{"), eof(1)), items("a ${{b} x${{;"));
    }

    @Test
    void otherByteBetweenDollarAndBrace() throws ConfException {
        assertEquals(List.of(block(1, "a", "$x"), dir(1, "b"), end(1), eof(1)), items("a $x{b;}"));
    }

    // ---- whitespace and bytes

    @Test
    void whitespaceKinds() throws ConfException {
        assertEquals(List.of(dir(2, "a", "b", "c"), dir(3, "d"), eof(4)), items("a\tb\r\nc;\r\n\t\rd;\r\n"));
    }

    @Test
    void crAloneIsNoNewLine() throws ConfException {
        assertEquals(List.of(dir(1, "a"), dir(1, "b"), eof(1)), items("a;\rb;\r"));
    }

    @Test
    void otherControlBytesAreWordBytes() throws ConfException {
        assertEquals(List.of(dir(1, "a\fb", "c\u000bd", "e\0f", "\0"), eof(1)), items("a\fb c\u000bd e\0f \0;"));
    }

    @Test
    void bytesAreLatin1() throws ConfException {
        byte[] conf = {'a', ' ', (byte) 0xe9, (byte) 0xff, (byte) 0x80, ';'};
        ConfTokenizer t = new ConfTokenizer(conf);
        assertEquals(Kind.DIRECTIVE, t.next());
        assertEquals(List.of("a", "\u00e9\u00ff\u0080"), t.words());
    }

    // ---- errors

    @Test
    void emptyDirective() {
        assertEquals("unexpected \";\"@1", error(";"));
        assertEquals("unexpected \"{\"@3", error("\n\n{"));
        assertEquals("unexpected \";\"@1", error("a;;"));
        assertEquals("unexpected \";\"@2", error("a # c\n;;"));
    }

    @Test
    void closingBraceAfterWords() {
        assertEquals("unexpected \"}\"@2", error("a b\n}"));
        assertEquals("unexpected \"}\"@1", error("a \"b\" }"));
    }

    @Test
    void endOfFileInTheMiddleOfADirective() {
        assertEquals("unexpected end of file, expecting \";\" or \"}\"@1", error("a"));
        assertEquals("unexpected end of file, expecting \";\" or \"}\"@2", error("a b\n"));
        assertEquals("unexpected end of file, expecting \";\" or \"}\"@3", error("x {\n a;\n b "));
    }

    @Test
    void errorsAreSticky() {
        ConfTokenizer t = new ConfTokenizer(bytes("\"a\"b c; d;"));
        ConfException first = assertThrows(ConfException.class, t::next);
        ConfException again = assertThrows(ConfException.class, t::next);
        assertEquals("unexpected \"b\"", first.getMessage());
        assertEquals(first.getMessage(), again.getMessage());
    }

    @Test
    void errorTextHasNoLocation() {
        ConfException e = assertThrows(ConfException.class, () -> new ConfTokenizer(bytes(";")).next());
        assertEquals("unexpected \";\"", e.text());
        assertEquals(0, e.line());
    }

    // ---- length limit

    @Test
    void longestUnquotedWordBeforeATerminator() throws ConfException {
        String word = repeat('w', 4095);
        assertEquals(List.of(dir(1, "a"), dir(2, word), dir(3, "b"), eof(3)), items("a;\n" + word + ";\nb;"));
    }

    @Test
    void unquotedWordOneByteTooLong() {
        String word = "0123456789" + repeat('w', 4086);
        assertEquals("too long parameter \"0123456789...\" started@2", error("a;\n" + word + ";\nb;"));
    }

    @Test
    void longestUnquotedWordBeforeAnotherWord() throws ConfException {
        String word = repeat('w', 4094);
        assertEquals(List.of(dir(1, word, "b"), eof(1)), items(word + " b;"));
        assertEquals("too long parameter \"wwwwwwwwww...\" started@1", error(word + "w b;"));
    }

    @Test
    void longestQuotedWord() throws ConfException {
        String word = repeat('q', 4094);
        assertEquals(List.of(dir(1, "a", word), eof(1)), items("a \"" + word + "\";"));
        // The closing quote is read, but the byte after it is one too far; nginx has cleared d_quoted by then.
        assertEquals("too long parameter \"qqqqqqqqqq...\" started@1", error("a \"" + word + "q\";"));
    }

    @Test
    void unterminatedDoubleQuoteTooLong() {
        String text = "line\n" + repeat('x', 5000) + "\n";
        assertEquals("too long parameter, probably missing terminating \"\"\" character@1",
                     error("a \"" + text + "\";"));
    }

    @Test
    void unterminatedSingleQuoteTooLong() {
        assertEquals("too long parameter, probably missing terminating \"'\" character@2",
                     error("a;\nb '" + repeat('x', 4096) + "';"));
    }

    @Test
    void tooLongParameterStartedOnAnEarlierLine() {
        String word = "a\\\n" + repeat('x', 4096);
        assertEquals("too long parameter \"a\\\nxxxxxxx...\" started@2", error("x;\n" + word + ";"));
    }

    @Test
    void tooLongParameterShowsRawBytes() {
        // "%*s" copies the bytes as they are in the file, before unescaping, NULs and all.
        String word = "\\t\0\u00e9" + repeat('x', 4093);
        assertEquals("too long parameter \"\\t\0\u00e9xxxxxx...\" started@1", error(word + ";"));
    }

    @Test
    void longWordAtEndOfFileIsAnEndOfFileError() {
        // nginx checks for the end of the file before it checks the length.
        assertEquals("unexpected end of file, expecting \";\" or \"}\"@1", error("a " + repeat('x', 4096)));
    }

    @Test
    void longCommentIsRefusedLikeInNginx() throws ConfException {
        // nginx sets start (and start_line) at the "#", and nothing moves it until the next word starts.
        assertEquals("too long parameter \"#ccccccccc...\" started@2", error("a;\n#" + repeat('c', 5000) + "\nb;"));
        assertEquals("too long parameter \"#ccccccccc...\" started@1", error("#" + repeat('c', 4095) + "\nb;"));
        assertEquals(List.of(dir(2, "b"), eof(2)), items("#" + repeat('c', 4094) + "\nb;"));
    }

    @Test
    void whitespaceAndCommentsAfterAWordDoNotCountTowardsTheLimit() throws ConfException {
        String word = repeat('w', 4000);
        assertEquals(List.of(dir(1, word, "b"), eof(1)), items(word + repeat(' ', 9000) + "b;"));
        assertEquals(List.of(dir(3, word, "b"), eof(3)), items(word + " # " + repeat('c', 4000) + "\n\t# x\nb;"));
        assertEquals(List.of(dir(1, "a"), dir(1, word), eof(1)), items("a;" + repeat('\r', 5000) + word + ";"));
    }

    @Test
    void longFileOfShortItemsIsFine() throws ConfException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            sb.append("a").append(i).append(" \"b\" # c\n");
            sb.append("    ;\n");
        }
        List<Item> items = items(sb.toString());
        assertEquals(3001, items.size());
        assertEquals(dir(6000, "a2999", "b"), items.get(2999));
    }

    // ---- scale and robustness

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void tenMegabytes() throws ConfException {
        StringBuilder sb = new StringBuilder(11 << 20);
        sb.append("http {\n");
        int expected = 0;
        while (sb.length() < 10 << 20) {
            sb.append("    server {\n");
            for (int i = 0; i < 20; i++) {
                sb.append("        directive_").append(i).append(" value_").append(expected)
                  .append(" \"quoted ${var} \\\"").append(i).append("\\\"\"; # comment\n");
                expected++;
            }
            sb.append("    }\n");
        }
        sb.append("}\n");
        ConfTokenizer t = new ConfTokenizer(bytes(sb.toString()));
        int directives = 0;
        int depth = 0;
        Kind k;
        while ((k = t.next()) != Kind.EOF) {
            if (k == Kind.DIRECTIVE) {
                directives++;
                assertEquals(3, t.words().size());
            } else {
                depth += k == Kind.BLOCK_START ? 1 : -1;
            }
        }
        assertEquals(expected, directives);
        assertEquals(0, depth);
        assertEquals(sb.chars().filter(c -> c == '\n').count() + 1, t.line());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void randomBytesEitherTokenizeOrFailWithConfException() {
        Random random = new Random(20240229L);
        byte[] special = bytes(" \t\r\n;{}#\"'\\$)");
        int failures = 0;
        for (int i = 0; i < 20_000; i++) {
            int len = i % 100 == 0 ? random.nextInt(20_000) : random.nextInt(300);
            byte[] conf = new byte[len];
            random.nextBytes(conf);
            if (i % 2 == 0) {
                // Half of the files mostly hold the bytes the grammar cares about, to reach its corners.
                for (int j = 0; j < len; j++) {
                    if (random.nextInt(3) != 0) {
                        conf[j] = special[random.nextInt(special.length)];
                    }
                }
            }
            failures += runToEnd(conf, i) ? 0 : 1;
        }
        assertTrue(failures > 0 && failures < 20_000, "both outcomes reached: " + failures);
    }

    /** Returns true at EOF, false on ConfException; fails the test on anything else. */
    private static boolean runToEnd(byte[] conf, int iteration) {
        ConfTokenizer t = new ConfTokenizer(conf);
        int items = 0;
        try {
            while (t.next() != Kind.EOF) {
                assertTrue(++items <= conf.length, "more items than bytes");
                assertTrue(t.line() >= 1);
            }
            return true;
        } catch (ConfException e) {
            assertTrue(t.line() >= 1);
            return false;
        } catch (RuntimeException e) {
            fail("iteration " + iteration + " threw " + e, e);
            return false;
        }
    }
}
