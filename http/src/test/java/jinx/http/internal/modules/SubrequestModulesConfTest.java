package jinx.http.internal.modules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.EngineFixture;

/**
 * The configuration errors of {@code auth_request}, {@code mirror} and {@code addition}, with the texts Debian's
 * nginx 1.22 prints for the same lines ({@code nginx -t}), and what they accept.
 */
class SubrequestModulesConfTest {

    @Test
    @Timeout(30)
    void errorsAreNginxs() {
        assertRefused("auth_request /a; auth_request /b;", "\"auth_request\" directive is duplicate", true);
        assertRefused("auth_request off; auth_request /x;", "\"auth_request\" directive is duplicate", true);
        assertRefused("auth_request /a /b;", "invalid number of arguments in \"auth_request\" directive", true);
        assertRefused("auth_request_set novar x;", "invalid variable name \"novar\"", true);
        assertRefused("auth_request_set $x $nosuch;", "unknown \"nosuch\" variable", false);
        assertRefused("mirror off; mirror /m;", "\"mirror\" directive is duplicate", true);
        assertRefused("mirror /m; mirror off;", "\"mirror\" directive is duplicate", true);
        assertRefused("mirror_request_body maybe;",
            "invalid value \"maybe\" in \"mirror_request_body\" directive, it must be \"on\" or \"off\"", true);
        assertRefused("add_before_body /a; add_before_body /b;", "\"add_before_body\" directive is duplicate", true);
        assertRefused("add_after_body /a; add_after_body /b;", "\"add_after_body\" directive is duplicate", true);
    }

    @Test
    @Timeout(30)
    void validConfigurationsLoad() throws Exception {
        String ok = "auth_request /a; auth_request_set $u $http_x_user; auth_request_set $v \"$u!\";"
            + " mirror /m; mirror /m2; mirror_request_body off; add_before_body /b; add_after_body /c;"
            + " addition_types text/plain text/css;";
        try (EngineFixture f = EngineFixture.modules(server(ok))) {
            assertEquals(false, f.log().contains("[emerg]"), f.log());
        }
        try (EngineFixture f = EngineFixture.modules(server("addition_types text/html text/html;"))) {
            assertTrue(f.log().contains("duplicate MIME type \"text/html\""), f.log());
        }
    }

    private static String server(String loc) {
        // line 9 of the fixture's file (EngineFixture.modules): the first of http {}
        return "server { listen 127.0.0.1:8080; location / { " + loc + " } }";
    }

    private static void assertRefused(String loc, String text, boolean where) {
        Exception e = assertThrows(Exception.class, () -> EngineFixture.modules(server(loc)).close(), loc);
        String m = String.valueOf(e.getMessage());
        assertTrue(m.startsWith(text), m);
        if (where) {
            assertTrue(m.endsWith(" in " + m.substring(m.indexOf(" in /") + 4, m.lastIndexOf(':')) + ":9")
                && m.contains("conf/jinx.conf:9"), m);
        }
    }
}
