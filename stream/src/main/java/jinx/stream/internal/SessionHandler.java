package jinx.stream.internal;

import java.nio.ByteBuffer;

import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.SockAddr;
import jinx.stream.StreamPhase;
import jinx.stream.StreamSession;

/**
 * A new connection on a stream listening socket, through the phases: nginx's {@code ngx_stream_init_connection()},
 * {@code ngx_stream_init_session_handler()}, {@code ngx_stream_core_run_phases()} with the generic, preread and
 * content checkers of ngx_stream_core_module.c.
 */
final class SessionHandler {

    /** The longest datagram: nginx's receive buffer of 65535 bytes. */
    static final int DATAGRAM_MAX = 65535;

    private final StreamBlock block;

    SessionHandler(StreamBlock block) {
        this.block = block;
    }

    /** nginx's {@code ngx_stream_init_connection()}. */
    void init(Connection c) {
        StreamListen.AddrConfs port = (StreamListen.AddrConfs) c.listening.servers;
        SockAddr local = null;
        if (port.addrs().size() > 1) {
            try {
                local = c.localSockaddr();
            } catch (NativeIoException e) {
                c.log.log(LogLevel.CRIT, c.number, e.getMessage());
                c.close();
                return;
            }
        }
        ListenOpt addr = port.find(local);
        Session s = new Session(c, block, addr);
        if (c.data instanceof StreamPassModule.Passes p) {
            s.passes = p.count();
        }
        c.data = s;
        if (addr.server.errorLog != null) {
            // nginx's ngx_set_connection_log(): the server's error_log from here on
            c.log = addr.server.errorLog;
            c.read.log = c.log;
            c.write.log = c.log;
        }
        // nginx logs this before the connection's log has its handler: no context, the number in the text
        if (c.log.isEnabled(LogLevel.INFO)) {
            String client = s.udp ? " udp client " : " client ";
            c.log.log(LogLevel.INFO, 0, "*" + c.number + client + c.addrText() + " connected to "
                + addr.addrText);
        }
        if (s.udp) {
            firstDatagram(s);
        }
        s.logAction("initializing connection");
        c.read.handler = ev -> sessionHandler(s);
        c.write.handler = ev -> { };
        if (addr.proxyProtocol) {
            ProxyProtocolReader.start(s);
            return;
        }
        initSession(s);
    }

    /**
     * A UDP session's first datagram, readable now only: it becomes the preread data (nginx's {@code c->buffer},
     * counted in {@code s->received}), which the proxy sends first.
     */
    private static void firstDatagram(Session s) {
        Connection c = s.c;
        ByteBuffer scratch = StreamBuffers.take(DATAGRAM_MAX);
        int n = c.io().recv(c, scratch);
        if (n >= 0) {
            // a pooled buffer of preread_buffer_size when the datagram fits: a session allocates no direct memory
            int size = (int) s.cscf.prereadBufferSize;
            if (n <= size) {
                ByteBuffer pre = StreamBuffers.take(size);
                s.addCleanup(() -> StreamBuffers.give(pre));
                s.preread = pre;
            } else {
                s.preread = ByteBuffer.allocateDirect(n);
            }
            s.preread.put(scratch.flip());
            s.addReceived(n);
        }
        StreamBuffers.give(scratch);
    }

    /** nginx's {@code ngx_stream_init_session_handler()}. */
    static void initSession(Session s) {
        s.logAction("initializing session");
        s.phaseHandler = 0;
        runPhases(s);
    }

    private static void sessionHandler(Session s) {
        runPhases(s);
    }

    /** nginx's {@code ngx_stream_core_run_phases()}: the checkers until one answers OK (stop here). */
    static void runPhases(Session s) {
        PhaseEngine e = s.block.engine;
        while (!s.finalized()) {
            int i = s.phaseHandler;
            if (i >= e.handlers.length) {
                content(s);
                return;
            }
            int rc = e.phaseOf[i] == StreamPhase.PREREAD ? prereadPhase(s, e, i) : genericPhase(s, e, i);
            if (rc == Rc.OK) {
                return;
            }
        }
    }

