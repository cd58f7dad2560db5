package jinx.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import jinx.kernel.ConfException;

/**
 * The kit itself, in both modes: the server starts with the module, answers, logs, survives a handler that
 * throws, and is gone (port closed, prefix removed) once closed; a bad configuration or a module that fails to
 * start is reported to the test.
 */
@Timeout(60)
class JinxExtensionTest {

    private static JinxExtension kit(boolean inMemory) {
        JinxExtension kit = JinxExtension.create().module(() -> new ProbeModule(null))
            .file("html/index.html", "index\n");
        return inMemory ? kit.inMemory() : kit;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void servesTheModuleAndTheBuiltins(boolean inMemory) throws Exception {
        try (JinxExtension kit = kit(inMemory)) {
            kit.start();
            assertEquals("probe\n", kit.client().get("/probe").body());
            assertEquals("index\n", kit.client().get("/").body());
            assertEquals(404, kit.client().get("/missing").status());
            assertTrue(kit.awaitLog("open() \"").contains("/html/missing\" failed (2: No such file or directory)"),
                kit.errorLog());
            assertTrue(kit.configuration().contains("listen 127.0.0.1:" + kit.port() + ";"));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aHandlerThatThrowsCosts500AndALogLineOnly(boolean inMemory) throws Exception {
        try (JinxExtension kit = kit(inMemory)) {
            kit.start();
            Response r = kit.client().get("/throw");
            assertEquals(500, r.status(), r.head());
            assertTrue(kit.awaitLog("[alert]").contains("unexpected java.lang.IllegalArgumentException: probe handler"
                + " bug in the \"kit_probe\" CONTENT handler"), kit.errorLog());
            for (int i = 0; i < 3; i++) {
                assertEquals("probe\n", kit.client().get("/probe").body());
            }
        }
    }

    @Test
    void closingStopsTheServerAndRemovesThePrefix() throws Exception {
        JinxExtension kit = kit(false);
        kit.start();
        int port = kit.port();
        Path prefix = kit.prefix();
        JinxClient client = kit.client();
        kit.close();
        assertFalse(Files.exists(prefix));
        assertThrows(java.io.IOException.class, () -> client.get("/probe"), "port " + port + " still open");
        assertThrows(IllegalStateException.class, kit::client);
        kit.close();
    }

    @Test
    void pipelinedRequestsOnOneConnection() throws Exception {
        try (JinxExtension kit = kit(true)) {
            kit.start();
            try (JinxClient.Session s = kit.client().open()) {
                s.send("GET /probe HTTP/1.1\r\nHost: localhost\r\n\r\nGET /probe HTTP/1.1\r\nHost: l\r\n\r\n");
                List<Response> rs = s.responses(2);
                assertEquals(2, rs.size(), s.received());
                assertEquals("probe\n", rs.get(0).body());
                assertEquals("probe\n", rs.get(1).body());
                assertEquals("keep-alive", rs.get(1).header("Connection"));
            }
        }
    }

    @Test
    void aBadConfigurationIsTheKernelsError() throws Exception {
        try (JinxExtension kit = JinxExtension.create().server("no_such_directive;")) {
            ConfException e = assertThrows(ConfException.class, kit::start);
            assertTrue(e.getMessage().startsWith("unknown directive \"no_such_directive\" in "), e.getMessage());
        }
    }

    @Test
    void assertConfErrorComputesThePlaceOfTheSnippetsLastLine() throws Exception {
        JinxExtension kit = JinxExtension.create().module(() -> new ProbeModule(null)).main("worker_processes 1;")
            .http("access_log off;\nserver_tokens off;").server("location / { }");
        ConfException e = kit.assertConfError("location /a { }\nno_such_directive;",
            "unknown directive \"no_such_directive\"");
        // counted by hand: the kit's 3 main lines, 1 of main(), 3 of events, "http {", 2 of http(), "server {",
        // listen, server_name, 1 of server(): the snippet's lines are 15 and 16
        assertTrue(e.getMessage().endsWith("/conf/jinx.conf:16"), e.getMessage());
        kit.assertConfError("worker_connections 1;", "\"worker_connections\" directive is not allowed here");
        AssertionError wrong = assertThrows(AssertionError.class,
            () -> kit.assertConfError("no_such_directive;\n", "unknown directive \"other\""));
        assertTrue(wrong.getMessage().contains("unknown directive \"no_such_directive\" in "), wrong.getMessage());
        AssertionError accepted = assertThrows(AssertionError.class,
            () -> kit.assertConfError("location /b { }", "anything"));
        assertTrue(accepted.getMessage().contains("the configuration was accepted"), accepted.getMessage());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void theAccessLogIsReadLineByLine(boolean inMemory) throws Exception {
        try (JinxExtension kit = kit(inMemory).http("log_format short '$request $status $body_bytes_sent';")
                .server("access_log logs/access.log short;")) {
            kit.start();
            assertEquals(List.of(), kit.accessLog().lines());
            kit.client().get("/probe");
            kit.client().get("/missing");
            assertEquals("GET /probe HTTP/1.1 200 6", kit.accessLog().await(1));
            String second = kit.accessLog().await(2);
            assertTrue(second.matches("GET /missing HTTP/1\\.1 404 \\d+"), second);
            assertEquals(2, kit.accessLog().lines().size());
            assertThrows(AssertionError.class, () -> kit.accessLog().await(3));
            assertEquals(second, kit.accessLog().await("GET /missing "));
            assertThrows(AssertionError.class, () -> kit.accessLog().await("GET /never "));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void sendResponseSendsStatusTypeAndBodyInOneCall(boolean inMemory) throws Exception {
        try (JinxExtension kit = kit(inMemory)) {
            kit.start();
            Response r = kit.client().get("/send");
            assertEquals(201, r.status(), r.head());
            assertEquals("text/x-probe", r.header("Content-Type"));
            assertEquals("8", r.header("Content-Length"));
            assertEquals("sent \u00c3\u00a9\n", r.body());
            Response big = kit.client().get("/send.html");
            assertEquals("text/html", big.header("Content-Type"));
            assertEquals("x".repeat(5000), big.body());
            String head = kit.client().exchange("HEAD /send HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            assertTrue(head.startsWith("HTTP/1.1 201 Created\r\n") && head.contains("\r\nContent-Length: 8\r\n")
                && head.endsWith("\r\n\r\n"), head);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void keptStateSurvivesAnInternalRedirectAndEndsWithTheRequest(boolean inMemory) throws Exception {
        try (JinxExtension kit = kit(inMemory)) {
            kit.start();
            try (JinxClient.Session s = kit.client().open()) {
                s.send("GET /state?a=1 HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    + "GET /state-after HTTP/1.1\r\nHost: localhost\r\n\r\n");
                List<Response> rs = s.responses(2);
                assertEquals(2, rs.size(), s.received());
                // ctx() is cleared by the redirect, as nginx's r->ctx; keptCtx() is not
                assertEquals("ctx=null kept=kept a=1\n", rs.get(0).body());
                // the next request on the connection (often the same request object, reused) starts with neither
                assertEquals("ctx=null kept=null\n", rs.get(1).body());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"initModule", "initProcess"})
    void aModuleThatFailsToStartFailsTheStart(String where) throws Exception {
        for (boolean inMemory : new boolean[] {false, true}) {
            JinxExtension kit = JinxExtension.create().module(() -> new ProbeModule(where));
            if (inMemory) {
                kit.inMemory();
            }
            try (kit) {
                Exception e = assertThrows(Exception.class, kit::start);
                assertTrue(String.valueOf(e.getMessage()).contains("probe refuses " + where), e.toString());
                if (where.equals("initProcess")) {
                    assertTrue(kit.errorLog().contains("[emerg]")
                        && kit.errorLog().contains("module \"kit_probe\" failed to start: probe refuses initProcess"),
                        kit.errorLog());
                }
            }
        }
    }
}
