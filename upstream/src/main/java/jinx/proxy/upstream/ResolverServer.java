package jinx.proxy.upstream;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.EventConnect;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.PeerConnection;
import jinx.kernel.Rc;
import jinx.kernel.SocketIo;

/**
 * One name server of a resolver on one loop: nginx's {@code ngx_resolver_connection_t}, its UDP socket
 * ({@code ngx_resolver_send_udp_query()}, {@code ngx_resolver_udp_read()}) and its TCP connection for answers that
 * came truncated ({@code ngx_resolver_send_tcp_query()}, {@code ngx_resolver_tcp_write()},
 * {@code ngx_resolver_tcp_read()}: each message after a two-byte length). Both are outbound connections of the
 * kernel, on slots of the loop's table, and their lines carry nginx's context
 * ({@code recv() failed (111: Connection refused) while resolving, resolver: 127.0.0.1:53}).
 *
 * <p>Unlike nginx, which keeps the UDP socket for the worker's life, the sockets are closed once no query is in
 * flight ({@link #close}): an idle worker holds none (a graceful exit waits for no resolver socket), and the next
 * burst of queries leaves from a new random source port.
 */
final class ResolverServer implements PeerConnection.Source, SocketIo.LogContext {

    /** nginx's {@code NGX_RESOLVER_UDP_SIZE}. */
    static final int UDP_SIZE = 4096;
    /** nginx's {@code NGX_RESOLVER_TCP_WSIZE} and {@code NGX_RESOLVER_TCP_RSIZE}. */
    private static final int TCP_WSIZE = 8192;
    private static final int TCP_RSIZE = 2 + 65535;
    /** nginx's {@code tcp_timeout}: 5 seconds to connect. */
    private static final long TCP_TIMEOUT = 5000;

    private final ResolverLoop owner;
    private final EventLoop loop;
    private final InetSocketAddress address;
    final String name;
    private Connection udp;
    private Connection tcp;
    private boolean connecting;
    private ByteBuffer tcpOut;
    private ByteBuffer tcpIn;

    ResolverServer(ResolverLoop owner, EventLoop loop, InetSocketAddress address, String name) {
        this.owner = owner;
        this.loop = loop;
        this.address = address;
        this.name = name;
    }

    @Override
    public int get(PeerConnection pc) {
        pc.address = address;
        pc.name = name;
        return Rc.OK;
    }

    @Override
    public void free(PeerConnection pc, int state) {
    }

    @Override
    public void appendLogContext(StringBuilder message) {
        message.append(" while resolving, resolver: ").append(name);
    }

    /**
     * Sends a query.
     *
     * @return false when it could not be sent (logged; the caller tries the next server once)
     */
    boolean send(byte[] query, boolean overTcp) {
        return overTcp ? sendTcp(query) : sendUdp(query);
    }

    /** Closes both sockets. */
    void close() {
        closeUdp();
        closeTcp();
    }

    private Connection open(boolean datagram) {
        PeerConnection pc = new PeerConnection();
        pc.source = this;
        pc.datagram = datagram;
        pc.tries = 1;
        pc.log = loop.log();
        pc.logContext = this;
        int rc = EventConnect.connectPeer(loop, pc);
        if (rc != Rc.OK && rc != Rc.AGAIN) {
            return null;
        }
        if (!datagram) {
            connecting = rc == Rc.AGAIN;
        }
        return pc.connection;
    }

    private boolean sendUdp(byte[] query) {
        if (udp == null) {
            udp = open(true);
            if (udp == null) {
                return false;
            }
            udp.read.handler = this::readUdp;
            udp.write.handler = ev -> { };
        }
        ByteBuffer b = owner.buffer();
        b.clear();
        b.put(query).flip();
        int n = loop.socketIo().send(udp, b);
        if (n == Rc.ERROR) {
            closeUdp();
            return false;
        }
        if (n != query.length) {
            log(LogLevel.CRIT, "send() incomplete");
            closeUdp();
            return false;
        }
        return true;
    }