    /** nginx's {@code ngx_stream_core_generic_phase()}. */
    private static int genericPhase(Session s, PhaseEngine e, int i) {
        int rc = e.handlers[i].handle(s);
        if (rc == Rc.OK) {
            s.phaseHandler = e.next[i];
            return Rc.AGAIN;
        }
        if (rc == Rc.DECLINED) {
            s.phaseHandler++;
            return Rc.AGAIN;
        }
        if (rc == Rc.AGAIN || rc == Rc.DONE) {
            return Rc.OK;
        }
        s.finalizeSession(rc == Rc.ERROR ? StreamSession.STATUS_INTERNAL_SERVER_ERROR : rc);
        return Rc.OK;
    }

    /** nginx's {@code ngx_stream_core_preread_phase()} with {@code ngx_stream_preread()} (no MSG_PEEK). */
    private static int prereadPhase(Session s, PhaseEngine e, int i) {
        Connection c = s.c;
        EventLoop loop = c.loop();
        s.logAction("prereading client data");
        int rc;
        if (c.read.timedout) {
            rc = StreamSession.STATUS_OK;
        } else {
            rc = Rc.AGAIN;
            if (!c.read.timerSet()) {
                rc = e.handlers[i].handle(s);
            }
            if (rc == Rc.AGAIN) {
                rc = preread(s, e, i);
            }
        }
        if (rc == Rc.AGAIN) {
            if (loop.handleReadEvent(c.read, 0) != Rc.OK) {
                s.finalizeSession(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
                return Rc.OK;
            }
            if (!c.read.timerSet()) {
                loop.addTimer(c.read, s.cscf.prereadTimeout);
            }
            return Rc.OK;
        }
        loop.deleteTimer(c.read);
        if (rc == Rc.OK) {
            s.phaseHandler = e.next[i];
            return Rc.AGAIN;
        }
        if (rc == Rc.DECLINED) {
            s.phaseHandler++;
            return Rc.AGAIN;
        }
        if (rc == Rc.DONE) {
            return Rc.OK;
        }
        s.finalizeSession(rc == Rc.ERROR ? StreamSession.STATUS_INTERNAL_SERVER_ERROR : rc);
        return Rc.OK;
    }

    private static int preread(Session s, PhaseEngine e, int i) {
        Connection c = s.c;
        if (s.preread == null) {
            s.preread = ByteBuffer.allocateDirect((int) s.cscf.prereadBufferSize);
        }
        ByteBuffer b = s.preread;
        while (c.read.ready) {
            int n = c.io().recv(c, b);
            if (n == Rc.AGAIN) {
                return Rc.AGAIN;
            }
            if (n == Rc.ERROR || n == 0) {
                return StreamSession.STATUS_OK;
            }
            s.addReceived(n);
            int rc = e.handlers[i].handle(s);
            if (rc != Rc.AGAIN) {
                return rc;
            }
            if (!b.hasRemaining()) {
                s.log(LogLevel.ERROR, 0, "preread buffer full");
                return StreamSession.STATUS_BAD_REQUEST;
            }
        }
        return Rc.AGAIN;
    }

    /** nginx's {@code ngx_stream_core_content_phase()}. */
    private static void content(Session s) {
        Connection c = s.c;
        s.logAction(null);
        if (s.cscf.tcpNodelay == 1 && !c.unixPeer() && c.hasDescriptor()
            && c.loop().socketIo().tcpNodelay(c) != Rc.OK) {
            s.finalizeSession(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
            return;
        }
        s.cscf.handler.accept(s);
    }

    /** The read handler a phase that waits leaves on the connection. */
    static void resume(Event ev) {
        runPhases((Session) ((Connection) ev.data).data);
    }
}
