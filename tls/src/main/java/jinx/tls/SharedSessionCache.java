package jinx.tls;

import jinx.kernel.LogLevel;
import jinx.kernel.SharedZone;
import jinx.kernel.os.NativeMemory;
import jinx.tls.bind.LibSslSessions;
import jinx.tls.bind.SslCallbacks;
import jinx.tls.internal.OpenSslSessions;
import jinx.tls.internal.SslErrors;

/**
 * {@code ssl_session_cache shared:name:size}: the server sessions of every worker process in one shared zone, so
 * that a client resumes on whichever worker takes its next connection, and after a reload that keeps the zone.
 * nginx's {@code ngx_ssl_session_cache_init()}, {@code ngx_ssl_new_session()}, {@code ngx_ssl_get_cached_session()},
 * {@code ngx_ssl_remove_session()} and {@code ngx_ssl_expire_sessions()} (src/event/ngx_event_openssl.c), given to
 * OpenSSL as its external cache callbacks; a session is kept in its DER form ({@code i2d_SSL_SESSION}), made
 * outside the lock as nginx does.
 *
 * <p>In place of nginx's red-black tree, a chained hash table on the session id's CRC32 (one bucket per 512 bytes
 * of the zone), with nginx's expiry queue: newest first, one or two expired sessions dropped from its tail before
 * each new one, the oldest dropped when the zone is full, and {@code could not allocate new session in SSL session
 * shared cache "name"} at {@code alert} when even that leaves no room. Offsets are the zone's; 0 is none.
 *
 * <p>Root: {@code +0} bucket count, {@code +8} buckets, {@code +16}/{@code +24} the queue's sentinel (its prev and
 * next), {@code +32} the ticket key's length (0 until made), {@code +40} the key's 80 bytes. Node: {@code +0} next
 * in bucket, {@code +8}/{@code +16} prev and next in the queue, {@code +24} the id's CRC32, {@code +28} the id's
 * length, {@code +32} the expiry (epoch seconds), {@code +40} the session's length, {@code +48} the id (32 bytes at
 * most), {@code +80} the session.
 *
 * <p>Thread contract: any thread; the zone's lock guards the table.
 */
public final class SharedSessionCache {

    /** nginx's {@code NGX_SSL_MAX_SESSION_SIZE}: a larger session is not cached. */
    public static final int MAX_SESSION_SIZE = 4096;

    private static final int NEXT = 0;
    private static final int PREV = 8;
    private static final int QNEXT = 16;
    private static final int HASH = 24;
    private static final int ID_LEN = 28;
    private static final int EXPIRE = 32;
    private static final int LEN = 40;
    private static final int ID = 48;
    private static final int DATA = 80;
    private static final int MAX_ID = 32;
    private static final int ROOT_SIZE = 128;
    private static final int KEY_LEN = 32;
    private static final int KEY = 40;

    private final SharedZone zone;
    private final LibSslSessions lib = OpenSslSessions.lib();
    private long root;

    /**
     * The cache in {@code zone}, as declared by {@code ssl_session_cache shared:name:size}.
     *
     * @param zone the zone, mapped later
     */
    public SharedSessionCache(SharedZone zone) {
        this.zone = zone;
    }

    /**
     * Returns the zone.
     *
     * @return the zone
     */
    public SharedZone zone() {
        return zone;
    }

    /**
     * The zone's init, in the master once the memory is there (nginx's {@code ngx_ssl_session_cache_init()}): a
     * new zone gets its table and its ticket key; a kept one is used as it is, its sessions and key with it. Does
     * nothing where no memory was mapped ({@code -t}).
     */
    public void init() {
        if (!zone.isMapped()) {
            return;
        }
        zone.slab().logNomem(false);
        zone.slab().logContext(context());
        if (zone.reused() && zone.slab().data() != 0) {
            return;
        }
        long buckets = 64;
        while (buckets * 512 < zone.size() && buckets < (1 << 20)) {
            buckets <<= 1;
        }
        long r = zone.slab().calloc(ROOT_SIZE);
        long b = zone.slab().calloc(buckets * 8);
        if (r == 0 || b == 0) {
            throw new IllegalStateException("no room for the table of SSL session shared cache \"" + zone.name()
                + "\"");
        }
        zone.putLong(r, buckets);
        zone.putLong(r + 8, b);
        long sentinel = r + 8;
        zone.putLong(sentinel + PREV, sentinel);
        zone.putLong(sentinel + QNEXT, sentinel);
        byte[] key = new byte[80];
        new java.security.SecureRandom().nextBytes(key);
        zone.putBytes(r + KEY, key, 0, key.length);
        zone.putLong(r + KEY_LEN, key.length);
        zone.slab().data(r);
    }

