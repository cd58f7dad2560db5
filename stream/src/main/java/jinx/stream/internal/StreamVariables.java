package jinx.stream.internal;

import java.net.InetAddress;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

import jinx.kernel.ConfException;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.SockAddr;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamConfig;

/**
 * The core variables of a stream session, nginx's {@code ngx_stream_core_variables} (ngx_stream_variables.c), and
 * the upstream's ({@code ngx_stream_upstream_vars} of ngx_stream_upstream.c).
 */
final class StreamVariables {

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z",
        Locale.ROOT);
    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxxx",
        Locale.ROOT);
    private static final String HOSTNAME = hostname();

    private StreamVariables() {
    }

    static void addCore(StreamConfig cf) throws ConfException {
        cf.addVariable("binary_remote_addr", StreamVariables::binaryRemoteAddr);
        cf.addVariable("remote_addr", StreamSession::remoteAddr);
        cf.addVariable("remote_port", s -> port(((Session) s).remotePort()));
        cf.addVariable("proxy_protocol_addr", s -> proxyProtocol(s, 0));
        cf.addVariable("proxy_protocol_port", s -> proxyProtocol(s, 1));
        cf.addVariable("proxy_protocol_server_addr", s -> proxyProtocol(s, 2));
        cf.addVariable("proxy_protocol_server_port", s -> proxyProtocol(s, 3));
        cf.addVariable("server_addr", s -> serverAddr(s, false));
        cf.addVariable("server_port", s -> serverAddr(s, true));
        cf.addVariable("bytes_sent", s -> Long.toString(s.connection().sent));
        cf.addVariable("bytes_received", s -> Long.toString(s.received()));
        cf.addVariable("session_time", s -> msec(s.connection().loop().wallMillis() - ((Session) s).startMillis));
        cf.addVariable("status", s -> String.format("%03d", ((Session) s).status));
        cf.addVariable("connection", s -> Long.toString(s.connection().number));
        cf.addVariable("nginx_version", s -> "1.22.1");
        cf.addVariable("hostname", s -> HOSTNAME);
        cf.addVariable("pid", s -> Long.toString(ProcessHandle.current().pid()));
        cf.addVariable("msec", s -> msec(s.connection().loop().wallMillis()));
        cf.addVariable("time_iso8601", s -> ISO.format(now(s)));
        cf.addVariable("time_local", s -> LOCAL.format(now(s)));
        cf.addVariable("protocol", s -> ((Session) s).udp ? "UDP" : "TCP");
    }

    static void addUpstream(StreamConfig cf) throws ConfException {
        cf.addVariable("upstream_addr", s -> states((Session) s, 0));
        cf.addVariable("upstream_bytes_sent", s -> states((Session) s, 1));
        cf.addVariable("upstream_bytes_received", s -> states((Session) s, 2));
        cf.addVariable("upstream_connect_time", s -> states((Session) s, 3));
        cf.addVariable("upstream_first_byte_time", s -> states((Session) s, 4));
        cf.addVariable("upstream_session_time", s -> states((Session) s, 5));
    }

    private static ZonedDateTime now(StreamSession s) {
        return ZonedDateTime.ofInstant(java.time.Instant.ofEpochMilli(s.connection().loop().wallMillis()),
            java.time.ZoneId.systemDefault());
    }

    /** nginx's {@code "%T.%03M"}. */
    static String msec(long ms) {
        long m = Math.max(ms, 0);
        return m / 1000 + "." + (m % 1000 < 100 ? m % 1000 < 10 ? "00" : "0" : "") + m % 1000;
    }

    private static String port(int p) {
        return p == 0 ? "" : Integer.toString(p);
    }

    private static String proxyProtocol(StreamSession s, int i) {
        String[] pp = ((Session) s).proxyProtocol;
        return pp == null ? null : pp[i];
    }

    private static String binaryRemoteAddr(StreamSession s) {
        try {
            byte[] a = InetAddress.getByName(s.remoteAddr()).getAddress();
            return new String(a, java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }

    private static String serverAddr(StreamSession s, boolean port) {
        SockAddr local;
        try {
            local = s.connection().localSockaddr();
        } catch (NativeIoException e) {
            s.log(jinx.kernel.LogLevel.CRIT, 0, e.getMessage());
            return null;
        }
        if (local == null) {
            return null;
        }
        if (port) {
            return local.isUnix() ? "" : Integer.toString(local.port());
        }
        if (local.isUnix()) {
            return "unix:";
        }
        return Session.addrWithoutPort(local.toString());
    }

    /** The tries joined with {@code ", "}: nginx's {@code ngx_stream_upstream_*_variable()}. */
    private static String states(Session s, int what) {
        if (s.states.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.states.size(); i++) {
            Session.UpstreamState st = s.states.get(i);
            if (i > 0) {
                sb.append(", ");
            }
            switch (what) {
                case 0 -> sb.append(st.peer);
                case 1 -> sb.append(st.bytesSent);
                case 2 -> sb.append(st.bytesReceived);
                case 3 -> sb.append(st.connectTime < 0 ? "-" : msec(st.connectTime));
                case 4 -> sb.append(st.firstByteTime < 0 ? "-" : msec(st.firstByteTime));
                default -> sb.append(st.responseTime < 0 ? "-" : msec(st.responseTime));
            }
        }
        return sb.toString();
    }

    private static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "localhost";
        }
    }
}
