package jinx.tls.internal;

import java.nio.charset.StandardCharsets;

import jinx.kernel.os.NativeMemory;
import jinx.tls.bind.LibCrypto;
import jinx.tls.bind.LibSsl;
import jnr.ffi.LibraryLoader;

/**
 * The one caller of the OpenSSL binding and its error queue: nginx's {@code ngx_ssl_error()},
 * {@code ngx_ssl_clear_error()} and the reason table of {@code ngx_ssl_connection_error()}
 * (src/event/ngx_event_openssl.c). Every failure text is worded as nginx's,
 * {@code SSL_do_handshake() failed (SSL: error:0A00010B:SSL routines::wrong version number)}, and reading it empties
 * the thread's queue, so that no error is left for the next connection on the thread.
 *
 * <p>The constants are OpenSSL 3.0's, from the header and line named beside each (Debian's libssl-dev 3.0); the
 * macros of {@code ssl.h} that are {@code SSL_CTX_ctrl} calls are named by their {@code SSL_CTRL_*} number.
 */
public final class OpenSsl {

    /* ssl.h:1256-1269 */
    /** {@code SSL_ERROR_NONE}. */
    public static final int SSL_ERROR_NONE = 0;
    /** {@code SSL_ERROR_SSL}. */
    public static final int SSL_ERROR_SSL = 1;
    /** {@code SSL_ERROR_WANT_READ}. */
    public static final int SSL_ERROR_WANT_READ = 2;
    /** {@code SSL_ERROR_WANT_WRITE}. */
    public static final int SSL_ERROR_WANT_WRITE = 3;
    /** {@code SSL_ERROR_SYSCALL}. */
    public static final int SSL_ERROR_SYSCALL = 5;
    /** {@code SSL_ERROR_ZERO_RETURN}. */
    public static final int SSL_ERROR_ZERO_RETURN = 6;

    /* ssl.h:1272-1376, the SSL_CTX_ctrl() commands behind the macros */
    /** {@code SSL_CTRL_MODE} (ssl.h:1300): {@code SSL_CTX_set_mode}. */
    public static final int SSL_CTRL_MODE = 33;
    /** {@code SSL_CTRL_SET_SESS_CACHE_SIZE} (ssl.h:1303): {@code SSL_CTX_sess_set_cache_size}. */
    public static final int SSL_CTRL_SET_SESS_CACHE_SIZE = 42;
    /** {@code SSL_CTRL_SET_SESS_CACHE_MODE} (ssl.h:1305): {@code SSL_CTX_set_session_cache_mode}. */
    public static final int SSL_CTRL_SET_SESS_CACHE_MODE = 44;
    /** {@code SSL_CTRL_SET_TLSEXT_SERVERNAME_CB} (ssl.h:1311): {@code SSL_CTX_set_tlsext_servername_callback}. */
    public static final int SSL_CTRL_SET_TLSEXT_SERVERNAME_CB = 53;
    /** {@code SSL_CTRL_SET_TLSEXT_TICKET_KEYS} (ssl.h:1317): {@code SSL_CTX_set_tlsext_ticket_keys}. */
    public static final int SSL_CTRL_SET_TLSEXT_TICKET_KEYS = 59;
    /** {@code SSL_CTRL_SET_GROUPS_LIST} (ssl.h:1351): {@code SSL_CTX_set1_groups_list}. */
    public static final int SSL_CTRL_SET_GROUPS_LIST = 92;
    /** {@code SSL_CTRL_SET_MIN_PROTO_VERSION} (ssl.h:1375): {@code SSL_CTX_set_min_proto_version}. */
    public static final int SSL_CTRL_SET_MIN_PROTO_VERSION = 123;
    /** {@code SSL_CTRL_SET_MAX_PROTO_VERSION} (ssl.h:1376): {@code SSL_CTX_set_max_proto_version}. */
    public static final int SSL_CTRL_SET_MAX_PROTO_VERSION = 124;