    private String context() {
        return " in SSL session shared cache \"" + zone.name() + "\"";
    }

    /**
     * Returns the 80-byte session ticket key made with the zone: the same in every worker and across reloads
     * that keep the zone (what nginx 1.23.2 keeps in its shared cache), for servers without
     * {@code ssl_session_ticket_key}.
     *
     * @return the key, or null before the zone is there
     */
    public byte[] ticketKey() {
        if (!zone.isMapped() || root() == 0 || zone.getLong(root + KEY_LEN) == 0) {
            return null;
        }
        byte[] key = new byte[80];
        zone.getBytes(root + KEY, key, 0, key.length);
        return key;
    }

    /** The zone is mapped and its table made: not so while a configuration is only read ({@code -t}). */
    private boolean ready() {
        return zone.isMapped() && root() != 0;
    }

    private long root() {
        if (root == 0) {
            root = zone.slab().data();
        }
        return root;
    }

    /**
     * Makes this cache the external session cache of a server context: OpenSSL's new, get and remove callbacks
     * (nginx's {@code SSL_CTX_sess_set_new_cb()} and kin). The callbacks returned must live as long as the
     * context.
     *
     * @param ctx the {@code SSL_CTX *}
     * @param timeoutSeconds the sessions' lifetime ({@code ssl_session_timeout})
     * @return the callbacks, to be held
     */
    public Object install(long ctx, long timeoutSeconds) {
        Callbacks cb = new Callbacks(timeoutSeconds);
        lib.SSL_CTX_sess_set_new_cb(ctx, cb.added);
        lib.SSL_CTX_sess_set_get_cb(ctx, cb.wanted);
        lib.SSL_CTX_sess_set_remove_cb(ctx, cb.removed);
        return cb;
    }

    /** The stubs of one context, which knows its sessions' lifetime. */
    private final class Callbacks {
        final SslCallbacks.NewSession added;
        final LibSslSessions.GetSession wanted;
        final LibSslSessions.RemoveSession removed;

        Callbacks(long timeout) {
            added = (ssl, session) -> add(ssl, session, timeout);
            wanted = SharedSessionCache.this::get;
            removed = (ctx, session) -> remove(session);
        }
    }

    /** nginx's {@code ngx_ssl_new_session()}: always 0, OpenSSL keeps its reference. */
    private int add(long ssl, long session, long timeout) {
        if (!ready()) {
            return 0;
        }
        int len = lib.i2d_SSL_SESSION(session, 0);
        if (len <= 0 || len > MAX_SESSION_SIZE) {
            return 0;
        }
        byte[] der = new byte[len];
        byte[] id;
        try (NativeMemory m = new NativeMemory()) {
            long buf = m.allocate(len + 8L);
            long pp = buf + len;
            NativeMemory.putLong(pp, buf);
            lib.i2d_SSL_SESSION(session, pp);
            NativeMemory.get(buf, der, 0, len);
            id = sessionId(m, session);
        }
        if (id.length == 0 || id.length > MAX_ID) {
            return 0;
        }
        int hash = crc32(id, id.length);
        zone.lock().lock();
        long n;
        try {
            expire(1);
            n = zone.slab().allocLocked(DATA + len);
            if (n == 0) {
                // drop the oldest non-expired session and try once more
                expire(0);
                n = zone.slab().allocLocked(DATA + len);
            }
            if (n != 0) {
                zone.putInt(n + HASH, hash);
                zone.putInt(n + ID_LEN, id.length);
                zone.putLong(n + EXPIRE, now() + timeout);
                zone.putInt(n + LEN, len);
                zone.putBytes(n + ID, id, 0, id.length);
                zone.putBytes(n + DATA, der, 0, len);
                long b = bucket(hash);
                zone.putLong(n + NEXT, zone.getLong(b));
                zone.putLong(b, n);
                linkFirst(n);
            }
        } finally {
            zone.lock().unlock();
        }
        if (n == 0) {
            SslIo io = SslIo.handshaking(ssl);
            if (io != null) {
                SslErrors.log(io.connection(), LogLevel.ALERT, 0, "could not allocate new session" + context());
            }
        }
        return 0;
    }

    private byte[] sessionId(NativeMemory m, long session) {
        long lenp = m.allocate(4);
        long p = lib.SSL_SESSION_get_id(session, lenp);
        int n = NativeMemory.getInt(lenp);
        byte[] id = new byte[Math.max(0, Math.min(n, MAX_ID + 1))];
        if (p != 0) {
            NativeMemory.get(p, id, 0, id.length);
        }
        return id;
    }