    private void readUdp(Event ev) {
        Connection c = udp;
        if (c == null) {
            return;
        }
        if (c.close) {
            closeUdp();
            return;
        }
        ByteBuffer b = owner.buffer();
        for (;;) {
            b.clear();
            int n = loop.socketIo().recvDatagram(c, b);
            if (n == Rc.AGAIN) {
                return;
            }
            if (n == Rc.ERROR) {
                closeUdp();
                return;
            }
            byte[] msg = new byte[n];
            b.get(0, msg);
            owner.process(msg, n, false);
            if (udp != c) {
                return;
            }
        }
    }

    private boolean sendTcp(byte[] query) {
        if (tcp == null) {
            tcp = open(false);
            if (tcp == null) {
                return false;
            }
            if (tcpOut == null) {
                tcpOut = ByteBuffer.allocateDirect(TCP_WSIZE);
                tcpIn = ByteBuffer.allocateDirect(TCP_RSIZE);
            }
            tcpOut.clear();
            tcpIn.clear();
            tcp.read.handler = this::readTcp;
            tcp.write.handler = this::writeTcp;
        }
        if (tcpOut.remaining() < 2 + query.length) {
            log(LogLevel.CRIT, "buffer overflow");
            return false;
        }
        tcpOut.putShort((short) query.length).put(query);
        if (connecting) {
            if (!tcp.write.timerSet()) {
                loop.addTimer(tcp.write, TCP_TIMEOUT);
            }
            return true;
        }
        return flush();
    }

    private void writeTcp(Event ev) {
        Connection c = tcp;
        if (c == null) {
            return;
        }
        if (ev.timedout) {
            log(LogLevel.ERROR, "DNS TCP connection timed out");
            closeTcp();
            return;
        }
        if (connecting) {
            if (ev.timerSet()) {
                loop.deleteTimer(ev);
            }
            if (EventConnect.testConnect(c) != Rc.OK) {
                closeTcp();
                return;
            }
            connecting = false;
        }
        flush();
    }

    private boolean flush() {
        tcpOut.flip();
        int n = tcpOut.hasRemaining() ? loop.socketIo().send(tcp, tcpOut) : 0;
        tcpOut.compact();
        if (n == Rc.ERROR) {
            closeTcp();
            return false;
        }
        return true;
    }

    private void readTcp(Event ev) {
        Connection c = tcp;
        if (c == null) {
            return;
        }
        if (c.close || connecting) {
            if (c.close) {
                closeTcp();
            }
            return;
        }
        for (;;) {
            if (!tcpIn.hasRemaining()) {
                // a length prefix caps a message at 65535 bytes and the buffer holds one: cannot fill
                closeTcp();
                return;
            }
            int n = loop.socketIo().recv(c, tcpIn);
            if (n == Rc.AGAIN) {
                return;
            }
            if (n == Rc.ERROR || n == 0) {
                closeTcp();
                return;
            }
            tcpIn.flip();
            while (tcpIn.remaining() >= 2) {
                int len = tcpIn.getShort(tcpIn.position()) & 0xffff;
                if (tcpIn.remaining() < 2 + len) {
                    break;
                }
                byte[] msg = new byte[len];
                tcpIn.position(tcpIn.position() + 2);
                tcpIn.get(msg);
                owner.process(msg, len, true);
                if (tcp != c) {
                    return;
                }
            }
            tcpIn.compact();
        }
    }

    private void log(LogLevel level, String message) {
        StringBuilder sb = new StringBuilder(message);
        appendLogContext(sb);
        loop.log().log(level, sb.toString());
    }

    private void closeUdp() {
        Connection c = udp;
        udp = null;
        if (c != null && c.fd() != -1) {
            loop.closeConnection(c);
        }
    }

    private void closeTcp() {
        Connection c = tcp;
        tcp = null;
        connecting = false;
        if (c != null && c.fd() != -1) {
            loop.closeConnection(c);
        }
    }
}