    /* ssl.h:360-428, SSL_OP_BIT(n) = 1 << n */
    /** {@code SSL_OP_IGNORE_UNEXPECTED_EOF} (ssl.h:360). */
    public static final long SSL_OP_IGNORE_UNEXPECTED_EOF = 1L << 7;
    /** {@code SSL_OP_NO_TICKET} (ssl.h:378). */
    public static final long SSL_OP_NO_TICKET = 1L << 14;
    /** {@code SSL_OP_NO_COMPRESSION} (ssl.h:389). */
    public static final long SSL_OP_NO_COMPRESSION = 1L << 17;
    /** {@code SSL_OP_CIPHER_SERVER_PREFERENCE} (ssl.h:407). */
    public static final long SSL_OP_CIPHER_SERVER_PREFERENCE = 1L << 22;
    /** {@code SSL_OP_NO_SSLv3} (ssl.h:420). */
    public static final long SSL_OP_NO_SSLV3 = 1L << 25;
    /** {@code SSL_OP_NO_TLSv1} (ssl.h:421). */
    public static final long SSL_OP_NO_TLSV1 = 1L << 26;
    /** {@code SSL_OP_NO_TLSv1_2} (ssl.h:422). */
    public static final long SSL_OP_NO_TLSV1_2 = 1L << 27;
    /** {@code SSL_OP_NO_TLSv1_1} (ssl.h:423). */
    public static final long SSL_OP_NO_TLSV1_1 = 1L << 28;
    /** {@code SSL_OP_NO_TLSv1_3} (ssl.h:424). */
    public static final long SSL_OP_NO_TLSV1_3 = 1L << 29;
    /** {@code SSL_OP_NO_RENEGOTIATION} (ssl.h:428). */
    public static final long SSL_OP_NO_RENEGOTIATION = 1L << 30;

    /* ssl.h:476-494 */
    /** {@code SSL_MODE_ENABLE_PARTIAL_WRITE} (ssl.h:476). */
    public static final long SSL_MODE_ENABLE_PARTIAL_WRITE = 0x1;
    /** {@code SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER} (ssl.h:483). */
    public static final long SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER = 0x2;
    /** {@code SSL_MODE_NO_AUTO_CHAIN} (ssl.h:489). */
    public static final long SSL_MODE_NO_AUTO_CHAIN = 0x8;
    /** {@code SSL_MODE_RELEASE_BUFFERS} (ssl.h:494). */
    public static final long SSL_MODE_RELEASE_BUFFERS = 0x10;

    /* ssl.h:688-698 */
    /** {@code SSL_SESS_CACHE_OFF} (ssl.h:688). */
    public static final long SSL_SESS_CACHE_OFF = 0x0;
    /** {@code SSL_SESS_CACHE_CLIENT}. */
    public static final long SSL_SESS_CACHE_CLIENT = 0x1;
    /** {@code SSL_SESS_CACHE_NO_INTERNAL}: {@code NO_INTERNAL_LOOKUP | NO_INTERNAL_STORE}. */
    public static final long SSL_SESS_CACHE_NO_INTERNAL = 0x100 | 0x200;
    /** {@code SSL_SESS_CACHE_SERVER} (ssl.h:690). */
    public static final long SSL_SESS_CACHE_SERVER = 0x2;
    /** {@code SSL_SESS_CACHE_NO_AUTO_CLEAR} (ssl.h:692). */
    public static final long SSL_SESS_CACHE_NO_AUTO_CLEAR = 0x80;

    /* ssl.h:211-212 */
    /** {@code SSL_SENT_SHUTDOWN}. */
    public static final int SSL_SENT_SHUTDOWN = 1;
    /** {@code SSL_RECEIVED_SHUTDOWN}. */
    public static final int SSL_RECEIVED_SHUTDOWN = 2;

    /* ssl.h:1175-1178 */
    /** {@code SSL_VERIFY_NONE}. */
    public static final int SSL_VERIFY_NONE = 0x0;
    /** {@code SSL_VERIFY_PEER}. */
    public static final int SSL_VERIFY_PEER = 0x1;
    /** {@code SSL_VERIFY_FAIL_IF_NO_PEER_CERT}. */
    public static final int SSL_VERIFY_FAIL_IF_NO_PEER_CERT = 0x2;

