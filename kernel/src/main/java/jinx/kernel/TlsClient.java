package jinx.kernel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * TLS on the client side of an outbound connection, as a module offers it: nginx's client half of
 * {@code src/event/ngx_event_openssl.c} ({@code ngx_ssl_create()} with the client method, {@code ngx_ssl_certificate()},
 * {@code ngx_ssl_trusted_certificate()}, {@code ngx_ssl_crl()}, {@code ngx_ssl_client_session_cache()},
 * {@code ngx_ssl_create_connection(..., NGX_SSL_CLIENT)}, {@code ngx_ssl_set_session()},
 * {@code ngx_ssl_check_host()}). The proxy and stream modules start TLS to their upstreams through this seam
 * without depending on the module that implements it: a module implementing {@link Provider} (the TLS module's
 * {@code openssl}) is found among the cycle's modules with {@link #provider(Cycle)}; a build without one has none,
 * and {@code https://} is refused at configuration time as nginx built without SSL refuses it.
 *
 * <p>One object is one client context (nginx's {@code ngx_ssl_t}, e.g. a location's {@code proxy_ssl_*}); it keeps
 * the sessions to reuse, one per session key (nginx keeps one per upstream peer), and frees them with
 * {@link #close()}. Thread contract: made on the configuration's thread, used on the loop's. Added in SPI 1.5.
 */
public interface TlsClient extends AutoCloseable {

    /** The protocol names {@link Settings#protocols()} may hold: nginx's {@code ngx_http_proxy_ssl_protocols}. */
    List<String> PROTOCOLS = List.of("SSLv2", "SSLv3", "TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3");

    /**
     * What a module offering client TLS implements (on its {@code JinxModule} object).
     */
    interface Provider {

        /**
         * Makes a client context with these settings, which the module frees with the cycle at the latest.
         *
         * @param settings the settings, merged
         * @return the context
         * @throws ConfException with nginx's text when a file cannot be loaded or a setting is refused
         */
        TlsClient client(Settings settings) throws ConfException;
    }

    /**
     * A client context's settings: the {@code proxy_ssl_*} directives (stream's the same).
     *
     * @param protocols the enabled protocols, names of {@link #PROTOCOLS}
     * @param ciphers the cipher list, OpenSSL's format ({@code DEFAULT})
     * @param certificate the client certificate's PEM file, or null
     * @param certificateKey its key's PEM file, or null
     * @param passwords the passwords for an encrypted key, empty for none
     * @param verify whether the server's certificate is checked after the handshake ({@link #verify})
     * @param verifyDepth the longest chain checked
     * @param trustedCertificate the CA certificates' PEM file, or null
     * @param crl the revocation lists' PEM file, or null
     * @param sessionReuse whether sessions are kept and offered again
     * @param confCommands OpenSSL configuration commands, name and value in turn, empty for none
     */
    record Settings(Set<String> protocols, String ciphers, String certificate, String certificateKey,
                    List<String> passwords, boolean verify, int verifyDepth, String trustedCertificate, String crl,
                    boolean sessionReuse, List<String> confCommands) {
    }

    /**
     * Returns the cycle's client TLS: the first module implementing {@link Provider}.
     *
     * @param cycle the cycle being built or running
     * @return the provider, or null when no module offers client TLS
     */
    static Provider provider(Cycle cycle) {
        for (LoadedModule m : cycle.modules()) {
            if (m.module() instanceof Provider p) {
                return p;
            }
        }
        return null;
    }

    /**
     * Reads a password file, one password a line, empty lines skipped: nginx's {@code ngx_ssl_read_password_file()}
     * for {@code ssl_password_file} and {@code proxy_ssl_password_file}, read when the directive is.
     *
     * @param file the file
     * @return the passwords, in order
     * @throws ConfException {@code open() "..." failed (2: No such file or directory)} or {@code empty file "..."}
     */
    static List<String> readPasswordFile(Path file) throws ConfException {
        List<String> out = new ArrayList<>();
        try {
            for (String line : Files.readString(file, StandardCharsets.ISO_8859_1).split("\n")) {
                if (line.endsWith("\r")) {
                    line = line.substring(0, line.length() - 1);
                }
                if (!line.isEmpty()) {
                    out.add(line);
                }
            }
        } catch (IOException e) {
            throw new ConfException("open() \"" + file + "\" failed (2: No such file or directory)");
        }
        if (out.isEmpty()) {
            throw new ConfException("empty file \"" + file + "\"");
        }
        return out;
    }

    /**
     * Starts TLS on a connected connection and drives its handshake: nginx's {@code ngx_ssl_create_connection()},
     * {@code SSL_set_tlsext_host_name()}, {@code ngx_ssl_set_session()} and {@code ngx_ssl_handshake()}. From now
     * on the connection reads and writes through TLS ({@link Connection#io()}), and the loop frees it when the
     * connection closes. While the handshake waits for the peer, the connection's event handlers are the
     * handshake's: {@code then} runs once it is over, done, failed or timed out (a timer on either event), and asks
     * {@link #handshaked}.
     *
     * @param c the connected connection
     * @param serverName the name sent as the TLS server name, or null for none
     * @param sessionKey under what the session is kept and found again (the peer), or null for no reuse
     * @param then what runs once a handshake that answered {@link Rc#AGAIN} is over
     * @return {@link Rc#OK} done, {@link Rc#AGAIN} waiting, {@link Rc#ERROR} failed (logged as nginx words it, e.g.
     *     {@code SSL_do_handshake() failed (SSL: ...)} or {@code peer closed connection in SSL handshake})
     */
    int connect(Connection c, String serverName, Object sessionKey, EventHandler then);

    /**
     * Returns whether {@code c}'s handshake is done.
     *
     * @param c a connection {@link #connect} started
     * @return true once the handshake succeeded
     */
    boolean handshaked(Connection c);

    /**
     * Checks the server's certificate of a done handshake when {@link Settings#verify()} is on: the chain
     * ({@code SSL_get_verify_result()}) and the name ({@code X509_check_host()}).
     *
     * @param c a connection whose handshake is done
     * @param name the name the certificate must match
     * @return null when it passes (or verification is off), else what nginx logs after "upstream ":
     *     {@code SSL certificate verify error: (20:unable to get local issuer certificate)} or
     *     {@code SSL certificate does not match "name"}
     */
    String verify(Connection c, String name);

    /** Frees the context and the sessions it keeps; connections still open keep what they use. Idempotent. */
    @Override
    void close();
}
