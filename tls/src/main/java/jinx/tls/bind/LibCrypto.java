package jinx.tls.bind;

import jnr.ffi.types.intptr_t;
import jnr.ffi.types.size_t;

/**
 * The calls of {@code libcrypto.so.3} Jinx makes: OpenSSL's thread error queue ({@code err.h}). Not API.
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
}