    /* ssl.h:581-585 */
    /** {@code SSL_CONF_FLAG_FILE}. */
    public static final int SSL_CONF_FLAG_FILE = 0x2;
    /** {@code SSL_CONF_FLAG_SERVER}. */
    public static final int SSL_CONF_FLAG_SERVER = 0x8;
    /** {@code SSL_CONF_FLAG_CLIENT}. */
    public static final int SSL_CONF_FLAG_CLIENT = 0x4;
    /** {@code SSL_CONF_FLAG_SHOW_ERRORS}. */
    public static final int SSL_CONF_FLAG_SHOW_ERRORS = 0x10;
    /** {@code SSL_CONF_FLAG_CERTIFICATE}. */
    public static final int SSL_CONF_FLAG_CERTIFICATE = 0x20;

    /** {@code SSL_FILETYPE_PEM} = {@code X509_FILETYPE_PEM} (x509.h:165). */
    public static final int SSL_FILETYPE_PEM = 1;
    /** {@code TLSEXT_NAMETYPE_host_name} (tls1.h:159). */
    public static final int TLSEXT_NAMETYPE_HOST_NAME = 0;
    /** {@code SSL_CTRL_SET_TLSEXT_HOSTNAME}: {@code SSL_set_tlsext_host_name()}. */
    public static final int SSL_CTRL_SET_TLSEXT_HOSTNAME = 55;
    /** {@code X509_V_OK}. */
    public static final long X509_V_OK = 0;
    /** {@code X509_V_FLAG_CRL_CHECK} (x509_vfy.h). */
    public static final long X509_V_FLAG_CRL_CHECK = 0x4;
    /** {@code X509_V_FLAG_CRL_CHECK_ALL}. */
    public static final long X509_V_FLAG_CRL_CHECK_ALL = 0x8;
    /** {@code SSL_TLSEXT_ERR_OK} (tls1.h:299). */
    public static final int SSL_TLSEXT_ERR_OK = 0;
    /** {@code SSL_TLSEXT_ERR_ALERT_FATAL} (tls1.h:301). */
    public static final int SSL_TLSEXT_ERR_ALERT_FATAL = 2;
    /** {@code SSL_TLSEXT_ERR_NOACK} (tls1.h:302). */
    public static final int SSL_TLSEXT_ERR_NOACK = 3;

    /* prov_ssl.h:22-26 */
    /** {@code TLS1_VERSION}. */
    public static final int TLS1_VERSION = 0x0301;
    /** {@code TLS1_1_VERSION}. */
    public static final int TLS1_1_VERSION = 0x0302;
    /** {@code TLS1_2_VERSION}. */
    public static final int TLS1_2_VERSION = 0x0303;
    /** {@code TLS1_3_VERSION}. */
    public static final int TLS1_3_VERSION = 0x0304;

    /** {@code ERR_TXT_STRING} (err.h:51). */
    static final int ERR_TXT_STRING = 0x02;
    /** {@code ERR_REASON_MASK} (err.h:232): {@code ERR_GET_REASON(e)} for a library error. */
    static final long ERR_REASON_MASK = 0x7FFFFF;
    /** {@code ERR_SYSTEM_FLAG} (err.h:220): a system error's code is its errno with this bit. */
    static final long ERR_SYSTEM_FLAG = 0x80000000L;

    /** nginx's {@code NGX_MAX_CONF_ERRSTR}: the room of an error line's text. */
    private static final int MAX_ERRSTR = 1024;

    private OpenSsl() {
    }

    /** The libraries, loaded when first needed: every symbol resolved at load ({@code failImmediately}). */
    private static final class Holder {
        static final LibCrypto CRYPTO = load(LibCrypto.class, "crypto", "libcrypto.so.3");
        static final LibSsl SSL = load(LibSsl.class, "ssl", "libssl.so.3");

        private Holder() {
        }

        private static <T> T load(Class<T> type, String name, String soname) {
            try {
                // the soname first: the unversioned link exists only with the development package
                return LibraryLoader.create(type).failImmediately().load(soname);
            } catch (LinkageError | RuntimeException e) {
                return LibraryLoader.create(type).failImmediately().load(name);
            }
        }
    }

