package jinx.http.internal.core;

import java.time.Duration;

import jinx.kernel.ConfException;
import jinx.kernel.Rc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PCRE as nginx configurations write it, run by {@link java.util.regex}: translations, refusals and the bounded
 * match.
 */
class HttpRegexTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "(?P<year>\\d{4})/(?P<month>\\d\\d) | /2024/05/x | year=2024 month=05",
        "(?<file_name>[a-z_]+)\\.php$ | /a/my_page.php | file_name=my_page",
        "(?'w'\\w+)-(?P=w) | ab-ab | w=ab",
        "(?<w>\\w+)-\\k<w> | xy-xy | w=xy",
        "(?<w>\\w+)-\\k{w} | xy-xy | w=xy",
        "(?<w>\\w+)-\\g{w} | xy-xy | w=xy",
        "(?<w>\\w)(\\w)\\g{-1}\\g1 | abba | w=a"})
    void namedGroupsAndBackreferences(String re, String subject, String expected) throws Exception {
        HttpRegex r = HttpRegex.compile(re, false);
        Captures c = new Captures();
        assertEquals(Rc.OK, r.exec(subject, c));
        for (String pair : expected.split(" ")) {
            String[] kv = pair.split("=");
            assertEquals(kv[1], c.group(kv[0]), re);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "^[[:alpha:]]+$ | abc | 123",
        "^[[:^digit:]]+$ | abc | a1",
        "^[[:word:]]+$ | a_1 | a-1",
        "^[a[]+$ | a[a | b",
        "^[&&a]+$ | &a& | b",
        "^a\\Nb$ | axb | ab",
        "^x{$ | x{ | x",
        "^x{2}$ | xx | x{2}",
        "^(?#comment)ab$ | ab | a",
        "^\\Q.*\\E$ | .* | ab",
        "^a\\o{142}$ | ab | ac"})
    void pcreSpellingsJavaLacks(String re, String matching, String notMatching) throws Exception {
        HttpRegex r = HttpRegex.compile(re, false);
        assertTrue(r.matches(matching), re + " ~ " + matching);
        assertFalse(r.matches(notMatching), re + " !~ " + notMatching);
    }

    @Test
    void caselessAndUnanchored() throws Exception {
        HttpRegex r = HttpRegex.compile("\\.(gif|jpg|jpeg)$", true);
        assertTrue(r.matches("/a/B.JPG"));
        assertFalse(r.matches("/a/b.png"));
        assertEquals(1, r.captureCount());
        assertTrue(HttpRegex.compile("(?i)abc", false).matches("xABCx"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"(?R)", "a(?1)", "(?&name)", "(?P>name)", "(?(1)a|b)", "(?|a|b)", "(*SKIP)a",
        "(*UTF8)a", "a\\Kb", "(?U)a+", "(?C1)a", "\\g<1>", "(?J)(?<a>x)", "[[:nope:]]", "\\k<later>(?<later>a)"})
    void whatJavaCannotRunIsRefused(String re) {
        ConfException e = assertThrows(ConfException.class, () -> HttpRegex.compile(re, false));
        assertTrue(e.getMessage().startsWith("the regex \"" + re + "\" uses "), e.getMessage());
        assertTrue(e.getMessage().endsWith(", which java.util.regex cannot run"), e.getMessage());
    }

    @Test
    void javaErrorsAreReported() {
        ConfException e = assertThrows(ConfException.class, () -> HttpRegex.compile("a(b", false));
        assertTrue(e.getMessage().startsWith("regex compile failed: "), e.getMessage());
        assertTrue(e.getMessage().endsWith(" in \"a(b\""), e.getMessage());
    }

    @Test
    void catastrophicBacktrackingIsAbandoned() throws Exception {
        // java.util.regex memoizes most loops since Java 9; a backreference still makes them exponential
        HttpRegex r = HttpRegex.compile("^(a+)+\\1$", false);
        String evil = "a".repeat(40) + "!";
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertEquals(Rc.ERROR, r.exec(evil, null)));
        assertFalse(r.matches(evil));
        // the matcher is usable afterwards
        assertEquals(Rc.OK, r.exec("aaa", null));
        HttpRegex nested = HttpRegex.compile("(x+x+)+y", false);
        assertTimeoutPreemptively(Duration.ofSeconds(10),
            () -> assertTrue(nested.exec("x".repeat(5000), null) != Rc.OK));
        HttpRegex polynomial = HttpRegex.compile("(.*a){20}", false);
        assertTimeoutPreemptively(Duration.ofSeconds(10),
            () -> assertEquals(Rc.ERROR, polynomial.exec("a".repeat(40), null)));
    }

    @Test
    void deepRecursionIsAnErrorNotACrash() throws Exception {
        HttpRegex r = HttpRegex.compile("^(a|b)*$", false);
        String deep = "ab".repeat(200_000);
        int rc = r.exec(deep, null);
        assertTrue(rc == Rc.ERROR || rc == Rc.OK);
        assertEquals(Rc.OK, r.exec("abab", null));
    }

    @Test
    void aSmallBudgetStopsEvenSimpleScans() throws Exception {
        HttpRegex r = HttpRegex.compile("z", false, 10);
        assertEquals(Rc.ERROR, r.exec("a".repeat(100), null));
        assertEquals(Rc.OK, r.exec("az", null));
    }

    @Test
    void backspaceInAClass() throws Exception {
        HttpRegex r = HttpRegex.compile("^[\\b]$", false);
        assertTrue(r.matches("\b"));
        assertFalse(r.matches("b"));
    }

    @Test
    void capturesOfUnmatchedGroupsAreEmpty() throws Exception {
        HttpRegex r = HttpRegex.compile("^/(a)?(b)$", false);
        Captures c = new Captures();
        assertEquals(Rc.OK, r.exec("/b", c));
        assertEquals(3, c.count());
        assertEquals("", c.group(1));
        assertEquals(-1, c.start(1));
        assertEquals("b", c.group(2));
        assertEquals("", c.group(7));
    }
}
