package jinx.tls.internal.http;

import java.nio.ByteBuffer;

import jinx.http.ClientConnection;
import jinx.http.HttpRequest;
import jinx.http.spi.ConnectionTakeover;
import jinx.http.spi.HttpConfKey;
import jinx.kernel.ConfException;
import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.LogLevel;
import jinx.kernel.LoopLocal;
import jinx.kernel.Rc;
import jinx.kernel.os.Errors;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.tls.PeerCertificate;
import jinx.tls.SslContext;
import jinx.tls.SslException;
import jinx.tls.SslIo;

/**
 * A connection of a {@code listen ... ssl} address until its handshake is done: nginx's
 * {@code ngx_http_ssl_handshake()} (the first byte peeked: a TLS record starts the handshake, anything else is read
 * as plain HTTP and answered 497), {@code ngx_http_ssl_handshake_handler()} and {@code ngx_http_ssl_servername()}.
 */
final class HttpsHandshake implements ConnectionTakeover {

    /* one byte of scratch per loop thread for the MSG_PEEK (nginx's stack buffer) */
    private static final LoopLocal<ByteBuffer> PEEK = new LoopLocal<>(() -> ByteBuffer.allocateDirect(8));

    /* nginx's NGX_HTTPS_CERT_ERROR and NGX_HTTPS_NO_CERT, sent as 400 with their own pages */
    private static final int HTTPS_CERT_ERROR = 495;
    private static final int HTTPS_NO_CERT = 496;
    private static final int MISDIRECTED_REQUEST = 421;

    private final HttpConfKey<SslSrvConf> key;

    HttpsHandshake(HttpConfKey<SslSrvConf> key) {
        this.key = key;
    }

    @Override
    public void takeOver(ClientConnection hc) {
        Connection c = hc.connection();
        Event rev = c.read;
        if (rev.timedout) {
            hc.log(LogLevel.INFO, Errors.ETIMEDOUT, "client timed out");
            hc.close();
            return;
        }
        if (c.close) {
            hc.close();
            return;
        }
        int n;
        long peek = NativeMemory.address(PEEK.get());
        try {
            n = Sockets.recv(c.fd(), peek, 1, Platform.MSG_PEEK);
        } catch (NativeIoException e) {
            hc.log(LogLevel.INFO, e.errno(), "recv() failed");
            hc.close();
            return;
        }
        if (n == Rc.AGAIN) {
            rev.ready = false;
            if (!rev.timerSet()) {
                c.loop().addTimer(rev, hc.clientHeaderTimeout());
                c.loop().reusableConnection(c, true);
            }
            if (c.loop().handleReadEvent(rev, 0) != Rc.OK) {
                hc.close();
            }
            return;
        }
        if (n == 1) {
            byte b = NativeMemory.getByte(peek);
            if ((b & 0x80) != 0 || b == 0x16) {
                // SSLv2 or SSLv3/TLSv1 (nginx)
                handshake(hc, c);
                return;
            }
            // plain http request (nginx)
            hc.readRequest(false);
            return;
        }
        hc.log(LogLevel.INFO, 0, "client closed connection");
        hc.close();
    }

    private void handshake(ClientConnection hc, Connection c) {
        SslSrvConf sscf = hc.srvConf(key);
        if (sscf.ctx == null) {
            hc.log(LogLevel.ALERT, 0, "no \"ssl_certificate\" is defined for the server of this address");
            hc.close();
            return;
        }
        SslIo io;
        try {
            io = SslIo.accept(c, sscf.ctx, (int) sscf.bufferSize);
        } catch (SslException e) {
            hc.log(LogLevel.ALERT, 0, e.getMessage());
            hc.close();
            return;
        }
        c.loop().reusableConnection(c, false);
        int rc = io.handshake();
        if (rc == Rc.AGAIN) {
            if (!c.read.timerSet()) {
                c.loop().addTimer(c.read, hc.clientHeaderTimeout());
            }
            io.onHandshake(ev -> done(hc, io));
            return;
        }
        done(hc, io);
    }

