package jinx.http.internal.request;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * {@link SocketlessRequestTest}'s cases over a UNIX-domain socket pair: the in-memory connection and a real socket
 * give the same bytes, the same closes and the same log lines.
 */
class SocketPairRequestTest extends SocketlessRequestTest {

    @Override
    protected LocalConnection connect() throws IOException {
        LocalConnection lc = f.connectSocketPair();
        assertNull(lc.memory(), "a socket pair");
        return lc;
    }
}
