package jinx.http.internal.modules;

import java.nio.ByteBuffer;

import jinx.http.HttpRequest;
import jinx.http.internal.filter.OutBufs;
import jinx.http.spi.BodyFilter;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;

/**
 * One table of {@code charset_map} and the recoding of a response through it: nginx's
 * {@code ngx_http_charset_tables_t} and the recode functions of {@code ngx_http_charset_filter_module.c}. Between
 * two one-byte charsets a byte maps to a byte (unmapped upper bytes become {@code ?}); towards {@code utf-8} a byte
 * maps to its UTF-8 sequence, and back a code point up to U+FFFF maps to a byte ({@code ?} otherwise). A UTF-8
 * sequence cut by a buffer boundary waits for the next buffer, as nginx's {@code ctx->saved}; a character the
 * one-byte charset lacks becomes an HTML entity ({@code &#20013;}) as in nginx. Not as nginx: an invalid UTF-8
 * sequence becomes one {@code ?} and recoding goes on, where nginx drops what follows it. File data is read
 * into memory first ({@link FileCopy}), as nginx's {@code r->filter_need_in_memory} asks its copy filter.
 */
final class CharsetRecoder implements BodyFilter.Next, Runnable {

    /** The table of one {@code charset_map src dst}: nginx's {@code src2dst} and {@code dst2src}. */
    static final class Table {
        final int src;
        final int dst;
        final boolean utf8;
        /** One-byte charsets: 256 bytes each way. */
        final byte[] src2dst = new byte[256];
        final byte[] dst2src = new byte[256];
        /** Towards utf-8: the UTF-8 bytes of every source byte. */
        final byte[][] toUtf8 = new byte[256][];
        /** Back from utf-8: code point to byte, 0 for unmapped (nginx's zeroed pages). */
        final byte[][] fromUtf8 = new byte[256][];

        Table(int src, int dst, boolean utf8) {
            this.src = src;
            this.dst = dst;
            this.utf8 = utf8;
            fromUtf8[0] = new byte[256];
            for (int i = 0; i < 256; i++) {
                byte b = i < 128 ? (byte) i : (byte) '?';
                src2dst[i] = b;
                dst2src[i] = b;
                toUtf8[i] = new byte[] {b};
                if (i < 128) {
                    fromUtf8[0][i] = (byte) i;
                }
            }
        }

        /** One line of the block: {@code ngx_http_charset_map()}; false for an invalid destination value. */
        boolean map(int from, String to) {
            if (!utf8) {
                int d = hex(to);
                if (d < 0 || d > 255) {
                    return false;
                }
                src2dst[from] = (byte) d;
                dst2src[d] = (byte) from;
                return true;
            }
            if (to.length() / 2 > 3) {
                return false;
            }
            byte[] seq = new byte[to.length() / 2];
            for (int i = 0; i + 1 < to.length() + 1 && i / 2 < seq.length; i += 2) {
                int d = hex(to.substring(i, Math.min(i + 2, to.length())));
                if (d < 0) {
                    return false;
                }
                seq[i / 2] = (byte) d;
            }
            int n = decode(seq, 0, seq.length);
            if (n > 0xffff || n < 0) {
                return false;
            }
            toUtf8[from] = seq;
            if (fromUtf8[n >> 8] == null) {
                fromUtf8[n >> 8] = new byte[256];
            }
            fromUtf8[n >> 8][n & 0xff] = (byte) from;
            return true;
        }
    }

    final FileCopy copy = new FileCopy();
    private byte[] oneByte;
    private byte[][] toUtf8;
    private byte[][] fromUtf8;
    private final byte[] saved = new byte[4];
    private int savedLen;
    private BodyFilter.Next next;

    CharsetRecoder(Table t, boolean forward) {
        if (t.utf8) {
            toUtf8 = forward ? t.toUtf8 : null;
            fromUtf8 = forward ? null : t.fromUtf8;
        } else {
            oneByte = forward ? t.src2dst : t.dst2src;
        }
    }

    /** True when the length changes: the header filter clears {@code Content-Length}. */
    boolean changesLength() {
        return oneByte == null;
    }

    @Override
    public void run() {
        copy.release();
    }

    int filter(HttpRequest r, BufChain in, BodyFilter.Next next) {
        this.next = next;
        if (copy.busy() || in != null && FileCopy.hasFile(in)) {
            return copy.filter(r, in, this);
        }
        return filter(r, in);
    }

