package jinx.tls.bind;

import jnr.ffi.types.intptr_t;
import jnr.ffi.types.size_t;

/**
 * The calls of {@code libcrypto.so.3} Jinx makes: OpenSSL's thread error queue ({@code err.h}) and the certificate checks of a client ({@code x509.h}, {@code x509_vfy.h}). Not API.
 */
public interface LibCrypto {

    /**
     * {@code unsigned long ERR_get_error(void);}
     *
     * @return the oldest error code of the thread's queue, removed; 0 when empty
     */
    long ERR_get_error();

    /**
     * {@code unsigned long ERR_peek_error(void);}
     *
     * @return the oldest error code, left in the queue
     */
    long ERR_peek_error();

    /**
     * {@code unsigned long ERR_peek_last_error(void);}
     *
     * @return the newest error code, left in the queue
     */
    long ERR_peek_last_error();

    /**
     * {@code unsigned long ERR_peek_error_data(const char **data, int *flags);}
     *
     * @param data {@code const char **}: the error's extra text
     * @param flags {@code int *}: {@code ERR_TXT_STRING} when the text is a string
     * @return the oldest error code, left in the queue
     */
    long ERR_peek_error_data(@intptr_t long data, @intptr_t long flags);

    /**
     * {@code void ERR_error_string_n(unsigned long e, char *buf, size_t len);}
     *
     * @param e the code
     * @param buf where the text goes, NUL-terminated
     * @param len the room
     */
    void ERR_error_string_n(long e, @intptr_t long buf, @size_t long len);

    /** {@code void ERR_clear_error(void);} */
    void ERR_clear_error();

    /**
     * {@code BIO *BIO_new_file(const char *filename, const char *mode);}
     *
     * @param filename the file
     * @param mode {@code "r"}
     * @return the BIO, 0 on failure
     */
    @intptr_t long BIO_new_file(String filename, String mode);

    /**
     * {@code int BIO_free(BIO *a);}
     *
     * @param bio the BIO
     * @return 1 on success
     */
    int BIO_free(@intptr_t long bio);

    /**
     * {@code int X509_check_host(X509 *x, const char *chk, size_t chklen, unsigned int flags, char **peername);}
     *
     * @param x the C argument
     * @param chk the C argument
     * @param len the C argument
     * @param flags the C argument
     * @param peername the C argument (0)
     * @return 1 when the name matches
     */
    int X509_check_host(@intptr_t long x, String chk, @size_t long len, int flags, @intptr_t long peername);

    /**
     * {@code void X509_free(X509 *x);}
     *
     * @param x the C argument
     */
    void X509_free(@intptr_t long x);

    /**
     * {@code const char *X509_verify_cert_error_string(long n);}
     *
     * @param n the C argument
     * @return the error's text
     */
    String X509_verify_cert_error_string(long n);

    /**
     * {@code int X509_STORE_load_file(X509_STORE *ctx, const char *file);}
     *
     * @param store the C argument
     * @param file the C argument
     * @return 1 on success
     */
    int X509_STORE_load_file(@intptr_t long store, String file);

    /**
     * {@code int X509_STORE_set_flags(X509_STORE *ctx, unsigned long flags);}
     *
     * @param store the C argument
     * @param flags the C argument
     * @return 1 on success
     */
    int X509_STORE_set_flags(@intptr_t long store, long flags);
}
