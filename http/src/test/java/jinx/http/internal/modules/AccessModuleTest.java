package jinx.http.internal.modules;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static jinx.http.internal.modules.StaticModuleTest.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jinx.http.internal.request.EngineFixture;

/**
 * The access module on the fixture's UNIX-domain clients ({@code $remote_addr} is {@code unix:}): {@code unix:} and
 * {@code all} rules, first match wins, inheritance, {@code limit_except}, {@code satisfy any}, the log line, and the
 * configuration errors and warnings. IPv4 clients are in {@code RealServerTest} and {@code NginxDifferentialIT}.
 */
class AccessModuleTest {

    @TempDir
    Path root;

    private EngineFixture f;

    void start(String server) throws Exception {
        for (String name : new String[] {"deny", "all", "allow", "inet", "in", "own", "ipv4only", "index.html"}) {
            Files.writeString(root.resolve(name), name);
        }
        f = EngineFixture.modules("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n root " + root + ";\n"
            + server + "\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private int status(String uri) throws Exception {
        return f.get(get(uri)).status();
    }

    @Test
    @Timeout(20)
    void unixAndAllRulesFirstMatchWins() throws Exception {
        start("location /deny { deny unix:; }\n"
            + " location /all { deny all; }\n"
            + " location /allow { allow unix:; deny all; }\n"
            + " location /inet { deny 10.0.0.0/8; deny ::1; }");
        assertEquals(403, status("/deny"));
        assertTrue(f.log().contains("access forbidden by rule"), f.log());
        assertEquals(403, status("/all"));
        assertEquals(200, status("/allow"));
        assertEquals(200, status("/inet"));
    }

    @Test
    @Timeout(20)
    void rulesAreInheritedWhole() throws Exception {
        start("deny all;\n location /in { }\n location /own { allow unix:; }\n"
            + " location /ipv4only { allow 127.0.0.1; }");
        assertEquals(403, status("/in"));
        assertEquals(200, status("/own"));
        // a location with rules of its own inherits nothing: no unix: rule, so the UNIX-domain client passes
        assertEquals(200, status("/ipv4only"));
    }

    @Test
    @Timeout(20)
    void limitExceptAppliesToOtherMethods() throws Exception {
        start("location / { limit_except GET { deny all; } }");
        assertEquals(200, status("/"));
        assertEquals(403, f.get("DELETE / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").status());
    }

    @Test
    @Timeout(20)
    void satisfyAnyLogsTheLineOnceInPostAccess() throws Exception {
        // under "satisfy any" the module does not log; the core's POST_ACCESS does, once (nginx)
        start("location / { satisfy any; deny all; }");
        assertEquals(403, status("/"));
        assertEquals(1, f.log().split("access forbidden by rule", -1).length - 1, f.log());
    }

    @Test
    void configurationErrorsAndWarnings() throws Exception {
        assertRefused("allow 10.0.0.0/33;", "invalid parameter \"10.0.0.0/33\"");
        assertRefused("deny example.com;", "invalid parameter \"example.com\"");
        assertRefused("location / { allow 1 2; }", "invalid number of arguments in \"allow\" directive");
        start("allow 10.1.2.3/8;");
        assertTrue(f.log().contains("low address bits of 10.1.2.3/8 are meaningless"), f.log());
    }

    private void assertRefused(String server, String text) {
        Exception e = assertThrows(Exception.class, () -> start(server));
        assertTrue(String.valueOf(e.getMessage()).contains(text), e.getMessage());
    }
}
