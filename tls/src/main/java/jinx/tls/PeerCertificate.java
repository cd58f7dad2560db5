package jinx.tls;

import java.nio.charset.StandardCharsets;

import jinx.kernel.os.NativeMemory;
import jinx.tls.bind.LibCrypto;
import jinx.tls.internal.OpenSsl;

/**
 * The client's certificate as nginx's variables show it: {@code ngx_ssl_get_client_verify()},
 * {@code ngx_ssl_get_subject_dn()}, {@code ngx_ssl_get_issuer_dn()}, {@code ngx_ssl_get_serial_number()},
 * {@code ngx_ssl_get_fingerprint()}, {@code ngx_ssl_get_raw_certificate()}, {@code ngx_ssl_get_certificate()},
 * {@code ngx_ssl_get_client_v_start()}, {@code _v_end()} and {@code _v_remain()} (src/event/ngx_event_openssl.c),
 * each written by OpenSSL as nginx has it written. Every method gives "" when the peer sent no certificate, as
 * nginx's empty value; called on the loop's thread, not hot (each allocates). Added in SPI 1.6.
 */
public final class PeerCertificate {

    /* x509_vfy.h: X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY and kin, nginx's ngx_ssl_verify_error_optional() */
    private static final long[] OPTIONAL = {18, 19, 20, 21, 27};
    /* obj_mac.h/asn1.h: XN_FLAG_RFC2253 = ASN1_STRFLGS_RFC2253 | XN_FLAG_SEP_COMMA_PLUS | XN_FLAG_DN_REV
     * | XN_FLAG_FN_SN | XN_FLAG_DUMP_UNKNOWN_FIELDS */
    private static final long XN_FLAG_RFC2253 = 0x317L | (1L << 16) | (1L << 20) | (1L << 24);
    /* bio.h: BIO_CTRL_PENDING */
    private static final int BIO_CTRL_PENDING = 10;

    private PeerCertificate() {
    }

    /**
     * Tells whether the peer sent a certificate ({@code SSL_get_peer_certificate() != NULL}).
     *
     * @param io the connection's TLS
     * @return true when it did
     */
    public static boolean present(SslIo io) {
        long cert = get(io);
        free(cert);
        return cert != 0;
    }

