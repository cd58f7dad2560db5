package jinx.contrib.echo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import jinx.testkit.JinxClient;
import jinx.testkit.JinxExtension;
import jinx.testkit.Response;

/**
 * The echo module in the kit's socketless mode: the test's thread turns the loop, so a sleeping request and
 * another one interleave on one thread, which only works if the sleep is a timer.
 */
@Timeout(60)
class EchoInMemoryTest {

    @RegisterExtension
    final JinxExtension jinx = JinxExtension.create().inMemory()
        .module(EchoModule::new)
        .server("location = /sleep { echo before; echo_flush; echo_sleep 0.5; echo after; }\n"
            + "location = /fast { echo fast; }\n"
            + "location = /exec { echo_exec /fast; }");

    @Test
    void sleepingAndServingOnOneThread() throws Exception {
        try (JinxClient.Session slow = jinx.client().open()) {
            slow.send("GET /sleep HTTP/1.1\r\nHost: localhost\r\n\r\n");
            Response fast = jinx.client().get("/fast");
            assertEquals("fast\n", fast.content());
            String partial = slow.readUntil("before\n");
            assertTrue(partial.contains("before\n"), partial);
            assertFalse(partial.contains("after"), "the flush came before the sleep ended: " + partial);
            Response r = slow.response();
            assertEquals("before\nafter\n", r.content());
            assertTrue(slow.received().contains("7\r\nbefore\n\r\n"), "flushed as its own chunk: " + slow.received());
        }
    }

    @Test
    void execInMemory() throws Exception {
        assertEquals("fast\n", jinx.client().get("/exec").content());
    }
}
