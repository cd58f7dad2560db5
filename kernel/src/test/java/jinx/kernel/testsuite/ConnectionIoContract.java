package jinx.kernel.testsuite;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.ConnectionIo;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeMemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link ConnectionIo} does, as its Javadoc states it, run against each implementation over a real peer
 * (the socket's, TLS's): reads move the position and keep {@code read.ready} and {@code read.eof}, writes move the
 * position and count {@link Connection#sent}, a chain is consumed and comes back null once sent, or from the first
 * link not sent with {@code write.ready} cleared once the peer stops taking, and a limit is kept.
 */
@Timeout(value = 30, threadMode = ThreadMode.SEPARATE_THREAD)
public abstract class ConnectionIoContract {

    private final NativeMemory memory = new NativeMemory();

    /** The connection under test, its events ready. */
    protected Connection c;

    /**
     * Opens a connection whose {@link Connection#io()} is the implementation, its peer connected, both events
     * ready.
     *
     * @return the connection
     * @throws IOException when it cannot be set up
     */
    protected abstract Connection open() throws IOException;

    /**
     * The peer sends bytes; they can be read once this returns.
     *
     * @param data the bytes
     * @throws IOException on failure
     */
    protected abstract void peerWrite(byte[] data) throws IOException;

    /**
     * The peer reads what has arrived so far.
     *
     * @return the bytes
     * @throws IOException on failure
     */
    protected abstract byte[] peerRead() throws IOException;

    /**
     * The peer ends its output (the end of the stream the connection reads).
     *
     * @throws IOException on failure
     */
    protected abstract void peerClose() throws IOException;

    /**
     * Frees the peer and anything else the implementation's setup made; the connection is closed before.
     */
    protected abstract void closePeer();

    @BeforeEach
    void openConnection() throws IOException {
        c = open();
    }

    @AfterEach
    void closeConnection() {
        if (c != null && c.fd() != -1) {
            c.close();
        }
        closePeer();
        memory.close();
    }

    /**
     * A direct buffer holding {@code s}.
     *
     * @param s the text
     * @return the buffer, flipped for reading
     */
    protected ByteBuffer direct(String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer buf = NativeMemory.view(memory.allocate(Math.max(1, b.length)), Math.max(1, b.length));
        buf.put(b).flip();
        return buf;
    }

    /**
     * An empty direct buffer.
     *
     * @param size its size
     * @return the buffer
     */
    protected ByteBuffer room(int size) {
        return NativeMemory.view(memory.allocate(size), size);
    }

    private static String text(ByteBuffer b) {
        ByteBuffer d = b.duplicate().flip();
        byte[] a = new byte[d.remaining()];
        d.get(a);
        return new String(a, StandardCharsets.ISO_8859_1);
    }

    @Test
    void recvReadsWhatThePeerSentAndMovesThePosition() throws IOException {
        peerWrite("hello".getBytes(StandardCharsets.ISO_8859_1));
        ByteBuffer b = room(100);
        assertEquals(5, c.io().recv(c, b));
        assertEquals("hello", text(b));
    }

    @Test
    void recvOfNothingIsAgainAndClearsReady() {
        ByteBuffer b = room(100);
        assertEquals(Rc.AGAIN, c.io().recv(c, b));
        assertFalse(c.read.ready);
        assertEquals(0, b.position());
    }

    @Test
    void recvAtTheEndOfTheStreamIsZeroAndSetsEof() throws IOException {
        peerClose();
        assertEquals(0, c.io().recv(c, room(100)));
        assertTrue(c.read.eof);
        assertFalse(c.read.ready);
    }

    @Test
    void recvThatFillsTheBufferKeepsReady() throws IOException {
        peerWrite("0123456789".getBytes(StandardCharsets.ISO_8859_1));
        ByteBuffer b = room(4);
        assertEquals(4, c.io().recv(c, b));
        assertTrue(c.read.ready, "the rest may still be there");
        ByteBuffer rest = room(100);
        assertEquals(6, c.io().recv(c, rest));
        assertEquals("456789", text(rest));
    }

    @Test
    void sendWritesMovesThePositionAndCountsSent() throws IOException {
        ByteBuffer b = direct("abc");
        assertEquals(3, c.io().send(c, b));
        assertEquals(3, b.position());
        assertEquals(3, c.sent);
        assertEquals("abc", new String(peerRead(), StandardCharsets.ISO_8859_1));
    }

    @Test
    void sendChainSendsEveryBufferAndSkipsFlags() throws IOException {
        Buf flush = new Buf();
        flush.flush = true;
        Buf a = Buf.of(direct("GET "));
        Buf b = Buf.of(direct("/ "));
        Buf d = Buf.of(direct("HTTP/1.1"));
        BufChain chain = new BufChain(a, new BufChain(b, new BufChain(flush, new BufChain(d, null))));
        assertNull(c.io().sendChain(c, chain, 0));
        assertEquals(0, a.size() + b.size() + d.size());
        assertEquals(14, c.sent);
        assertEquals("GET / HTTP/1.1", new String(peerRead(), StandardCharsets.ISO_8859_1));
    }

    @Test
    void sendChainKeepsTheLimit() throws IOException {
        Buf a = Buf.of(direct("0123456789"));
        BufChain chain = new BufChain(a, null);
        BufChain rest = c.io().sendChain(c, chain, 4);
        assertNotNull(rest);
        assertEquals(6, a.size());
        assertEquals("0123", new String(peerRead(), StandardCharsets.ISO_8859_1));
    }

    @Test
    void sendChainToAPeerThatStopsTakingClearsWriteReady() throws IOException {
        ByteBuffer big = room(1 << 20);
        big.limit(big.capacity());
        Buf b = Buf.of(big);
        BufChain rest = null;
        for (int i = 0; i < 64 && c.write.ready; i++) {
            big.position(0);
            rest = c.io().sendChain(c, new BufChain(b, null), 0);
            if (rest != null) {
                break;
            }
        }
        assertNotNull(rest, "a peer that reads nothing takes less than 64 MiB");
        assertFalse(c.write.ready);
        assertTrue(c.sent > 0);
    }

    @Test
    void manyRoundTrips() throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        for (int i = 0; i < 50; i++) {
            String m = "message " + i + ";";
            peerWrite(m.getBytes(StandardCharsets.ISO_8859_1));
            ByteBuffer b = room(64);
            assertEquals(m.length(), c.io().recv(c, b));
            assertEquals(m.length(), c.io().send(c, direct(m)));
            got.write(peerRead());
        }
        assertTrue(got.toString(StandardCharsets.ISO_8859_1).startsWith("message 0;message 1;"));
        assertTrue(got.toString(StandardCharsets.ISO_8859_1).endsWith("message 49;"));
    }
}