    /**
     * Tells whether a verification error is one {@code ssl_verify_client optional_no_ca} lets through: nginx's
     * {@code ngx_ssl_verify_error_optional()} (an unknown or self-signed issuer).
     *
     * @param rc {@link SslIo#verifyResult()}
     * @return true for those errors
     */
    public static boolean optionalError(long rc) {
        for (long o : OPTIONAL) {
            if (rc == o) {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns OpenSSL's text of a verification error ({@code X509_verify_cert_error_string()}).
     *
     * @param rc the error
     * @return the text
     */
    public static String errorString(long rc) {
        return OpenSsl.crypto().X509_verify_cert_error_string(rc);
    }

    /**
     * {@code $ssl_client_verify}: {@code NONE}, {@code SUCCESS} or {@code FAILED:} and the reason.
     *
     * @param io the connection's TLS
     * @return the value
     */
    public static String verify(SslIo io) {
        if (!present(io)) {
            return "NONE";
        }
        long rc = io.verifyResult();
        return rc == OpenSsl.X509_V_OK ? "SUCCESS" : "FAILED:" + errorString(rc);
    }

    /**
     * {@code $ssl_client_s_dn}: the subject, RFC 2253.
     *
     * @param io the connection's TLS
     * @return the name
     */
    public static String subjectDn(SslIo io) {
        return print(io, Field.SUBJECT);
    }

    /**
     * {@code $ssl_client_i_dn}: the issuer, RFC 2253.
     *
     * @param io the connection's TLS
     * @return the name
     */
    public static String issuerDn(SslIo io) {
        return print(io, Field.ISSUER);
    }

    /**
     * {@code $ssl_client_serial}: the serial number in hexadecimal capitals.
     *
     * @param io the connection's TLS
     * @return the number
     */
    public static String serial(SslIo io) {
        return print(io, Field.SERIAL);
    }

    /**
     * {@code $ssl_client_raw_cert}: the certificate in PEM, its last newline included.
     *
     * @param io the connection's TLS
     * @return the text
     */
    public static String rawPem(SslIo io) {
        return print(io, Field.PEM);
    }

    /**
     * {@code $ssl_client_cert}: the PEM with a tab after each newline but the last, which is dropped (a header's
     * continuation lines).
     *
     * @param io the connection's TLS
     * @return the text
     */
    public static String pemTabbed(SslIo io) {
        String raw = rawPem(io);
        if (raw.isEmpty()) {
            return raw;
        }
        return raw.substring(0, raw.length() - 1).replace("\n", "\n\t");
    }

    /**
     * {@code $ssl_client_v_start}: when the certificate became valid, as {@code ASN1_TIME_print()} writes it
     * ({@code Dec  7 21:46:18 2026 GMT}).
     *
     * @param io the connection's TLS
     * @return the time
     */
    public static String validFrom(SslIo io) {
        return print(io, Field.NOT_BEFORE);
    }

    /**
     * {@code $ssl_client_v_end}: when the certificate expires.
     *
     * @param io the connection's TLS
     * @return the time
     */
    public static String validUntil(SslIo io) {
        return print(io, Field.NOT_AFTER);
    }

    /**
     * {@code $ssl_client_v_remain}: whole days until it expires, 0 once expired.
     *
     * @param io the connection's TLS
     * @return the number
     */
    public static String daysRemaining(SslIo io) {
        long cert = get(io);
        if (cert == 0) {
            return "";
        }
        LibCrypto lib = OpenSsl.crypto();
        try (NativeMemory m = new NativeMemory()) {
            long day = m.allocate(8);
            long sec = m.allocate(8);
            if (lib.ASN1_TIME_diff(day, sec, 0, lib.X509_get0_notAfter(cert)) != 1) {
                OpenSsl.clearErrors();
                return "";
            }
            return Integer.toString(Math.max(0, NativeMemory.getInt(day)));
        } finally {
            free(cert);
        }
    }

    /**
     * {@code $ssl_client_fingerprint}: the SHA-1 of the certificate's DER, lower-case hexadecimal.
     *
     * @param io the connection's TLS
     * @return the digest
     */
    public static String fingerprint(SslIo io) {
        long cert = get(io);
        if (cert == 0) {
            return "";
        }
        LibCrypto lib = OpenSsl.crypto();
        try (NativeMemory m = new NativeMemory()) {
            long md = m.allocate(64);
            long len = m.allocate(8);
            if (lib.X509_digest(cert, lib.EVP_sha1(), md, len) != 1) {
                OpenSsl.clearErrors();
                return "";
            }
            int n = NativeMemory.getInt(len);
            StringBuilder sb = new StringBuilder(2 * n);
            for (int i = 0; i < n; i++) {
                int b = NativeMemory.getByte(md + i) & 0xff;
                sb.append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 0xf, 16));
            }
            return sb.toString();
        } finally {
            free(cert);
        }
    }

    private enum Field { SUBJECT, ISSUER, SERIAL, PEM, NOT_BEFORE, NOT_AFTER }

    /** One of the certificate's fields written into a memory BIO by OpenSSL, as nginx has it written. */
    private static String print(SslIo io, Field field) {
        long cert = get(io);
        if (cert == 0) {
            return "";
        }
        LibCrypto lib = OpenSsl.crypto();
        long bio = lib.BIO_new(lib.BIO_s_mem());
        if (bio == 0) {
            free(cert);
            OpenSsl.clearErrors();
            return "";
        }
        try {
            int rc = switch (field) {
                case SUBJECT -> lib.X509_NAME_print_ex(bio, lib.X509_get_subject_name(cert), 0, XN_FLAG_RFC2253);
                case ISSUER -> lib.X509_NAME_print_ex(bio, lib.X509_get_issuer_name(cert), 0, XN_FLAG_RFC2253);
                case SERIAL -> lib.i2a_ASN1_INTEGER(bio, lib.X509_get_serialNumber(cert));
                case PEM -> lib.PEM_write_bio_X509(bio, cert);
                case NOT_BEFORE -> lib.ASN1_TIME_print(bio, lib.X509_get0_notBefore(cert));
                case NOT_AFTER -> lib.ASN1_TIME_print(bio, lib.X509_get0_notAfter(cert));
            };
            if (rc < 0 || (rc == 0 && field != Field.SUBJECT && field != Field.ISSUER)) {
                OpenSsl.clearErrors();
                return "";
            }
            return read(lib, bio);
        } finally {
            lib.BIO_free(bio);
            free(cert);
        }
    }

    private static String read(LibCrypto lib, long bio) {
        int len = (int) lib.BIO_ctrl(bio, BIO_CTRL_PENDING, 0, 0);
        if (len <= 0) {
            return "";
        }
        try (NativeMemory m = new NativeMemory()) {
            long buf = m.allocate(len);
            int n = lib.BIO_read(bio, buf, len);
            byte[] b = new byte[Math.max(0, n)];
            NativeMemory.get(buf, b, 0, b.length);
            return new String(b, StandardCharsets.ISO_8859_1);
        }
    }

    private static long get(SslIo io) {
        return io.ssl == 0 ? 0 : io.lib.SSL_get1_peer_certificate(io.ssl);
    }

    private static void free(long cert) {
        if (cert != 0) {
            OpenSsl.crypto().X509_free(cert);
        }
    }
}
