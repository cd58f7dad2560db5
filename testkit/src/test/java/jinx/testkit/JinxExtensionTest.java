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
