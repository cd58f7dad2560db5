package jinx.kernel;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;

/**
 * A listening datagram socket in one loop: nginx's {@code ngx_event_recvmsg()} and the session tree of
 * {@code ngx_lookup_udp_connection()} / {@code ngx_insert_udp_connection()} (src/event/ngx_event_udp.c). Each read
 * event takes datagrams until the socket is empty (one with {@code multi_accept off}); a datagram from a known
 * client goes to its session's read handler, one from a new client takes a slot (or is dropped when none is free:
 * {@code worker_connections} bounds the sessions, whatever the number of source addresses) and goes to the
 * listening socket's handler. Sessions are keyed by the client's address; a wildcard listening socket does not ask
 * for the local address of each datagram ({@code IP_PKTINFO}), a departure: its replies leave from the address the
 * kernel routes from.
 */
final class DatagramListener {

    /** nginx's receive buffer: {@code static u_char buffer[65535]}. */
    static final int MAX_DATAGRAM = 65535;
    private static final int SOCKADDR_SIZE = Platform.SIZEOF_SOCKADDR_STORAGE;

    private final EventLoop loop;
    private final EventAccept accept;
    private final Map<Key, DatagramIo> sessions = new HashMap<>();
    private final NativeMemory memory = new NativeMemory();
    private final long buffer;
    private final long sendBuffer;
    private final long sockaddr;
    private final long socklen;
    private final long peerScratch;
    private final long msgScratch;
    /** The lookup key, refilled for every datagram: a known client's datagram allocates nothing. */
    private final Key probe = new Key(new byte[SOCKADDR_SIZE], 0);

    DatagramListener(EventLoop loop, EventAccept accept) {
        this.loop = loop;
        this.accept = accept;
        this.buffer = memory.allocate(MAX_DATAGRAM);
        this.sendBuffer = memory.allocate(MAX_DATAGRAM);
        this.sockaddr = memory.allocate(SOCKADDR_SIZE);
        this.socklen = memory.allocate(8);
        this.peerScratch = memory.allocate(SOCKADDR_SIZE);
        this.msgScratch = memory.allocate(Sockets.DATAGRAM_SCRATCH);
    }

    /** nginx's {@code ngx_event_recvmsg()}. */
    void recv(Event ev, boolean multi) {
        Connection lc = ev.connection();
        Listening ls = lc.listening;
        ev.available = multi ? 1 : 0;
        do {
            int n;
            try {
                n = Sockets.recvfrom(ls.fd(), buffer, MAX_DATAGRAM, sockaddr, socklen, msgScratch);
            } catch (NativeIoException e) {
                ev.log.log(LogLevel.ALERT, e.getMessage());
                return;
            }
            if (n == Rc.AGAIN) {
                return;
            }
            int len = Math.min(NativeMemory.getInt(socklen), SOCKADDR_SIZE);
            probe.fill(sockaddr, len);
            DatagramIo io = sessions.get(probe);
            if (io != null) {
                deliver(io, n);
                continue;
            }
            if (!open(ls, n, len)) {
                return;
            }
        } while (ev.available > 0);
    }

    /** A known client's datagram: readable during the session's read handler only. */
    private void deliver(DatagramIo io, int n) {
        Connection c = io.connection;
        Event rev = c.read;
        io.pendingAddress = buffer;
        io.pendingLength = n;
        rev.ready = true;
        rev.handler.handle(rev);
        io.pendingLength = -1;
        if (c.io() == io) {
            rev.ready = false;
        }
    }

    /** A new client: a slot, the session in the table, the listening socket's handler with the first datagram. */
    private boolean open(Listening ls, int n, int len) {
        accept.disableFor(loop.connectionCount() / 8 - loop.freeConnectionCount());
        Connection c = loop.getConnection(Connection.NO_DESCRIPTOR, ls.log != null ? ls.log : loop.log());
        if (c == null) {
            return false;
        }
        byte[] peer = new byte[len];
        NativeMemory.get(sockaddr, peer, 0, len);
        Key key = new Key(peer, len);
        DatagramIo io = new DatagramIo(this, key, peer, c);
        c.io(io);
        c.listening = ls;
        c.number = loop.nextConnectionNumber();
        c.peer(sockaddr, len);
        // registered from the start as nginx's recvmsg marks it (rev->active): the loop posts its datagrams
        c.read.active = true;
        c.write.active = true;
        c.write.ready = true;
        sessions.put(key, io);
        if (c.log.isEnabled(LogLevel.DEBUG)) {
            c.log.log(LogLevel.DEBUG, c.number, "recvmsg: " + c.addrText() + " fd:" + ls.fd() + " n:" + n);
        }
        io.pendingAddress = buffer;
        io.pendingLength = n;
        c.read.ready = true;
        ls.handler.accept(c);
        io.pendingLength = -1;
        if (c.io() == io) {
            c.read.ready = false;
        }
        return true;
    }

    void remove(DatagramIo io) {
        sessions.remove(io.key, io);
    }

    /** The session count, for tests. */
    int sessions() {
        return sessions.size();
    }

    /** The client's address copied to native memory for {@code sendto()}. */
    long peerScratch(byte[] peer) {
        NativeMemory.put(peerScratch, peer, 0, peer.length);
        return peerScratch;
    }

    long msgScratch() {
        return msgScratch;
    }

    long sendScratch() {
        return sendBuffer;
    }

    void close() {
        memory.close();
    }

    /** A client's {@code struct sockaddr} as bytes: the table's key. */
    static final class Key {
        private final byte[] bytes;
        private int length;
        private int hash;

        Key(byte[] bytes, int length) {
            this.bytes = bytes;
            this.length = length;
            this.hash = hash(bytes, length);
        }

        void fill(long address, int len) {
            NativeMemory.get(address, bytes, 0, len);
            length = len;
            hash = hash(bytes, len);
        }

        private static int hash(byte[] b, int len) {
            int h = 1;
            for (int i = 0; i < len; i++) {
                h = 31 * h + b[i];
            }
            return h;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.length == length && Arrays.equals(bytes, 0, length, k.bytes, 0, length);
        }
    }
}
