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
    /* the client certificate's variables ($ssl_client_*), ssl_dhparam and ssl_stapling_file */

    /**
     * {@code const BIO_METHOD *BIO_s_mem(void);}
     *
     * @return the memory BIO's method
     */
    @intptr_t long BIO_s_mem();

    /**
     * {@code BIO *BIO_new(const BIO_METHOD *type);}
     *
     * @param type the method
     * @return the BIO, 0 on failure
     */
    @intptr_t long BIO_new(@intptr_t long type);

    /**
     * {@code long BIO_ctrl(BIO *bp, int cmd, long larg, void *parg);} ({@code BIO_pending} is
     * {@code BIO_CTRL_PENDING}, 10).
     *
     * @param bio the BIO
     * @param cmd the command
     * @param larg the C argument
     * @param parg the C argument
     * @return the command's result
     */
    long BIO_ctrl(@intptr_t long bio, int cmd, long larg, @intptr_t long parg);

    /**
     * {@code int BIO_read(BIO *b, void *data, int dlen);}
     *
     * @param bio the BIO
     * @param data where the bytes go
     * @param len the room
     * @return the bytes read
     */
    int BIO_read(@intptr_t long bio, @intptr_t long data, int len);

    /**
     * {@code X509_NAME *X509_get_subject_name(const X509 *x);}
     *
     * @param x the certificate
     * @return the name, owned by the certificate
     */
    @intptr_t long X509_get_subject_name(@intptr_t long x);

    /**
     * {@code X509_NAME *X509_get_issuer_name(const X509 *x);}
     *
     * @param x the certificate
     * @return the name, owned by the certificate
     */
    @intptr_t long X509_get_issuer_name(@intptr_t long x);

    /**
     * {@code int X509_NAME_print_ex(BIO *out, const X509_NAME *nm, int indent, unsigned long flags);}
     *
     * @param out the BIO
     * @param name the name
     * @param indent the C argument
     * @param flags {@code XN_FLAG_RFC2253}
     * @return the bytes written, -1 on failure
     */
    int X509_NAME_print_ex(@intptr_t long out, @intptr_t long name, int indent, long flags);

    /**
     * {@code ASN1_INTEGER *X509_get_serialNumber(X509 *x);}
     *
     * @param x the certificate
     * @return the serial, owned by the certificate
     */
    @intptr_t long X509_get_serialNumber(@intptr_t long x);

    /**
     * {@code int i2a_ASN1_INTEGER(BIO *bp, const ASN1_INTEGER *a);}
     *
     * @param bio the BIO
     * @param a the integer
     * @return the bytes written, -1 on failure
     */
    int i2a_ASN1_INTEGER(@intptr_t long bio, @intptr_t long a);

    /**
     * {@code const EVP_MD *EVP_sha1(void);}
     *
     * @return the digest
     */
    @intptr_t long EVP_sha1();

    /**
     * {@code int X509_digest(const X509 *data, const EVP_MD *type, unsigned char *md, unsigned int *len);}
     *
     * @param x the certificate
     * @param type the digest
     * @param md where it goes (64 bytes)
     * @param len {@code unsigned int *}: its length
     * @return 1 on success
     */
    int X509_digest(@intptr_t long x, @intptr_t long type, @intptr_t long md, @intptr_t long len);

    /**
     * {@code int PEM_write_bio_X509(BIO *bp, X509 *x);}
     *
     * @param bio the BIO
     * @param x the certificate
     * @return 1 on success
     */
    int PEM_write_bio_X509(@intptr_t long bio, @intptr_t long x);

    /**
     * {@code const ASN1_TIME *X509_get0_notBefore(const X509 *x);}
     *
     * @param x the certificate
     * @return the time, owned by the certificate
     */
    @intptr_t long X509_get0_notBefore(@intptr_t long x);

    /**
     * {@code const ASN1_TIME *X509_get0_notAfter(const X509 *x);}
     *
     * @param x the certificate
     * @return the time, owned by the certificate
     */
    @intptr_t long X509_get0_notAfter(@intptr_t long x);

    /**
     * {@code int ASN1_TIME_print(BIO *bp, const ASN1_TIME *tm);}
     *
     * @param bio the BIO
     * @param tm the time
     * @return 1 on success
     */
    int ASN1_TIME_print(@intptr_t long bio, @intptr_t long tm);

    /**
     * {@code int ASN1_TIME_diff(int *pday, int *psec, const ASN1_TIME *from, const ASN1_TIME *to);}
     *
     * @param pday {@code int *}: whole days
     * @param psec {@code int *}: the seconds left over, of the days' sign
     * @param from the start, 0 for now
     * @param to the end
     * @return 1 on success
     */
    int ASN1_TIME_diff(@intptr_t long pday, @intptr_t long psec, @intptr_t long from, @intptr_t long to);

    /**
     * {@code DH *PEM_read_bio_DHparams(BIO *bp, DH **x, pem_password_cb *cb, void *u);}
     *
     * @param bio the BIO
     * @param x 0
     * @param cb 0
     * @param u 0
     * @return the parameters, 0 on failure
     */
    @intptr_t long PEM_read_bio_DHparams(@intptr_t long bio, @intptr_t long x, @intptr_t long cb, @intptr_t long u);

    /**
     * {@code void DH_free(DH *dh);}
     *
     * @param dh the parameters
     */
    void DH_free(@intptr_t long dh);

    /**
     * {@code OCSP_RESPONSE *d2i_OCSP_RESPONSE(OCSP_RESPONSE **a, const unsigned char **in, long len);}
     * ({@code d2i_OCSP_RESPONSE_bio} is a macro over it).
     *
     * @param a 0
     * @param in {@code const unsigned char **}: the DER, advanced
     * @param len its length
     * @return the response, 0 on failure
     */
    @intptr_t long d2i_OCSP_RESPONSE(@intptr_t long a, @intptr_t long in, long len);

    /**
     * {@code int i2d_OCSP_RESPONSE(const OCSP_RESPONSE *a, unsigned char **out);}
     *
     * @param a the response
     * @param out {@code unsigned char **}: where the DER goes, advanced; 0 to learn the length
     * @return the DER's length, negative on failure
     */
    int i2d_OCSP_RESPONSE(@intptr_t long a, @intptr_t long out);

    /**
     * {@code void OCSP_RESPONSE_free(OCSP_RESPONSE *a);}
     *
     * @param a the response
     */
    void OCSP_RESPONSE_free(@intptr_t long a);

    /**
     * {@code void *CRYPTO_malloc(size_t num, const char *file, int line);} ({@code OPENSSL_malloc}: memory OpenSSL
     * frees itself).
     *
     * @param num the size
     * @param file the caller's file, for OpenSSL's debugging
     * @param line its line
     * @return the memory, 0 on failure
     */
    @intptr_t long CRYPTO_malloc(@size_t long num, String file, int line);
}
