package jinx.stream.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import jinx.kernel.Rc;

/**
 * What {@code ssl_preread} reads of a client's first TLS records without terminating TLS: nginx's
 * {@code ngx_stream_ssl_preread_ctx_t} with {@code ngx_stream_ssl_preread_handler()}'s record loop and
 * {@code ngx_stream_ssl_preread_parse_record()}'s state machine, which takes a ClientHello in pieces as records and
 * reads bring it (a handshake message may span records). It keeps the client's version (TLS 1.3 when the
 * supported_versions extension is there), the server name (SNI) and the ALPN protocols (comma-separated).
 * Lengths are checked against what is left of the message, as nginx checks them: a malformed hello is declined,
 * never read past.
 */
final class SslPreread {

    private static final int START = 0;
    private static final int HEADER = 1;
    private static final int VERSION = 2;
    private static final int RANDOM = 3;
    private static final int SID_LEN = 4;
    private static final int SID = 5;
    private static final int CS_LEN = 6;
    private static final int CS = 7;
    private static final int CM_LEN = 8;
    private static final int CM = 9;
    private static final int EXT = 10;
    private static final int EXT_HEADER = 11;
    private static final int SNI_LEN = 12;
    private static final int SNI_HOST_HEAD = 13;
    private static final int SNI_HOST = 14;
    private static final int ALPN_LEN = 15;
    private static final int ALPN_PROTO_LEN = 16;
    private static final int ALPN_PROTO_DATA = 17;
    private static final int SUPVER_LEN = 18;

    /** Where the next record starts in the preread buffer. */
    private int pos;
    private int state;
    private long size;
    private long left;
    private long ext;
    /** Where the bytes being read go: an array and the offset in it, or none. */
    private byte[] dst;
    private int dstAt;
    private final byte[] buf = new byte[4];
    final byte[] version = new byte[2];
    private byte[] host;
    private int hostLen;
    private byte[] alpn;
    private int alpnLen;

    /**
     * A parse starting at {@code pos} of the preread buffer (nginx's {@code c->buffer->pos}).
     *
     * @param pos the first unread byte
     */
    SslPreread(int pos) {
        this.pos = pos;
    }

    /**
     * Reads the records the buffer holds now: nginx's handler loop.
     *
     * @param b the preread buffer, bytes from 0 to {@code last}
     * @param last the end of what was read
     * @return {@link Rc#OK} when the ClientHello was read (or an SSLv2 one seen), {@link Rc#AGAIN} for more bytes,
     *     {@link Rc#DECLINED} when this is not a TLS ClientHello
     */
    int feed(ByteBuffer b, int last) {
        int p = pos;
        while (last - p >= 5) {
            int p0 = u(b, p);
            if ((p0 & 0x80) != 0 && u(b, p + 2) == 1 && (u(b, p + 3) == 0 || u(b, p + 3) == 3)) {
                // version 2 ClientHello
                version[0] = b.get(p + 3);
                version[1] = b.get(p + 4);
                return Rc.OK;
            }
            if (p0 != 0x16 || u(b, p + 1) != 3) {
                // not a handshake, or an unsupported SSL version
                return Rc.DECLINED;
            }
            int len = (u(b, p + 3) << 8) + u(b, p + 4);
            // the whole record before parsing
            if (last - p < len + 5) {
                break;
            }
            p += 5;
            int rc = parseRecord(b, p, p + len);
            if (rc != Rc.AGAIN) {
                return rc;
            }
            p += len;
        }
        pos = p;
        return Rc.AGAIN;
    }

    private static int u(ByteBuffer b, int i) {
        return b.get(i) & 0xff;
    }

    private int ub(int i) {
        return buf[i] & 0xff;
    }