    @Override
    public int filter(HttpRequest r, BufChain in) {
        BufChain out = null;
        BufChain tail = null;
        for (BufChain cl = in; cl != null; cl = cl.next) {
            Buf b = cl.buf;
            Buf o = recode(b);
            BufChain link = new BufChain(o, null);
            if (tail == null) {
                out = link;
            } else {
                tail.next = link;
            }
            tail = link;
        }
        return next.filter(r, out);
    }

    /** A buffer's data recoded into a new buffer with its flags; the input is consumed. */
    private Buf recode(Buf b) {
        ByteBuffer src = b.mem;
        int n = src == null ? 0 : src.remaining();
        Buf o = OutBufs.temp(Math.max(1, oneByte != null ? n : toUtf8 != null ? n * 3 : (n + savedLen + 3) * 10));
        ByteBuffer dst = o.mem;
        if (oneByte != null) {
            for (int i = 0; i < n; i++) {
                dst.put(oneByte[src.get() & 0xff]);
            }
        } else if (toUtf8 != null) {
            for (int i = 0; i < n; i++) {
                dst.put(toUtf8[src.get() & 0xff]);
            }
        } else {
            fromUtf8(src, dst, b.last);
        }
        dst.flip();
        o.last = b.last;
        o.lastInChain = b.lastInChain;
        o.flush = b.flush;
        return o;
    }

    /** nginx's {@code ngx_http_charset_recode_from_utf8()}: a cut sequence waits for the next buffer. */
    private void fromUtf8(ByteBuffer src, ByteBuffer dst, boolean last) {
        while (src.hasRemaining()) {
            byte c = src.get();
            if (savedLen == 0 && (c & 0x80) == 0) {
                dst.put(c);
                continue;
            }
            saved[savedLen++] = c;
            int need = length(saved[0]);
            if (need == 0) {
                dst.put((byte) '?');
                savedLen = 0;
                continue;
            }
            if (savedLen < need) {
                continue;
            }
            int cp = decode(saved, 0, need);
            savedLen = 0;
            if (cp < 0) {
                dst.put((byte) '?');
                continue;
            }
            byte[] page = cp > 0xffff ? null : fromUtf8[cp >> 8];
            byte m = page == null ? 0 : page[cp & 0xff];
            if (m != 0 || cp == 0) {
                dst.put(m);
                continue;
            }
            // a character the target lacks: nginx writes it as an HTML entity
            dst.put(("&#" + cp + ";").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        }
        if (last && savedLen > 0) {
            dst.put((byte) '?');
            savedLen = 0;
        }
    }

    private static int length(byte first) {
        int c = first & 0xff;
        return c >= 0xf0 && c < 0xf8 ? 4 : c >= 0xe0 ? (c < 0xf0 ? 3 : 0) : c >= 0xc0 ? 2 : 0;
    }

    /** nginx's {@code ngx_utf8_decode()}: the code point, or -1 for an invalid sequence. */
    static int decode(byte[] s, int from, int n) {
        if (n == 0) {
            return -1;
        }
        int u = s[from] & 0xff;
        if (u < 0x80) {
            return u;
        }
        int len;
        int valid;
        if (u >= 0xf0) {
            u &= 0x07;
            valid = 0xffff;
            len = 3;
        } else if (u >= 0xe0) {
            u &= 0x0f;
            valid = 0x7ff;
            len = 2;
        } else if (u >= 0xc2) {
            u &= 0x1f;
            valid = 0x7f;
            len = 1;
        } else {
            return -1;
        }
        if (n - 1 < len) {
            return -1;
        }
        for (int i = 1; i <= len; i++) {
            int c = s[from + i] & 0xff;
            if (c < 0x80 || c >= 0xc0) {
                return -1;
            }
            u = u << 6 | c & 0x3f;
        }
        return u > valid ? u : -1;
    }

    /** nginx's {@code ngx_hextoi()}: hexadecimal digits only, -1 otherwise. */
    static int hex(String s) {
        if (s.isEmpty() || s.length() > 7) {
            return -1;
        }
        int v = 0;
        for (int i = 0; i < s.length(); i++) {
            int d = Character.digit(s.charAt(i), 16);
            if (d < 0 || s.charAt(i) > 'f') {
                return -1;
            }
            v = v * 16 + d;
        }
        return v;
    }
}