    /** nginx's {@code ngx_ssl_get_cached_session()}: a new session with its reference, or 0. */
    private long get(long ssl, long idp, int len, long copy) {
        NativeMemory.putInt(copy, 0);
        if (!ready() || len <= 0 || len > MAX_ID) {
            return 0;
        }
        byte[] id = new byte[len];
        NativeMemory.get(idp, id, 0, len);
        int hash = crc32(id, len);
        byte[] der = null;
        zone.lock().lock();
        try {
            long n = find(hash, id);
            if (n != 0) {
                if (zone.getLong(n + EXPIRE) > now()) {
                    der = new byte[zone.getInt(n + LEN)];
                    zone.getBytes(n + DATA, der, 0, der.length);
                } else {
                    unlinkAndFree(n);
                }
            }
        } finally {
            zone.lock().unlock();
        }
        if (der == null) {
            return 0;
        }
        try (NativeMemory m = new NativeMemory()) {
            long buf = m.allocate(der.length + 8L);
            long pp = buf + der.length;
            NativeMemory.put(buf, der, 0, der.length);
            NativeMemory.putLong(pp, buf);
            return lib.d2i_SSL_SESSION(0, pp, der.length);
        }
    }

    /** nginx's {@code ngx_ssl_remove_session()}. */
    private void remove(long session) {
        if (!ready()) {
            return;
        }
        byte[] id;
        try (NativeMemory m = new NativeMemory()) {
            id = sessionId(m, session);
        }
        if (id.length == 0 || id.length > MAX_ID) {
            return;
        }
        int hash = crc32(id, id.length);
        zone.lock().lock();
        try {
            long n = find(hash, id);
            if (n != 0) {
                unlinkAndFree(n);
            }
        } finally {
            zone.lock().unlock();
        }
    }

    /**
     * Returns how many sessions the cache holds (walks the queue under the lock): for tests and status.
     *
     * @return the count
     */
    public int size() {
        if (!zone.isMapped() || root() == 0) {
            return 0;
        }
        zone.lock().lock();
        try {
            int count = 0;
            long sentinel = root + 8;
            for (long n = zone.getLong(sentinel + QNEXT); n != sentinel; n = zone.getLong(n + QNEXT)) {
                count++;
            }
            return count;
        } finally {
            zone.lock().unlock();
        }
    }

    /** nginx's {@code ngx_ssl_expire_sessions()}: with n = 1 one or two expired sessions go; with 0 the oldest too. */
    private void expire(int n) {
        long now = now();
        long sentinel = root() + 8;
        while (n < 3) {
            long last = zone.getLong(sentinel + PREV);
            if (last == sentinel) {
                return;
            }
            if (n++ != 0 && zone.getLong(last + EXPIRE) > now) {
                return;
            }
            unlinkAndFree(last);
        }
    }

    private static long now() {
        return System.currentTimeMillis() / 1000;
    }

    private long bucket(int hash) {
        long r = root();
        return zone.getLong(r + 8) + (hash & (zone.getLong(r) - 1)) * 8;
    }

    private long find(int hash, byte[] id) {
        for (long n = zone.getLong(bucket(hash)); n != 0; n = zone.getLong(n + NEXT)) {
            if (zone.getInt(n + HASH) == hash && zone.getInt(n + ID_LEN) == id.length && sameId(n, id)) {
                return n;
            }
        }
        return 0;
    }

    private boolean sameId(long n, byte[] id) {
        for (int i = 0; i < id.length; i++) {
            if (zone.getByte(n + ID + i) != id[i]) {
                return false;
            }
        }
        return true;
    }

    private void unlinkAndFree(long n) {
        long prev = bucket(zone.getInt(n + HASH));
        for (long p = zone.getLong(prev); p != n && p != 0; p = zone.getLong(p + NEXT)) {
            prev = p + NEXT;
        }
        zone.putLong(prev, zone.getLong(n + NEXT));
        long qp = zone.getLong(n + PREV);
        long qn = zone.getLong(n + QNEXT);
        zone.putLong(qp + QNEXT, qn);
        zone.putLong(qn + PREV, qp);
        zone.slab().freeLocked(n);
    }

    private void linkFirst(long n) {
        long sentinel = root() + 8;
        long first = zone.getLong(sentinel + QNEXT);
        zone.putLong(n + PREV, sentinel);
        zone.putLong(n + QNEXT, first);
        zone.putLong(first + PREV, n);
        zone.putLong(sentinel + QNEXT, n);
    }

    /** nginx's {@code ngx_crc32_short()}. */
    static int crc32(byte[] b, int len) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(b, 0, len);
        return (int) crc.getValue();
    }
}
