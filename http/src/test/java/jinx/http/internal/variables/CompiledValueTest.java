package jinx.http.internal.variables;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.spi.ComplexValue;
import jinx.kernel.ConfException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompiledValueTest {

    private Variables vars;

    @BeforeEach
    void registry() throws ConfException {
        vars = new Variables();
        CoreVariables.register(vars::add, "0.1.0");
    }

    private String eval(String source) throws ConfException {
        ComplexValue cv = vars.compile(source);
        vars.check();
        FakeRequest r = new FakeRequest(vars);
        r.headersIn.server = "www.example.org";
        return cv.evaluate(r);
    }

    private String error(String source) {
        return assertThrows(ConfException.class, () -> vars.compile(source)).getMessage();
    }

    @Test
    @Timeout(5)
    void aLiteralIsStatic() throws ConfException {
        ComplexValue cv = vars.compile("/var/www/html");
        assertTrue(cv.isStatic());
        assertEquals("/var/www/html", cv.source());
        assertEquals("/var/www/html", cv.evaluate(new FakeRequest(vars)));
        assertTrue(vars.compile("").isStatic());
        assertEquals(0, vars.count());
    }

    @Test
    @Timeout(5)
    void variablesAndLiteralsJoin() throws ConfException {
        assertEquals("http://www.example.org/index.html?a=1&b=two", eval("$scheme://$host$request_uri"));
    }

    @Test
    @Timeout(5)
    void bracketsEndAName() throws ConfException {
        assertEquals("/index.htmlsuffix", eval("${uri}suffix"));
        assertEquals("x.8080-1", eval("x.${server_port}-${arg_a}"));
    }

    @Test
    @Timeout(5)
    void aNameEndsAtTheFirstOtherCharacter() throws ConfException {
        assertEquals("GET.HTTP/1.1", eval("$request_method.$server_protocol"));
    }

    @Test
    @Timeout(5)
    void aVariableNotFoundIsEmpty() throws ConfException {
        assertEquals("[]", eval("[$http_referer]"));
    }

    @Test
    @Timeout(5)
    void theIndexesAreTheRegistrysAndInOrder() throws ConfException {
        CompiledValue cv = (CompiledValue) vars.compile("$uri$args$uri");
        assertFalse(cv.isStatic());
        int uri = vars.index("uri");
        int args = vars.index("args");
        assertArrayEquals(new int[] {uri, args, uri}, cv.variableIndexes());
    }

    @Test
    @Timeout(5)
    void capturesComeFromTheRequest() throws ConfException {
        ComplexValue cv = vars.compile("/$1/$2/$9");
        assertFalse(cv.isStatic());
        assertTrue(((CompiledValue) cv).usesCaptures());
        FakeRequest r = new FakeRequest(vars);
        r.captures = List.of("/img/a.png", "img", "a.png");
        assertEquals("/img/a.png/", cv.evaluate(r));
    }

    @Test
    @Timeout(5)
    void aDollarAtTheEndIsInvalid() {
        assertEquals("invalid variable name", error("abc$"));
    }

    @Test
    @Timeout(5)
    void anOpenBracketAtTheEndIsInvalid() {
        assertEquals("invalid variable name", error("abc${"));
    }

    @Test
    @Timeout(5)
    void anEmptyNameIsInvalid() {
        assertEquals("invalid variable name", error("a$-b"));
        assertEquals("invalid variable name", error("${}"));
    }

    @Test
    @Timeout(5)
    void anUnterminatedBracketNamesTheVariable() {
        assertEquals("the closing bracket in \"host\" variable is missing", error("${host"));
        assertEquals("the closing bracket in \"host\" variable is missing", error("${host-x}"));
    }

    @Test
    @Timeout(5)
    void anUnknownVariableIsRefusedAtCheck() throws ConfException {
        vars.compile("$nosuch");
        assertEquals("unknown \"nosuch\" variable", assertThrows(ConfException.class, vars::check).getMessage());
    }
}