    /** nginx's {@code ngx_http_ssl_handshake_handler()}. */
    private static void done(ClientConnection hc, SslIo io) {
        Connection c = hc.connection();
        if (io.handshaked()) {
            hc.readRequest(true);
            return;
        }
        if (c.read.timedout) {
            hc.log(LogLevel.INFO, Errors.ETIMEDOUT, "client timed out");
        }
        hc.close();
    }

    @Override
    public void checkDefaultServer(Object[] srvConfs, String file, int line) throws ConfException {
        SslSrvConf sscf = key.cast(srvConfs[key.ctxIndex()]);
        if (sscf == null || sscf.ctx == null && sscf.rejectHandshake != 1) {
            // nginx logs the place inside the message: the error itself has none
            throw new ConfException("no \"ssl_certificate\" is defined for the \"listen ... ssl\" directive in "
                                    + file + ":" + line);
        }
    }

    /**
     * nginx's client certificate checks in {@code ngx_http_process_request()}, after the one of a host other than the
     * name the client was verified for (421): a certificate that failed
     * verification gets 495 (unless {@code optional_no_ca} lets its error through), a missing one 496 with
     * {@code ssl_verify_client on}; either way the session is forgotten.
     */
    @Override
    public int processRequest(HttpRequest r) {
        SslSrvConf sscf = r.srvConf(key);
        if (sscf.verify == 0 || !(r.connection().io() instanceof SslIo io)) {
            return Rc.OK;
        }
        if (misdirected(r, io)) {
            r.log(LogLevel.INFO, 0, "client attempted to request the server name different from the one that was "
                                    + "negotiated");
            return MISDIRECTED_REQUEST;
        }
        long rc = io.verifyResult();
        if (rc != 0 && (sscf.verify != 3 || !PeerCertificate.optionalError(rc))) {
            r.log(LogLevel.INFO, 0, "client SSL certificate verify error: (" + rc + ":"
                                    + PeerCertificate.errorString(rc) + ")");
            io.removeSession();
            return HTTPS_CERT_ERROR;
        }
        if (sscf.verify == 1 && !PeerCertificate.present(io)) {
            r.log(LogLevel.INFO, 0, "client sent no required SSL certificate");
            io.removeSession();
            return HTTPS_NO_CERT;
        }
        return Rc.OK;
    }

    /**
     * nginx's check in {@code ngx_http_set_virtual_server()}: a client verified for the name it sent in the handshake
     * may not ask for another host of the address, since that server may verify otherwise.
     */
    private static boolean misdirected(HttpRequest r, SslIo io) {
        String host = r.hostInLine != null ? r.hostInLine : r.headersIn.host != null ? r.headersIn.host.value : null;
        return host != null && !io.serverName().isEmpty()
            && !hostName(io.serverName()).equalsIgnoreCase(hostName(host));
    }

    /** The name {@code ngx_http_validate_host()} keeps: no port, no trailing dot. */
    private static String hostName(String host) {
        String h = host;
        if (!h.startsWith("[")) {
            int colon = h.indexOf(':');
            if (colon >= 0) {
                h = h.substring(0, colon);
            }
        } else if (h.indexOf(']') > 0) {
            h = h.substring(0, h.indexOf(']') + 1);
        }
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }

    /**
     * nginx's {@code ngx_http_ssl_servername()}: the connection's server by the name, and that server's context
     * and buffer size.
     *
     * @param io the connection's TLS
     * @param name the name the client sent
     * @return the context to switch to, or null to keep the connection's
     */
    SslContext serverName(SslIo io, String name) {
        ClientConnection hc = ClientConnection.of(io.connection());
        if (hc == null || !hc.selectServer(name)) {
            return null;
        }
        SslSrvConf sscf = hc.srvConf(key);
        io.bufferSize((int) sscf.bufferSize);
        return sscf.ctx;
    }
}
