package jinx.tls;

import java.nio.charset.StandardCharsets;
import java.util.List;

import jinx.kernel.os.NativeMemory;
import jinx.tls.bind.LibSsl;
import jinx.tls.bind.SslCallbacks;
import jinx.tls.internal.OpenSsl;

/**
 * A server's or a client's {@code SSL_CTX} and what nginx sets on it: {@code ngx_ssl_create()} (protocols, modes, options),
 * {@code ngx_ssl_certificate()}, {@code ngx_ssl_ciphers()}, {@code ngx_ssl_ecdh_curve()},
 * {@code ngx_ssl_session_cache()}, {@code ngx_ssl_session_ticket_keys()} and {@code ngx_ssl_conf_commands()}
 * (src/event/ngx_event_openssl.c). Each failure is an {@link SslException} worded as nginx's {@code [emerg]} line.
 *
 * <p>The callbacks (server name, ALPN) are jnr-ffi stubs this object holds for as long as the context lives: a
 * stub collected while OpenSSL still points at it would crash the worker. Made and configured while the
 * configuration is read; used read-only by the loops afterwards; {@link #close()} frees the {@code SSL_CTX} when the
 * cycle goes.
 */
public final class SslContext implements AutoCloseable {

    /** {@code ssl_protocols}' bits, nginx's {@code NGX_SSL_TLSv1} and kin. */
    public static final int TLSV1 = 0x8;
    /** {@code TLSv1.1}. */
    public static final int TLSV1_1 = 0x10;
    /** {@code TLSv1.2}. */
    public static final int TLSV1_2 = 0x20;
    /** {@code TLSv1.3}. */
    public static final int TLSV1_3 = 0x40;
    /** {@code SSLv3}. */
    public static final int SSLV3 = 0x4;
    /** {@code SSLv2}: known, never available in OpenSSL 3. */
    public static final int SSLV2 = 0x2;

    /** {@code ssl_session_cache off}: nginx's {@code NGX_SSL_NO_SCACHE}. */
    public static final int CACHE_OFF = -2;
    /** {@code ssl_session_cache none}: nginx's {@code NGX_SSL_NONE_SCACHE}. */
    public static final int CACHE_NONE = -3;
    /** A shared cache alone, without OpenSSL's own: nginx's {@code NGX_SSL_NO_BUILTIN_SCACHE}. */
    public static final int CACHE_NO_BUILTIN = -4;
    /** {@code builtin} without a size: nginx's {@code NGX_SSL_DFLT_BUILTIN_SCACHE}. */
    public static final int CACHE_BUILTIN_DEFAULT = -5;

    private final LibSsl lib = OpenSsl.ssl();
    private long ctx;
    private long options;
    private SslCallbacks.ServerName serverNameStub;
    private SslCallbacks.AlpnSelect alpnStub;
    private SslCallbacks.Verify verifyStub;
    private SslCallbacks.WithArg statusStub;
    private SslCallbacks.WithArg certificateStub;
    private boolean rejectHandshake;
    /** The shared session cache's callbacks, held while the context lives. */
    private Object sharedCallbacks;
    private TicketKeys ticketKeys;
    private final boolean client;
    /** A client context's sessions to offer again, kept per key (peer): nginx's {@code peer->ssl_session}. */
    private ClientSessions sessions;

    private SslContext(long ctx, boolean client) {
        this.ctx = ctx;
        this.client = client;
    }

    /**
     * Makes a server context as nginx's {@code ngx_ssl_create()}: {@code ssl_protocols}' versions only, no
     * compression, no renegotiation, released buffers, no automatic chain, read ahead.
     *
     * @param protocols the {@code TLSV1*} bits allowed
     * @return the context
     * @throws SslException {@code SSL_CTX_new() failed (SSL: ...)}
     */
    public static SslContext server(int protocols) throws SslException {
        return create(OpenSsl.ssl().TLS_server_method(), protocols, false);
    }

