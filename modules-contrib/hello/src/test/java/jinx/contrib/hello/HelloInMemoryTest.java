package jinx.contrib.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import jinx.testkit.JinxExtension;
import jinx.testkit.Response;

/**
 * The {@code hello} module through the test kit's socketless mode: no descriptor, the loop turned by the test.
 * A new server for each test (the extension sits on an instance field).
 */
@Timeout(30)
class HelloInMemoryTest {

    @RegisterExtension
    final JinxExtension jinx = JinxExtension.create().inMemory()
        .module(HelloModule::new)
        .server("location / { hello \"in memory $request_uri\"; }");

    @Test
    void greetsInMemory() throws Exception {
        Response r = jinx.client().get("/x?y=1");
        assertEquals(200, r.status());
        assertEquals("in memory /x?y=1\n", r.body());
    }

    @Test
    void malformedRequestIsRefusedWith400AndLogged() throws Exception {
        String raw = jinx.client().exchange("GET /x HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n");
        assertTrue(raw.startsWith("HTTP/1.1 400 Bad Request\r\n"), raw);
        assertTrue(jinx.awaitLog("client sent invalid header line").contains("[info]"), jinx.errorLog());
    }
}