    /** nginx's {@code ngx_stream_ssl_preread_parse_record()}. */
    private int parseRecord(ByteBuffer b, int at, int last) {
        int p = at;
        for (;;) {
            int n = (int) Math.min(last - p, size);
            if (dst != null) {
                b.get(p, dst, dstAt, n);
                dstAt += n;
            }
            p += n;
            size -= n;
            left -= n;
            if (size != 0) {
                break;
            }
            switch (state) {
                case START -> {
                    state = HEADER;
                    to(buf);
                    size = 4;
                    left = size;
                }
                case HEADER -> {
                    if (ub(0) != 1) {
                        // not a client hello
                        return Rc.DECLINED;
                    }
                    state = VERSION;
                    to(version);
                    size = 2;
                    left = ((long) ub(1) << 16) + (ub(2) << 8) + ub(3);
                }
                case VERSION -> {
                    state = RANDOM;
                    dst = null;
                    size = 32;
                }
                case RANDOM -> next(SID_LEN, 1);
                case SID_LEN -> skip(SID, ub(0));
                case SID -> next(CS_LEN, 2);
                case CS_LEN -> skip(CS, (ub(0) << 8) + ub(1));
                case CS -> next(CM_LEN, 1);
                case CM_LEN -> skip(CM, ub(0));
                case CM, EXT -> {
                    if (left == 0) {
                        // no (more) extensions
                        return Rc.OK;
                    }
                    if (state == CM) {
                        next(EXT, 2);
                    } else {
                        next(EXT_HEADER, 4);
                    }
                }
                case EXT_HEADER -> {
                    if (ub(0) == 0 && ub(1) == 0 && host == null) {
                        next(SNI_LEN, 2);
                    } else if (ub(0) == 0 && ub(1) == 16 && alpn == null) {
                        next(ALPN_LEN, 2);
                    } else if (ub(0) == 0 && ub(1) == 43) {
                        next(SUPVER_LEN, 1);
                    } else {
                        skip(EXT, (ub(2) << 8) + ub(3));
                    }
                }
                case SNI_LEN -> {
                    ext = (ub(0) << 8) + ub(1);
                    next(SNI_HOST_HEAD, 3);
                }
                case SNI_HOST_HEAD -> {
                    if (ub(0) != 0) {
                        // the SNI host name type is not DNS
                        return Rc.DECLINED;
                    }
                    size = (ub(1) << 8) + ub(2);
                    if (ext < 3 + size) {
                        // SNI format error
                        return Rc.DECLINED;
                    }
                    ext -= 3 + size;
                    host = new byte[(int) size];
                    state = SNI_HOST;
                    to(host);
                }
                case SNI_HOST -> {
                    hostLen = (ub(1) << 8) + ub(2);
                    skip(EXT, ext);
                }
                case ALPN_LEN -> {
                    ext = (ub(0) << 8) + ub(1);
                    alpn = new byte[(int) ext];
                    next(ALPN_PROTO_LEN, 1);
                }
                case ALPN_PROTO_LEN -> {
                    size = ub(0);
                    if (size == 0) {
                        // an empty ALPN protocol
                        return Rc.DECLINED;
                    }
                    if (ext < 1 + size) {
                        // ALPN format error
                        return Rc.DECLINED;
                    }
                    ext -= 1 + size;
                    state = ALPN_PROTO_DATA;
                    dst = alpn;
                    dstAt = alpnLen;
                }
                case ALPN_PROTO_DATA -> {
                    alpnLen += ub(0);
                    if (ext != 0) {
                        alpn[alpnLen++] = ',';
                        next(ALPN_PROTO_LEN, 1);
                    } else {
                        skip(EXT, 0);
                    }
                }
                case SUPVER_LEN -> {
                    // supported_versions: TLSv1.3
                    version[0] = 3;
                    version[1] = 4;
                    skip(EXT, ub(0));
                }
                default -> throw new IllegalStateException("state " + state);
            }
            if (left < size) {
                // failed to parse the handshake
                return Rc.DECLINED;
            }
        }
        return Rc.AGAIN;
    }

    /** The next field, {@code n} bytes read into {@code buf}. */
    private void next(int st, int n) {
        state = st;
        to(buf);
        size = n;
    }

    /** The next field, {@code n} bytes skipped. */
    private void skip(int st, long n) {
        state = st;
        dst = null;
        size = n;
    }

    private void to(byte[] a) {
        dst = a;
        dstAt = 0;
    }

    /**
     * Returns {@code $ssl_preread_protocol}: the version in {@code SSL_get_version()}'s words, empty when unknown.
     *
     * @return the name
     */
    String protocol() {
        int major = version[0] & 0xff;
        int minor = version[1] & 0xff;
        if (major == 0 && minor == 2) {
            return "SSLv2";
        }
        if (major == 3) {
            switch (minor) {
                case 0: return "SSLv3";
                case 1: return "TLSv1";
                case 2: return "TLSv1.1";
                case 3: return "TLSv1.2";
                case 4: return "TLSv1.3";
                default: return "";
            }
        }
        return "";
    }

    /**
     * Returns {@code $ssl_preread_server_name}.
     *
     * @return the name, empty when none was sent
     */
    String serverName() {
        return host == null ? "" : new String(host, 0, Math.min(hostLen, host.length), StandardCharsets.ISO_8859_1);
    }

    /**
     * Returns {@code $ssl_preread_alpn_protocols}.
     *
     * @return the protocols, comma-separated, empty when none were offered
     */
    String alpnProtocols() {
        return alpn == null ? "" : new String(alpn, 0, alpnLen, StandardCharsets.ISO_8859_1);
    }
}
