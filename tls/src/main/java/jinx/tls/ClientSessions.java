package jinx.tls;

import java.util.HashMap;
import java.util.Map;

import jinx.tls.bind.LibSsl;
import jinx.tls.bind.SslCallbacks;
import jinx.tls.internal.OpenSsl;

/**
 * The sessions a client keeps, one per key (an upstream peer), shared by the client contexts of a configuration as
 * nginx keeps one per peer whatever location connects to it: nginx's {@code peer->ssl_session} with
 * {@code ngx_ssl_new_client_session()}. A connection offers the session kept under its key when it starts
 * ({@code SSL_set_session()}); once its handshake is done and accepted the connection is {@link #arm armed}: the
 * session it has now, and any OpenSSL announces later (a TLS 1.3 ticket comes after the handshake), replace the
 * one kept. A handshake that was not accepted (the certificate failed verification) keeps nothing, as nginx sets
 * {@code save_session} only after its checks.
 *
 * <p>Thread contract: the loop's thread (OpenSSL calls the stub from {@code SSL_read()} and
 * {@code SSL_do_handshake()} on it).
 */
public final class ClientSessions implements AutoCloseable {

    private final LibSsl lib;
    /** The new session callback's stub, held as long as the context lives. */
    final SslCallbacks.NewSession stub;
    /** Armed connections: {@code SSL *} to key. */
    private final Map<Long, Object> armed = new HashMap<>();
    /** Kept sessions: key to {@code SSL_SESSION *}, one reference each. */
    private final Map<Object, Long> kept = new HashMap<>();

    /** Makes an empty store. */
    public ClientSessions() {
        this.lib = OpenSsl.ssl();
        this.stub = this::announced;
    }

    /** OpenSSL's new session callback: keeps the reference it gives (answering 1) for an armed connection. */
    private int announced(long ssl, long session) {
        Object key = armed.get(ssl);
        if (key == null) {
            return 0;
        }
        keep(key, session);
        return 1;
    }

    private void keep(Object key, long session) {
        // every call brings a reference of its own, also to the session already kept (a resumed one)
        Long old = kept.put(key, session);
        if (old != null) {
            lib.SSL_SESSION_free(old);
        }
    }

    /** Offers the session kept under {@code key}, if any, on a connection about to handshake. */
    void offer(long ssl, Object key) {
        Long s = kept.get(key);
        if (s != null) {
            lib.SSL_set_session(ssl, s);
        }
    }

    /** The connection's handshake was accepted: its session is kept, and the ones OpenSSL announces later. */
    void arm(long ssl, Object key) {
        armed.put(ssl, key);
        long session = lib.SSL_get1_session(ssl);
        if (session != 0) {
            keep(key, session);
        }
    }

    /** The connection is freed. */
    void forget(long ssl) {
        armed.remove(ssl);
    }

    /**
     * Returns how many sessions are kept.
     *
     * @return the count
     */
    public int size() {
        return kept.size();
    }

    /** Frees the sessions kept (connections still open keep their own). */
    @Override
    public void close() {
        for (long s : kept.values()) {
            lib.SSL_SESSION_free(s);
        }
        kept.clear();
        armed.clear();
    }
}
