package jinx.stream.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jinx.kernel.Connection;
import jinx.kernel.DatagramIo;
import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.SocketIo;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamVariable;

/**
 * A session: nginx's {@code ngx_stream_session_t}, with the log context of {@code ngx_stream_log_error()}
 * ({@code while ACTION, client: ADDR, server: LISTEN}) and what the proxy adds to it.
 */
final class Session implements StreamSession, SocketIo.LogContext {

    final Connection c;
    final StreamBlock block;
    final StreamCoreSrvConf cscf;
    final ListenOpt addr;
    final long startMillis;
    /** A UDP session of a listening datagram socket (nginx's {@code c->type == SOCK_DGRAM}). */
    final boolean udp;
    int status;
    int phaseHandler;
    /** The preread buffer (nginx's {@code c->buffer}), or null. */
    ByteBuffer preread;
    /** What {@code ssl_preread} read of the ClientHello, or null. */
    SslPreread sslPreread;
    /** The proxy of this session, or null: its part of the log context and of the variables. */
    StreamProxy upstream;
    /** The upstream tries, for the {@code $upstream_*} variables. */
    final List<UpstreamState> states = new ArrayList<>(1);
    Map<String, String> setVariables;
    /** {@code $limit_conn_status}, or null. */
    String limitConnStatus;
    private List<Runnable> cleanups;
    /** The connection's own address and port once {@code set_real_ip_from} replaced them, or null and 0. */
    String realipAddr;
    int realipPort;
    /** The PROXY protocol's source address and port, destination address and port, or null. */
    String[] proxyProtocol;
    /** How many times {@code pass} handed this connection on before this session (nginx's pass cycle count). */
    int passes;
    private long received;
    private String action;
    private String remoteAddr;
    private boolean finalized;

    Session(Connection c, StreamBlock block, ListenOpt addr) {
        this.c = c;
        this.block = block;
        this.addr = addr;
        this.cscf = addr.server;
        this.startMillis = c.loop().wallMillis();
        this.udp = DatagramIo.isDatagram(c);
    }

    /** A module's server conf for this session. */
    Object srvConf(int typeIndex) {
        return cscf.ctx[typeIndex];
    }

    @Override
    public Connection connection() {
        return c;
    }

    @Override
    public String remoteAddr() {
        String r = remoteAddr;
        if (r == null) {
            r = addrWithoutPort(c.addrText());
            remoteAddr = r;
        }
        return r;
    }

    /** The client's address as {@code realip} found it ({@code 192.0.2.1:51000}): the session's from now on. */
    void realAddress(String text) {
        c.addrText(text);
        remoteAddr = null;
    }

    int remotePort() {
        String t = c.addrText();
        if (t == null || t.startsWith("unix:")) {
            return 0;
        }
        int colon = t.lastIndexOf(':');
        if (colon < 0 || (t.startsWith("[") && colon < t.indexOf(']'))) {
            return 0;
        }
        return Integer.parseInt(t.substring(colon + 1));
    }

    static String addrWithoutPort(String t) {
        if (t == null) {
            return "";
        }
        if (t.startsWith("unix:")) {
            return "unix:";
        }
        if (t.startsWith("[")) {
            int end = t.indexOf(']');
            return end < 0 ? t : t.substring(1, end);
        }
        int colon = t.lastIndexOf(':');
        return colon < 0 ? t : t.substring(0, colon);
    }

    @Override
    public boolean listenParameter(String name) {
        return addr.parameters.contains(name);
    }

    @Override
    public <T> T srvConf(jinx.kernel.spi.JinxModule module, Class<T> type) {
        return type.cast(cscf.ctx[block.indexOf(module)]);
    }

    @Override
    public void runPhases() {
        SessionHandler.runPhases(this);
    }

    @Override
    public long received() {
        return received;
    }

    @Override
    public void addReceived(long n) {
        received += n;
    }

    @Override
    public String variable(String name) {
        StreamVariable v = block.variables.get(name);
        return v == null ? null : v.get(this);
    }

    @Override
    public void logAction(String a) {
        action = a;
    }

    @Override
    public void log(LogLevel level, int err, String message) {
        ErrorLog l = c.log;
        if (l == null || !l.isEnabled(level)) {
            return;
        }
        StringBuilder sb = new StringBuilder(message.length() + 128).append(message);
        if (err != 0) {
            sb.append(" (").append(err).append(": ").append(ErrorLog.strerror(err)).append(')');
        }
        appendLogContext(sb);
        l.log(level, c.number, sb.toString());
    }

    /** A line without the context, as nginx logs with {@code c->log->handler = NULL}. */
    void logBare(LogLevel level, String message) {
        if (c.log != null) {
            c.log.log(level, c.number, message);
        }
    }

    @Override
    public void appendLogContext(StringBuilder sb) {
        if (action != null) {
            sb.append(" while ").append(action);
        }
        sb.append(udp ? ", udp client: " : ", client: ").append(remoteAddr()).append(", server: ")
            .append(c.listening.addrText());
        if (upstream != null) {
            upstream.appendLogContext(sb);
        }
    }

    @Override
    public void finalizeSession(int rc) {
        if (finalized) {
            return;
        }
        finalized = true;
        status = rc;
        if (upstream != null) {
            upstream.release();
        }
        PhaseEngine engine = block.engine;
        for (var h : engine.log) {
            h.handle(this);
        }
        if (cleanups != null) {
            for (Runnable r : cleanups) {
                r.run();
            }
        }
        c.close();
    }

    /** Runs when the session ends, after the log phase (nginx's pool cleanups). */
    void addCleanup(Runnable r) {
        if (cleanups == null) {
            cleanups = new ArrayList<>(2);
        }
        cleanups.add(r);
    }

    boolean finalized() {
        return finalized;
    }

    /** One try of the upstream: nginx's {@code ngx_stream_upstream_state_t}. */
    static final class UpstreamState {
        String peer;
        long connectTime = -1;
        long firstByteTime = -1;
        long responseTime = -1;
        long bytesSent;
        long bytesReceived;
    }
}