    /**
     * Makes a client context as nginx's {@code ngx_ssl_create()} does for {@code proxy_ssl_*}: the same options and
     * modes as a server's, with the client method. Certificates, trust and sessions are set on it afterwards
     * ({@link #certificate}, {@link #trustedCertificate}, {@link #crl}, {@link #clientSessions}).
     *
     * @param protocols the {@code TLSV1*} bits allowed
     * @return the context
     * @throws SslException {@code SSL_CTX_new() failed (SSL: ...)}
     */
    public static SslContext client(int protocols) throws SslException {
        return create(OpenSsl.ssl().TLS_client_method(), protocols, true);
    }

    private static SslContext create(long method, int protocols, boolean client) throws SslException {
        OpenSsl.clearErrors();
        LibSsl lib = OpenSsl.ssl();
        long ctx = lib.SSL_CTX_new(method);
        if (ctx == 0) {
            throw new SslException(OpenSsl.error("SSL_CTX_new() failed"));
        }
        SslContext s = new SslContext(ctx, client);
        s.protocols(protocols);
        s.mode(OpenSsl.SSL_MODE_RELEASE_BUFFERS | OpenSsl.SSL_MODE_NO_AUTO_CHAIN
               | OpenSsl.SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
        // SSL_CTX_set_read_ahead(ctx, 1): ssl.h's SSL_CTRL_SET_READ_AHEAD (41)
        lib.SSL_CTX_ctrl(ctx, 41, 1, 0);
        return s;
    }

    private void protocols(int protocols) {
        // OpenSSL 3 reports a peer's close without close_notify as an error; nginx takes it as the end of the
        // stream, and a handshake cut short as "peer closed connection in SSL handshake"
        long op = OpenSsl.SSL_OP_NO_COMPRESSION | OpenSsl.SSL_OP_NO_RENEGOTIATION | OpenSsl.SSL_OP_NO_SSLV3
            | OpenSsl.SSL_OP_IGNORE_UNEXPECTED_EOF;
        // nginx lowers OpenSSL's own minimum so that ssl_protocols alone decides
        lib.SSL_CTX_ctrl(ctx, OpenSsl.SSL_CTRL_SET_MIN_PROTO_VERSION, 0, 0);
        lib.SSL_CTX_ctrl(ctx, OpenSsl.SSL_CTRL_SET_MAX_PROTO_VERSION, OpenSsl.TLS1_3_VERSION, 0);
        op |= (protocols & TLSV1) == 0 ? OpenSsl.SSL_OP_NO_TLSV1 : 0;
        op |= (protocols & TLSV1_1) == 0 ? OpenSsl.SSL_OP_NO_TLSV1_1 : 0;
        op |= (protocols & TLSV1_2) == 0 ? OpenSsl.SSL_OP_NO_TLSV1_2 : 0;
        op |= (protocols & TLSV1_3) == 0 ? OpenSsl.SSL_OP_NO_TLSV1_3 : 0;
        options(op);
    }

    private void mode(long mode) {
        lib.SSL_CTX_ctrl(ctx, OpenSsl.SSL_CTRL_MODE, mode, 0);
    }

    private void options(long op) {
        options = lib.SSL_CTX_set_options(ctx, op);
    }

    /**
     * Returns the {@code SSL_CTX *}.
     *
     * @return the address
     */
    public long handle() {
        return ctx;
    }

    /**
     * Returns the options set on the context ({@code SSL_CTX_get_options()}), which a connection switched to it by
     * its server name takes too.
     *
     * @return the {@code SSL_OP_*} bits
     */
    public long options() {
        return options;
    }

    /**
     * Adds a certificate chain and its key: nginx's {@code ngx_ssl_certificate()}. Several pairs of different key
     * types (ECDSA, RSA) may be added; OpenSSL picks the one the client supports.
     *
     * @param cert the PEM file of the certificate and its chain
     * @param key the PEM file of the key
     * @param passwords the passwords to try on an encrypted key ({@code ssl_password_file}), empty for none
     * @throws SslException {@code cannot load certificate "..."}, {@code cannot load certificate key "..."} or
     *     {@code SSL_CTX_use_PrivateKey("...") failed} with OpenSSL's reasons
     */
    public void certificate(String cert, String key, List<String> passwords) throws SslException {
        OpenSsl.clearErrors();
        readable(cert, "cannot load certificate \"");
        readable(key, "cannot load certificate key \"");
        if (lib.SSL_CTX_use_certificate_chain_file(ctx, cert) != 1) {
            throw new SslException(OpenSsl.error("cannot load certificate \"" + cert + "\": "
                                                 + "PEM_read_bio_X509_AUX() failed"));
        }
        List<String> tries = passwords.isEmpty() ? java.util.Collections.singletonList(null) : passwords;
        try (NativeMemory m = new NativeMemory()) {
            for (int i = 0; i < tries.size(); i++) {
                String pw = tries.get(i);
                long userdata = 0;
                if (pw != null) {
                    byte[] b = pw.getBytes(StandardCharsets.UTF_8);
                    userdata = m.allocate(b.length + 1L);
                    NativeMemory.put(userdata, b, 0, b.length);
                }
                // an encrypted key without a password must fail, not prompt on the terminal: an empty one
                lib.SSL_CTX_set_default_passwd_cb_userdata(ctx, userdata != 0 ? userdata : m.allocate(1));
                int rc = lib.SSL_CTX_use_PrivateKey_file(ctx, key, OpenSsl.SSL_FILETYPE_PEM);
                lib.SSL_CTX_set_default_passwd_cb_userdata(ctx, 0);
                if (rc == 1) {
                    break;
                }
                if (i < tries.size() - 1) {
                    OpenSsl.clearErrors();
                    continue;
                }
                throw new SslException(OpenSsl.error("SSL_CTX_use_PrivateKey(\"" + key + "\") failed"));
            }
        }
        if (lib.SSL_CTX_check_private_key(ctx) != 1) {
            throw new SslException(OpenSsl.error("SSL_CTX_use_PrivateKey(\"" + key + "\") failed"));
        }
    }

    /** nginx's {@code ngx_ssl_load_certificate()}'s first step: a file OpenSSL cannot open is refused so. */
    private static void readable(String file, String what) throws SslException {
        long bio = OpenSsl.crypto().BIO_new_file(file, "r");
        if (bio == 0) {
            throw new SslException(OpenSsl.error(what + file + "\": BIO_new_file() failed"));
        }
        OpenSsl.crypto().BIO_free(bio);
    }

    /**
     * Sets the TLS 1.2 and older ciphers: nginx's {@code ngx_ssl_ciphers()}.
     *
     * @param ciphers OpenSSL's cipher list
     * @param preferServer {@code ssl_prefer_server_ciphers}
     * @throws SslException {@code SSL_CTX_set_cipher_list("...") failed}
     */
    public void ciphers(String ciphers, boolean preferServer) throws SslException {
        OpenSsl.clearErrors();
        if (lib.SSL_CTX_set_cipher_list(ctx, ciphers) != 1) {
            throw new SslException(OpenSsl.error("SSL_CTX_set_cipher_list(\"" + ciphers + "\") failed"));
        }
        if (preferServer) {
            options(OpenSsl.SSL_OP_CIPHER_SERVER_PREFERENCE);
        }
    }

    /**
     * Sets the key exchange groups: nginx's {@code ngx_ssl_ecdh_curve()} ({@code SSL_CTX_set1_curves_list}).
     * {@code auto} keeps OpenSSL's defaults.
     *
     * @param curves {@code auto} or a colon-separated list
     * @throws SslException {@code SSL_CTX_set1_curves_list("...") failed}
     */
    public void ecdhCurve(String curves) throws SslException {
        if (curves.equals("auto")) {
            return;
        }
        OpenSsl.clearErrors();
        try (NativeMemory m = new NativeMemory()) {
            byte[] b = curves.getBytes(StandardCharsets.US_ASCII);
            long s = m.allocate(b.length + 1L);
            NativeMemory.put(s, b, 0, b.length);
            if (lib.SSL_CTX_ctrl(ctx, OpenSsl.SSL_CTRL_SET_GROUPS_LIST, 0, s) != 1) {
                throw new SslException(OpenSsl.error("SSL_CTX_set1_curves_list(\"" + curves + "\") failed"));
            }
        }
    }

    /**
     * Sets the session cache: nginx's {@code ngx_ssl_session_cache()} for {@code off}, {@code none} and
     * {@code builtin[:size]}, and the sessions' lifetime.
     *
     * @param builtin {@link #CACHE_OFF}, {@link #CACHE_NONE}, {@link #CACHE_BUILTIN_DEFAULT},
     *     {@link #CACHE_NO_BUILTIN} or a size in sessions
     * @param timeoutSeconds {@code ssl_session_timeout}
     * @param sessionContext bytes telling this server's sessions apart (at most 32)
     */
    public void sessionCache(int builtin, long timeoutSeconds, byte[] sessionContext) {
        try (NativeMemory m = new NativeMemory()) {
            long sid = m.allocate(Math.max(1, sessionContext.length));
            NativeMemory.put(sid, sessionContext, 0, sessionContext.length);
            lib.SSL_CTX_set_session_id_context(ctx, sid, sessionContext.length);
        }
        if (builtin == CACHE_OFF) {
            lib.SSL_CTX_ctrl(ctx, OpenSsl.SSL_CTRL_SET_SESS_CACHE_MODE, OpenSsl.SSL_SESS_CACHE_OFF, 0);
            return;
        }
        if (builtin == CACHE_NONE) {
            // the server pretends to support session reuse and stores nothing (nginx, for Outlook Express);
            // SSL_SESS_CACHE_NO_INTERNAL_STORE is ssl.h:695
            lib.SSL_CTX_ctrl(ctx, OpenSsl.SSL_CTRL_SET_SESS_CACHE_MODE, OpenSsl.SSL_SESS_CACHE_SERVER
                             | OpenSsl.SSL_SESS_CACHE_NO_AUTO_CLEAR | 0x200, 0);
            lib.SSL_CTX_ctrl(ctx, OpenSsl.SSL_CTRL_SET_SESS_CACHE_SIZE, 1, 0);
        } else if (builtin == CACHE_NO_BUILTIN) {
            // the shared cache alone: SSL_SESS_CACHE_NO_INTERNAL (ssl.h:696)
            lib.SSL_CTX_ctrl(ctx, OpenSsl.SSL_CTRL_SET_SESS_CACHE_MODE, OpenSsl.SSL_SESS_CACHE_SERVER
                             | OpenSsl.SSL_SESS_CACHE_NO_INTERNAL, 0);
        } else {
            lib.SSL_CTX_ctrl(ctx, OpenSsl.SSL_CTRL_SET_SESS_CACHE_MODE, OpenSsl.SSL_SESS_CACHE_SERVER, 0);
            if (builtin != CACHE_BUILTIN_DEFAULT) {
                lib.SSL_CTX_ctrl(ctx, OpenSsl.SSL_CTRL_SET_SESS_CACHE_SIZE, builtin, 0);
            }
        }
        lib.SSL_CTX_set_timeout(ctx, timeoutSeconds);
    }

    /**
     * Turns session tickets off ({@code ssl_session_tickets off}): {@code SSL_OP_NO_TICKET}.
     */
    public void noTickets() {
        options(OpenSsl.SSL_OP_NO_TICKET);
    }

    /**
     * Sets the ticket keys: nginx's {@code ngx_ssl_session_ticket_keys()} ({@code ssl_session_ticket_key} files,
     * 48 or 80 bytes each), or the key a shared session cache keeps. The context holds them and frees them when it
     * is closed.
     *
     * @param keys the keys
     * @throws SslException when OpenSSL refuses the callback
     */
    public void ticketKeys(TicketKeys keys) throws SslException {
        keys.install(ctx);
        ticketKeys = keys;
    }

    /**
     * Keeps the server's sessions in a shared zone as well as, or instead of, OpenSSL's cache (nginx's
     * {@code ngx_ssl_session_cache()} with a {@code shm_zone}); called after {@link #sessionCache}, whose
     * {@link #CACHE_NO_BUILTIN} leaves the shared cache alone.
     *
     * @param cache the shared cache
     * @param timeoutSeconds {@code ssl_session_timeout}
     */
    public void sharedSessionCache(SharedSessionCache cache, long timeoutSeconds) {
        sharedCallbacks = cache.install(ctx, timeoutSeconds);
    }

    /**
     * Applies {@code ssl_conf_command}s: nginx's {@code ngx_ssl_conf_commands()}.
     *
     * @param commands names and values, in pairs
     * @throws SslException {@code SSL_CONF_cmd("Name", "value") failed}
     */
    public void confCommands(List<String> commands) throws SslException {
        OpenSsl.clearErrors();
        long cctx = lib.SSL_CONF_CTX_new();
        if (cctx == 0) {
            throw new SslException(OpenSsl.error("SSL_CONF_CTX_new() failed"));
        }
        try {
            lib.SSL_CONF_CTX_set_flags(cctx, OpenSsl.SSL_CONF_FLAG_FILE
                                       | (client ? OpenSsl.SSL_CONF_FLAG_CLIENT : OpenSsl.SSL_CONF_FLAG_SERVER)
                                       | OpenSsl.SSL_CONF_FLAG_CERTIFICATE | OpenSsl.SSL_CONF_FLAG_SHOW_ERRORS);
            lib.SSL_CONF_CTX_set_ssl_ctx(cctx, ctx);
            for (int i = 0; i + 1 < commands.size(); i += 2) {
                String name = commands.get(i);
                String value = commands.get(i + 1);
                if (lib.SSL_CONF_cmd(cctx, name, value) <= 0) {
                    throw new SslException(OpenSsl.error("SSL_CONF_cmd(\"" + name + "\", \"" + value
                                                         + "\") failed"));
                }
            }
            if (lib.SSL_CONF_CTX_finish(cctx) != 1) {
                throw new SslException(OpenSsl.error("SSL_CONF_finish() failed"));
            }
        } finally {
            lib.SSL_CONF_CTX_free(cctx);
        }
    }

    /**
     * Sets what the client's server name (SNI) selects: nginx's {@code SSL_CTX_set_tlsext_servername_callback}
     * with {@code ngx_http_ssl_servername()}.
     *
     * @param handler called during the handshake with the name the client sent
     */
    public void serverName(ServerNameHandler handler) {
        serverNameStub = (ssl, alert, arg) -> {
            SslIo io = SslIo.handshaking(ssl);
            if (io == null) {
                return OpenSsl.SSL_TLSEXT_ERR_OK;
            }
            return SslHandshake.serverName(io, handler, alert);
        };
        lib.SSL_CTX_callback_ctrl(ctx, OpenSsl.SSL_CTRL_SET_TLSEXT_SERVERNAME_CB, serverNameStub);
    }

    /**
     * Sets the protocols ALPN may choose, in the server's order: nginx's {@code ngx_http_ssl_alpn_select()}. A client
     * that offers ALPN and none of them gets the {@code no_application_protocol} alert.
     *
     * @param protocols the names ({@code http/1.1})
     */
    public void alpn(List<String> protocols) {
        byte[][] names = new byte[protocols.size()][];
        for (int i = 0; i < names.length; i++) {
            names[i] = protocols.get(i).getBytes(StandardCharsets.US_ASCII);
        }
        alpnStub = (ssl, out, outlen, in, inlen, arg) -> Alpn.select(names, out, outlen, in, inlen);
        lib.SSL_CTX_set_alpn_select_cb(ctx, alpnStub, 0);
    }

    /**
     * Sets the certificates a client trusts and how deep a chain it checks: nginx's
     * {@code ngx_ssl_trusted_certificate()}. The handshake does not fail on an untrusted server (the verify mode
     * stays {@code SSL_VERIFY_NONE}); the result is read afterwards ({@link SslIo#verifyResult()}), as nginx's
     * upstream does.
     *
     * @param file the PEM file of CA certificates
     * @param depth {@code proxy_ssl_verify_depth}
     * @throws SslException {@code SSL_CTX_load_verify_locations("...") failed}
     */
    public void trustedCertificate(String file, int depth) throws SslException {
        OpenSsl.clearErrors();
        // nginx's ngx_ssl_verify_callback goes on through every error of the chain, so the result is the last
        // one OpenSSL found: "unable to verify the first certificate" where it would stop at the first
        verifyStub = (ok, storeCtx) -> 1;
        lib.SSL_CTX_set_verify(ctx, lib.SSL_CTX_get_verify_mode(ctx), verifyStub);
        lib.SSL_CTX_set_verify_depth(ctx, depth);
        if (lib.SSL_CTX_load_verify_locations(ctx, file, null) != 1) {
            throw new SslException(OpenSsl.error("SSL_CTX_load_verify_locations(\"" + file + "\") failed"));
        }
        // OpenSSL's verification reports what it found; nginx clears the queue it left
        OpenSsl.clearErrors();
    }

    /**
     * Verifies the clients' certificates: nginx's {@code ngx_ssl_client_certificate()} ({@code ssl_verify_client}
     * other than {@code off}). The handshake does not fail on a certificate missing or untrusted (the callback goes
     * on through every error, as nginx's); the request is refused afterwards from {@link SslIo#verifyResult()}.
     *
     * @param file the PEM file of the CAs trusted and named to the client ({@code ssl_client_certificate}), or null
     *     for none ({@code optional_no_ca} alone, or {@code ssl_trusted_certificate})
     * @param depth {@code ssl_verify_depth}
     * @throws SslException {@code SSL_CTX_load_verify_locations("...") failed} or
     *     {@code SSL_load_client_CA_file("...") failed}
     */
    public void clientCertificate(String file, int depth) throws SslException {
        verifyStub = (ok, storeCtx) -> 1;
        lib.SSL_CTX_set_verify(ctx, OpenSsl.SSL_VERIFY_PEER, verifyStub);
        ServerSsl.clientCertificate(lib, ctx, file, depth);
    }

    /**
     * Sets the Diffie-Hellman parameters of the DHE ciphers: nginx's {@code ngx_ssl_dhparam()}.
     *
     * @param file the PEM file of DH parameters ({@code ssl_dhparam})
     * @throws SslException {@code BIO_new_file("...") failed}, {@code PEM_read_bio_DHparams("...") failed} or
     *     {@code SSL_CTX_set_tmp_dh("...") failed}
     */
    public void dhparam(String file) throws SslException {
        ServerSsl.dhparam(lib, ctx, file);
    }

    /**
     * Staples the OCSP response of a file to the handshakes of clients that ask for one: nginx's
     * {@code ssl_stapling on} with {@code ssl_stapling_file}, for every certificate of the context.
     *
     * @param file the DER file of the response ({@code openssl ocsp -respout})
     * @throws SslException {@code BIO_new_file("...") failed} or {@code d2i_OCSP_RESPONSE_bio("...") failed}
     */
    public void staplingFile(String file) throws SslException {
        statusStub = ServerSsl.stapling(lib, ctx, ServerSsl.staplingFile(file));
    }

    /**
     * Chooses the certificates of each handshake instead of the context's own: nginx's {@code ssl_certificate}
     * with variables ({@code SSL_CTX_set_cert_cb} with {@code ngx_http_ssl_certificate()}). The files are loaded
     * on every handshake, as nginx 1.22 does; one that fails is logged at {@code error} and fails the handshake.
     *
     * @param selector names the files for a connection
     * @param passwords the passwords to try on an encrypted key, empty for none
     */
    public void certificates(CertificateSelector selector, List<String> passwords) {
        certificateStub = (ssl, arg) -> SslCertificates.select(lib, ssl, selector, passwords);
        lib.SSL_CTX_set_cert_cb(ctx, certificateStub, 0);
    }

    /**
     * Refuses every handshake this context would serve with the {@code unrecognized_name} alert:
     * {@code ssl_reject_handshake on}.
     */
    public void rejectHandshake() {
        rejectHandshake = true;
    }

    /** Whether {@link #rejectHandshake()} was set. */
    boolean rejectsHandshake() {
        return rejectHandshake;
    }

    /**
     * Loads certificate revocation lists and checks the whole chain against them: nginx's {@code ngx_ssl_crl()}.
     *
     * @param file the PEM file of CRLs
     * @throws SslException {@code X509_LOOKUP_load_file("...") failed}
     */
    public void crl(String file) throws SslException {
        OpenSsl.clearErrors();
        long store = lib.SSL_CTX_get_cert_store(ctx);
        if (store == 0 || OpenSsl.crypto().X509_STORE_load_file(store, file) != 1) {
            throw new SslException(OpenSsl.error("X509_LOOKUP_load_file(\"" + file + "\") failed"));
        }
        OpenSsl.crypto().X509_STORE_set_flags(store, OpenSsl.X509_V_FLAG_CRL_CHECK
                                              | OpenSsl.X509_V_FLAG_CRL_CHECK_ALL);
    }

    /**
     * Keeps the sessions a client gets in {@code store}, one per key, to offer them on the next connection with the
     * same key: nginx's {@code ngx_ssl_client_session_cache()} with its new session callback (TLS 1.3 sends its
     * tickets after the handshake, so the session is taken when OpenSSL announces it, not when the handshake
     * ends).
     *
     * @param store where the sessions are kept, which outlives the context
     */
    public void clientSessions(ClientSessions store) {
        sessions = store;
        lib.SSL_CTX_ctrl(ctx, OpenSsl.SSL_CTRL_SET_SESS_CACHE_MODE, OpenSsl.SSL_SESS_CACHE_CLIENT
                         | OpenSsl.SSL_SESS_CACHE_NO_INTERNAL, 0);
        lib.SSL_CTX_sess_set_new_cb(ctx, sessions.stub);
    }

    /** The client sessions, or null when not kept. */
    ClientSessions sessions() {
        return sessions;
    }

    /**
     * Frees the {@code SSL_CTX} (OpenSSL keeps it while connections still use it). Idempotent.
     */
    @Override
    public void close() {
        if (ctx != 0) {
            lib.SSL_CTX_free(ctx);
            ctx = 0;
            if (ticketKeys != null) {
                ticketKeys.close();
            }
        }
    }

    /** What names a handshake's certificates ({@link #certificates}). */
    @FunctionalInterface
    public interface CertificateSelector {

        /**
         * Names the files of a connection's certificates.
         *
         * @param io the connection's TLS, its server name known
         * @return certificate and key files in pairs, or null to fail the handshake
         */
        List<String> select(SslIo io);
    }

    /** What a server name selects during a handshake. */
    @FunctionalInterface
    public interface ServerNameHandler {

        /**
         * Chooses the context for the name the client sent.
         *
         * @param io the connection's TLS
         * @param name the server name, not empty
         * @return the context to switch to, or null to keep the connection's
         */
        SslContext select(SslIo io, String name);
    }
}
