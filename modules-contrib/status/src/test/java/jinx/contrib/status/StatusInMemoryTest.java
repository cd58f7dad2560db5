package jinx.contrib.status;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import jinx.testkit.JinxExtension;

/**
 * The status module in the kit's socketless mode: the shared zone exists there too, and in-memory connections
 * count as connections.
 */
@Timeout(60)
class StatusInMemoryTest {

    @RegisterExtension
    final JinxExtension jinx = JinxExtension.create().inMemory()
        .module(StatusModule::new)
        .server("location = /status { stub_status; }\nlocation / { return 200 \"x\"; }");

    @Test
    void countsInMemory() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertEquals("x", jinx.client().get("/page").body());
        }
        assertEquals("Active connections: 1 \nserver accepts handled requests\n 4 4 4 \n"
            + "Reading: 0 Writing: 1 Waiting: 0 \n", jinx.client().get("/status").body());
    }
}
