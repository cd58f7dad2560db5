package jinx.http.internal.variables;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.kernel.ConfException;

import static jinx.http.spi.HttpConfig.VAR_CHANGEABLE;
import static jinx.http.spi.HttpConfig.VAR_NOCACHEABLE;
import static jinx.http.spi.HttpConfig.VAR_PREFIX;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VariablesTest {

    @Test
    @Timeout(5)
    void aDuplicateIsRefusedWithNginxWords() throws ConfException {
        Variables vars = new Variables();
        vars.add("foo", (r, n) -> "1", 0);
        ConfException e = assertThrows(ConfException.class, () -> vars.add("Foo", (r, n) -> "2", 0));
        assertEquals("the duplicate \"Foo\" variable", e.getMessage());
    }

    @Test
    @Timeout(5)
    void aChangeableVariableTakesTheNewGetter() throws ConfException {
        Variables vars = new Variables();
        vars.add("foo", (r, n) -> "1", VAR_CHANGEABLE);
        vars.add("foo", (r, n) -> "2", 0);
        int i = vars.index("foo");
        vars.check();
        assertEquals("2", new FakeRequest(vars).variable(i));
    }

    @Test
    @Timeout(5)
    void aDuplicatePrefixIsRefused() throws ConfException {
        Variables vars = new Variables();
        vars.add("x_", (r, n) -> n, VAR_PREFIX);
        ConfException e = assertThrows(ConfException.class, () -> vars.add("x_", (r, n) -> n, VAR_PREFIX));
        assertEquals("the duplicate \"x_\" variable", e.getMessage());
    }

    @Test
    @Timeout(5)
    void anEmptyNameIsInvalid() {
        Variables vars = new Variables();
        assertEquals("invalid variable name \"$\"",
            assertThrows(ConfException.class, () -> vars.index("")).getMessage());
        assertEquals("invalid variable name \"$\"",
            assertThrows(ConfException.class, () -> vars.add("", (r, n) -> "", 0)).getMessage());
    }

    @Test
    @Timeout(5)
    void indexesAreAssignedOncePerNameAnyCase() throws ConfException {
        Variables vars = new Variables();
        int a = vars.index("Host");
        int b = vars.index("uri");
        assertEquals(a, vars.index("host"));
        assertEquals(2, vars.count());
        assertEquals("host", vars.name(a));
        assertEquals(1, b);
    }

    @Test
    @Timeout(5)
    void checkRefusesAnUnknownNameWithItsPlace() throws ConfException {
        Variables vars = new Variables();
        vars.add("known", (r, n) -> "k", 0);
        vars.index("known");
        vars.index("nosuch", "/etc/jinx/jinx.conf", 12);
        ConfException e = assertThrows(ConfException.class, vars::check);
        assertEquals("unknown \"nosuch\" variable in /etc/jinx/jinx.conf:12", e.getMessage());
        assertEquals("unknown \"nosuch\" variable", e.text());
    }

    @Test
    @Timeout(5)
    void checkWithoutPlaceSaysJustTheName() throws ConfException {
        Variables vars = new Variables();
        vars.index("nosuch");
        assertEquals("unknown \"nosuch\" variable", assertThrows(ConfException.class, vars::check).getMessage());
    }

    @Test
    @Timeout(5)
    void anIndexAskedAfterCheckIsCheckedAtOnce() throws ConfException {
        Variables vars = new Variables();
        vars.add("a", (r, n) -> "A", 0);
        vars.check();
        assertEquals(0, vars.index("a"));
        assertEquals("unknown \"b\" variable", assertThrows(ConfException.class, () -> vars.index("b")).getMessage());
    }

    @Test
    @Timeout(5)
    void theLongestPrefixWins() throws ConfException {
        Variables vars = new Variables();
        vars.add("http_", (r, n) -> "short:" + n, VAR_PREFIX);
        vars.add("http_x_", (r, n) -> "long:" + n, VAR_PREFIX);
        int a = vars.index("http_x_y");
        int b = vars.index("http_host");
        vars.check();
        FakeRequest r = new FakeRequest(vars);
        assertEquals("long:http_x_y", r.variable(a));
        assertEquals("short:http_host", r.variable(b));
    }

    @Test
    @Timeout(5)
    void anExactNameWinsOverAPrefix() throws ConfException {
        Variables vars = new Variables();
        vars.add("http_", (r, n) -> "prefix", VAR_PREFIX);
        vars.add("http_cookie", (r, n) -> "exact", 0);
        int i = vars.index("http_cookie");
        vars.check();
        assertEquals("exact", new FakeRequest(vars).variable(i));
        assertTrue(vars.isKnown("HTTP_anything"));
        assertFalse(vars.isKnown("nosuch"));
    }

    @Test
    @Timeout(5)
    void valuesAreCachedUnlessNocacheable() throws ConfException {
        Variables vars = new Variables();
        AtomicInteger calls = new AtomicInteger();
        vars.add("cached", (r, n) -> Integer.toString(calls.incrementAndGet()), 0);
        vars.add("fresh", (r, n) -> Integer.toString(calls.incrementAndGet()), VAR_NOCACHEABLE);
        vars.add("missing", (r, n) -> {
            calls.incrementAndGet();
            return null;
        }, 0);
        int c = vars.index("cached");
        int f = vars.index("fresh");
        int m = vars.index("missing");
        vars.check();
        String[] cache = vars.newCache();
        FakeRequest r = new FakeRequest(vars);
        assertEquals("1", vars.evaluate(r, c, cache));
        assertEquals("1", vars.evaluate(r, c, cache));
        assertEquals("2", vars.evaluate(r, f, cache));
        assertEquals("3", vars.evaluate(r, f, cache));
        assertNull(vars.evaluate(r, m, cache));
        assertNull(vars.evaluate(r, m, cache));
        assertEquals(4, calls.get(), "a value not found is cached too");
        assertEquals(VAR_NOCACHEABLE, vars.flags(f));
    }

    @Test
    @Timeout(5)
    void anUnknownIndexIsAnAlert() {
        Variables vars = new Variables();
        FakeRequest r = new FakeRequest(vars);
        assertNull(vars.evaluate(r, 7, null));
        assertTrue(r.errors().contains("[alert]"), r.errors());
        assertTrue(r.errors().contains("unknown variable index: 7"), r.errors());
    }

    @Test
    @Timeout(5)
    void aCycleBetweenVariablesIsCutAndLogged() throws ConfException {
        Variables vars = new Variables();
        int[] self = new int[1];
        vars.add("loop", (r, n) -> vars.evaluate(r, self[0], null), 0);
        self[0] = vars.index("loop");
        vars.check();
        FakeRequest r = new FakeRequest(vars);
        assertNull(r.variable(self[0]));
        assertTrue(r.errors().contains("[error]"), r.errors());
        assertTrue(r.errors().contains("cycle while evaluating variable \"loop\""), r.errors());
    }

    @Test
    @Timeout(5)
    void getFindsANameAtRequestTime() throws ConfException {
        Variables vars = new Variables();
        CoreVariables.register(vars::add, "1.2.3");
        FakeRequest r = new FakeRequest(vars);
        assertEquals("/index.html", vars.get(r, "uri"));
        assertEquals("two", vars.get(r, "arg_b"));
        assertNull(vars.get(r, "nosuch"));
    }

    @Test
    @Timeout(5)
    void theCoreVariablesRegisterOnce() throws ConfException {
        Variables vars = new Variables();
        CoreVariables.register(vars::add, "1.2.3");
        ConfException e = assertThrows(ConfException.class, () -> CoreVariables.register(vars::add, "1.2.3"));
        assertEquals("the duplicate \"http_cookie\" variable", e.getMessage());
    }
}