    /**
     * Returns libssl.
     *
     * @return the binding
     */
    public static LibSsl ssl() {
        return Holder.SSL;
    }

    /**
     * Returns libcrypto.
     *
     * @return the binding
     */
    public static LibCrypto crypto() {
        return Holder.CRYPTO;
    }

    /**
     * Tells whether OpenSSL 3 loads on this machine.
     *
     * @return true when both libraries load
     */
    public static boolean isAvailable() {
        try {
            return ssl() != null && crypto() != null;
        } catch (LinkageError | RuntimeException e) {
            return false;
        }
    }

    /**
     * Empties the thread's error queue before a call whose errors will be read: nginx's
     * {@code ngx_ssl_clear_error()}, which logs what it drops as {@code ignoring stale global SSL error}.
     *
     * @return the dropped errors as nginx's line words them, or null when the queue was empty
     */
    public static String clearErrors() {
        if (crypto().ERR_peek_error() == 0) {
            return null;
        }
        return error("ignoring stale global SSL error");
    }

    /**
     * Words a failure as nginx's {@code ngx_ssl_error()}: {@code text}, then {@code " (SSL:"} and each queued error
     * as {@code ERR_error_string_n()} words it, with its data after a colon, then {@code ")"}; the queue is emptied.
     * Not hot: it allocates.
     *
     * @param text what failed, {@code SSL_do_handshake() failed}
     * @return the line's text
     */
    public static String error(String text) {
        LibCrypto lib = crypto();
        if (lib.ERR_peek_error() == 0) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length() + 128).append(text).append(" (SSL:");
        try (NativeMemory m = new NativeMemory()) {
            long data = m.allocate(8);
            long flags = m.allocate(8);
            long buf = m.allocate(256);
            for (;;) {
                long n = lib.ERR_peek_error_data(data, flags);
                if (n == 0) {
                    break;
                }
                if (sb.length() < MAX_ERRSTR - 1) {
                    lib.ERR_error_string_n(n, buf, 256);
                    sb.append(' ').append(cString(buf));
                    long d = NativeMemory.getLong(data);
                    if (d != 0 && NativeMemory.getByte(d) != 0 && (NativeMemory.getInt(flags) & ERR_TXT_STRING) != 0) {
                        sb.append(':').append(cString(d));
                    }
                }
                lib.ERR_get_error();
            }
        }
        if (sb.length() > MAX_ERRSTR - 1) {
            sb.setLength(MAX_ERRSTR - 1);
        }
        return sb.append(')').toString();
    }

    /**
     * Returns the reason of the newest queued error, {@code ERR_GET_REASON(ERR_peek_last_error())}, or 0.
     *
     * @return the reason code
     */
    public static int lastReason() {
        long e = crypto().ERR_peek_last_error();
        if ((e & ERR_SYSTEM_FLAG) != 0) {
            return (int) (e & Integer.MAX_VALUE);
        }
        return (int) (e & ERR_REASON_MASK);
    }

    /**
     * Tells whether the thread's queue holds an error ({@code ERR_peek_error() != 0}).
     *
     * @return true when an error is queued
     */
    public static boolean errorQueued() {
        return crypto().ERR_peek_error() != 0;
    }

    /**
     * Returns the errno the last OpenSSL call left, for {@code SSL_ERROR_SYSCALL} (nginx's {@code ngx_errno}).
     *
     * @return the errno
     */
    public static int errno() {
        return jnr.ffi.LastError.getLastError(jnr.ffi.Runtime.getRuntime(ssl()));
    }

    /**
     * Reads a NUL-terminated C string.
     *
     * @param address its address
     * @return the text, "" for a null address
     */
    public static String cString(long address) {
        if (address == 0) {
            return "";
        }
        int n = 0;
        while (NativeMemory.getByte(address + n) != 0) {
            n++;
        }
        byte[] b = new byte[n];
        NativeMemory.get(address, b, 0, n);
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
