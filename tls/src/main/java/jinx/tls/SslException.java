package jinx.tls;

/**
 * An OpenSSL call failed: the message is nginx's line for it, the queued OpenSSL errors included and removed from
 * the thread's queue ({@code SSL_CTX_use_PrivateKey("key.pem") failed (SSL: error:05800074:x509 certificate
 * routines::key values mismatch)}).
 */
public final class SslException extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with nginx's words.
     *
     * @param message the line's text
     */
    public SslException(String message) {
        super(message);
    }
}
