package jinx.contrib.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import jinx.kernel.ConfException;
import jinx.kernel.SharedZone;
import jinx.testkit.JinxClient;
import jinx.testkit.JinxExtension;
import jinx.testkit.Response;

/**
 * The status module through the test kit, a fresh server for each test so that the counts start at zero.
 */
@Timeout(60)
class StatusModuleTest {

    @RegisterExtension
    final JinxExtension jinx = JinxExtension.create()
        .module(StatusModule::new)
        .server("location = /status { stub_status; }\n"
            + "location = /metrics { stub_status; status_format prometheus; }\n"
            + "location = /vars { return 200 \"$connections_active $connections_reading $connections_writing "
            + "$connections_waiting\\n\"; }\n"
            + "location / { return 204; }");

    @Test
    void theFirstRequestSeesItselfExactlyAsNginxPrintsIt() throws Exception {
        Response r = jinx.client().get("/status");
        assertEquals(200, r.status());
        assertEquals("text/plain", r.header("Content-Type"));
        assertEquals("Active connections: 1 \nserver accepts handled requests\n 1 1 1 \n"
            + "Reading: 0 Writing: 1 Waiting: 0 \n", r.body());
        assertEquals(String.valueOf(r.body().length()), r.header("Content-Length"));
    }

    @Test
    void keepAliveConnectionsAreWaitingAndEveryRequestCounts() throws Exception {
        try (JinxClient.Session idle = jinx.client().open()) {
            idle.send("GET /a HTTP/1.1\r\nHost: localhost\r\n\r\nGET /b HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertEquals(2, idle.responses(2).size(), idle.received());
            Response r = jinx.client().get("/status");
            assertEquals("Active connections: 2 \nserver accepts handled requests\n 2 2 3 \n"
                + "Reading: 0 Writing: 1 Waiting: 1 \n", r.body());
        }
    }

    @Test
    void prometheusTextFormat() throws Exception {
        jinx.client().get("/x");
        Response r = jinx.client().get("/metrics");
        assertEquals("text/plain; version=0.0.4; charset=utf-8", r.header("Content-Type"));
        Map<String, Long> values = new HashMap<>();
        Map<String, String> types = new HashMap<>();
        for (String line : r.body().split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] w = line.split(" ");
                types.put(w[2], w[3]);
            } else if (!line.startsWith("#")) {
                String[] w = line.split(" ");
                assertEquals(2, w.length, line);
                values.put(w[0], Long.parseLong(w[1]));
            }
        }
        assertTrue(r.body().endsWith("\n"));
        assertEquals(2L, values.get("jinx_http_requests_total"));
        assertEquals(2L, values.get("jinx_connections_accepted"));
        assertEquals(2L, values.get("jinx_connections_handled"));
        assertEquals(1L, values.get("jinx_connections_active"));
        assertEquals(1L, values.get("jinx_connections_writing"));
        assertEquals(0L, values.get("jinx_connections_waiting"));
        assertEquals(0L, values.get("jinx_connections_reading"));
        assertEquals("counter", types.get("jinx_http_requests_total"));
        assertEquals("gauge", types.get("jinx_connections_active"));
        assertEquals(7, values.size());
    }

    @Test
    void variables() throws Exception {
        assertEquals("1 0 1 0\n", jinx.client().get("/vars").body());
    }

    @Test
    void headAndOtherMethods() throws Exception {
        try (JinxClient.Session s = jinx.client().open()) {
            String raw = s.send("HEAD /status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").readAll();
            assertTrue(raw.startsWith("HTTP/1.1 200 OK\r\n") && raw.endsWith("\r\n\r\n"), raw);
        }
        assertEquals(405, jinx.client().request("DELETE /status HTTP/1.1\r\nHost: localhost\r\n"
            + "Connection: close\r\n\r\n").status());
    }

    @Test
    void theCountersLiveInADeclaredSharedZone() {
        List<SharedZone> zones = jinx.cycle().sharedZones();
        SharedZone zone = zones.stream().filter(z -> z.name().equals("jinx_status")).findFirst().orElse(null);
        assertNotNull(zone, zones.toString());
        assertTrue(zone.isMapped());
        assertEquals("status", zone.tag());
        assertTrue(zone.slab().data() != 0, "the root is allocated by initModule");
    }

    @Test
    void badFormatIsRefused() throws Exception {
        try (JinxExtension bad = JinxExtension.create().module(StatusModule::new)
                 .server("location / { stub_status; status_format yaml; }")) {
            ConfException e = assertThrows(ConfException.class, bad::start);
            assertTrue(e.getMessage().startsWith("invalid value \"yaml\" in /"),
                e.getMessage());
        }
    }
}
