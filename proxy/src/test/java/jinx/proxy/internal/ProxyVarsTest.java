package jinx.proxy.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** {@link ProxyVars}: the {@code $upstream_*} lists per try, as nginx joins them, during and after the request. */
class ProxyVarsTest {

    @Test
    void nothingBeforeTheFirstTry() {
        ProxyVars v = new ProxyVars();
        assertNull(v.addr());
        assertNull(v.bytesSent());
        assertNull(v.responseLength());
    }

    @Test
    void twoTriesAreJoined() {
        ProxyVars v = new ProxyVars();
        v.addPeer("127.0.0.1:1");
        v.sent(80);
        v.failed(502);
        v.addPeer("127.0.0.1:2");
        v.connected(3);
        v.sent(90);
        v.received(120);
        v.header(5, 200);
        // while the try runs, nginx shows what it records at the end as 0
        assertEquals("80, 0", v.bytesSent());
        assertEquals("0, 0", v.responseLength());
        assertEquals("0, 120", v.bytesReceived());
        v.body(1000);
        v.received(1000);
        v.done(9);
        assertEquals("127.0.0.1:1, 127.0.0.1:2", v.addr());
        assertEquals("502, 200", v.status());
        assertEquals("80, 90", v.bytesSent());
        assertEquals("0, 1000", v.responseLength());
        assertEquals("0, 1120", v.bytesReceived());
    }
}
