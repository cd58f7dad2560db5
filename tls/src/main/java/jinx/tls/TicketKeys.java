package jinx.tls;

import java.util.List;
import java.util.function.Supplier;

import jinx.kernel.LogLevel;
import jinx.kernel.os.NativeMemory;
import jinx.tls.bind.LibSslSessions;
import jinx.tls.internal.OpenSsl;
import jinx.tls.internal.OpenSslSessions;
import jinx.tls.internal.SslErrors;

/**
 * Session ticket keys: nginx's {@code ngx_ssl_session_ticket_keys()} and
 * {@code ngx_ssl_session_ticket_key_callback()}. A key is 80 bytes (16 of name, 32 of HMAC-SHA256 secret, 32 of
 * AES-256-CBC key) or 48 (16 of name, 16 of AES-128-CBC key, 16 of HMAC secret), nginx's layouts of the files of
 * {@code ssl_session_ticket_key}; the first key encrypts new tickets, every key decrypts, and a ticket decrypted
 * with another than the first is renewed. Every worker that reads the same files makes the same tickets, so a
 * client resumes on any worker and after a reload.
 *
 * <p>The keys may also come later from a {@link Supplier} (the key kept in a shared session cache, which a worker
 * maps after its contexts are made): it is asked on the first ticket, and no ticket is made or accepted while it
 * answers null. The keys live in native memory until {@link #close()}.
 */
public final class TicketKeys implements AutoCloseable {

    /** {@code SSL_CTRL_SET_TLSEXT_TICKET_KEY_CB} (ssl.h:1314). */
    private static final int SET_TICKET_KEY_CB = 72;
    private static final int NAME = 16;

    private final LibSslSessions lib = OpenSslSessions.lib();
    private final NativeMemory memory = new NativeMemory();
    private final Supplier<byte[]> later;
    /** Per key: its size (48 or 80) and the addresses of its name, AES key and HMAC secret. */
    private int[] sizes;
    private long[] names;
    private long[] aes;
    private long[] hmac;
    private final LibSslSessions.TicketKey stub = this::callback;

    /**
     * Keys read from {@code ssl_session_ticket_key} files.
     *
     * @param keys the files' contents, each 48 or 80 bytes
     * @throws IllegalArgumentException for another size
     */
    public TicketKeys(List<byte[]> keys) {
        this.later = null;
        set(keys);
    }

    /**
     * One key, asked for when the first ticket is made or read.
     *
     * @param key gives the 80 or 48 bytes, or null while there are none
     */
    public TicketKeys(Supplier<byte[]> key) {
        this.later = key;
    }

    /**
     * Tells whether a key file's size is one nginx takes.
     *
     * @param size the file's size
     * @return true for 48 and 80
     */
    public static boolean validSize(long size) {
        return size == 48 || size == 80;
    }

    private void set(List<byte[]> keys) {
        int n = keys.size();
        int[] s = new int[n];
        long[] nm = new long[n];
        long[] a = new long[n];
        long[] h = new long[n];
        for (int i = 0; i < n; i++) {
            byte[] k = keys.get(i);
            if (!validSize(k.length)) {
                throw new IllegalArgumentException("a ticket key is 48 or 80 bytes, not " + k.length);
            }
            long at = memory.allocate(k.length);
            NativeMemory.put(at, k, 0, k.length);
            s[i] = k.length;
            nm[i] = at;
            if (k.length == 48) {
                a[i] = at + 16;
                h[i] = at + 32;
            } else {
                h[i] = at + 16;
                a[i] = at + 48;
            }
        }
        sizes = s;
        names = nm;
        aes = a;
        hmac = h;
    }

    /**
     * Makes these keys the ticket keys of a server context ({@code SSL_CTX_set_tlsext_ticket_key_cb}).
     *
     * @param ctx the {@code SSL_CTX *}
     * @throws SslException when OpenSSL refuses the callback
     */
    public void install(long ctx) throws SslException {
        OpenSsl.clearErrors();
        if (lib.SSL_CTX_callback_ctrl(ctx, SET_TICKET_KEY_CB, stub) != 1) {
            throw new SslException(OpenSsl.error("SSL_CTX_set_tlsext_ticket_key_cb() failed"));
        }
    }

    private boolean ready() {
        if (sizes != null) {
            return true;
        }
        byte[] k = later == null ? null : later.get();
        if (k == null || !validSize(k.length)) {
            return false;
        }
        set(List.of(k));
        return true;
    }

    /** nginx's {@code ngx_ssl_session_ticket_key_callback()}. */
    private int callback(long ssl, long name, long iv, long cipherCtx, long hmacCtx, int enc) {
        if (!ready()) {
            // no key yet: no ticket made (an empty one is sent), none accepted
            return 0;
        }
        if (enc == 1) {
            boolean small = sizes[0] == 48;
            long cipher = small ? lib.EVP_aes_128_cbc() : lib.EVP_aes_256_cbc();
            // both ciphers are CBC: a 16-byte IV
            if (lib.RAND_bytes(iv, 16) != 1) {
                return failed(ssl, "RAND_bytes() failed");
            }
            if (lib.EVP_EncryptInit_ex(cipherCtx, cipher, 0, aes[0], iv) != 1) {
                return failed(ssl, "EVP_EncryptInit_ex() failed");
            }
            if (lib.HMAC_Init_ex(hmacCtx, hmac[0], small ? 16 : 32, lib.EVP_sha256(), 0) != 1) {
                return failed(ssl, "HMAC_Init_ex() failed");
            }
            NativeMemory.copy(names[0], name, NAME);
            return 1;
        }
        int i = find(name);
        if (i < 0) {
            return 0;
        }
        boolean small = sizes[i] == 48;
        if (lib.HMAC_Init_ex(hmacCtx, hmac[i], small ? 16 : 32, lib.EVP_sha256(), 0) != 1) {
            return failed(ssl, "HMAC_Init_ex() failed");
        }
        long cipher = small ? lib.EVP_aes_128_cbc() : lib.EVP_aes_256_cbc();
        if (lib.EVP_DecryptInit_ex(cipherCtx, cipher, 0, aes[i], iv) != 1) {
            return failed(ssl, "EVP_DecryptInit_ex() failed");
        }
        return i == 0 ? 1 : 2;
    }

    private int find(long name) {
        for (int i = 0; i < names.length; i++) {
            boolean same = true;
            for (int b = 0; b < NAME && same; b++) {
                same = NativeMemory.getByte(name + b) == NativeMemory.getByte(names[i] + b);
            }
            if (same) {
                return i;
            }
        }
        return -1;
    }

    private static int failed(long ssl, String text) {
        SslIo io = SslIo.handshaking(ssl);
        String line = OpenSsl.error(text);
        if (io != null) {
            SslErrors.log(io.connection(), LogLevel.ALERT, 0, line);
        }
        return -1;
    }

    /** Frees the keys' memory; the context must be gone or no longer used. */
    @Override
    public void close() {
        memory.close();
    }
}
