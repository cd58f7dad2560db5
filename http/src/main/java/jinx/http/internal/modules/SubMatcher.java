package jinx.http.internal.modules;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import jinx.http.HttpRequest;
import jinx.http.internal.filter.OutBufs;
import jinx.http.spi.BodyFilter;
import jinx.http.spi.ComplexValue;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;

/**
 * The search of nginx's {@code ngx_http_sub_filter_module.c}, state and all ({@code ngx_http_sub_ctx_t}): the
 * strings are found by their byte at the shortest string's last position ({@code tables->shift},
 * {@code tables->index}, as {@code ngx_http_sub_init_tables()} builds them), compared case-insensitively, and a match
 * cut by a buffer's end waits in {@code looked} for the next buffer. The output is nginx's byte for byte, each input
 * buffer giving one output buffer (the bytes held back included when they come out), so the chunks are nginx's too.
 *
 * <p>The data is copied: an input buffer is consumed at once and may be reused by its maker.
 */
final class SubMatcher implements BodyFilter.Next, Runnable {

    private static final int OK = 0;
    private static final int AGAIN = -2;
    private static final int DECLINED = -5;

    /**
     * One string and its replacement: nginx's {@code ngx_http_sub_match_t}.
     *
     * @param match the string, lower-cased
     * @param value the replacement
     */
    record Match(byte[] match, ComplexValue value) {
    }

    /** The strings sorted and indexed: nginx's {@code ngx_http_sub_tables_t} with its matches. */
    static final class Tables {
        final Match[] matches;
        final int min;
        final int max;
        final int[] index = new int[257];
        final int[] shift = new int[256];

        /** nginx's {@code ngx_http_sub_init_tables()}. */
        Tables(List<Match> list) {
            int lo = Integer.MAX_VALUE;
            int hi = 0;
            for (Match m : list) {
                lo = Math.min(lo, m.match().length);
                hi = Math.max(hi, m.match().length);
            }
            min = lo;
            max = hi;
            int at = min - 1;
            // a stable sort, as nginx's insertion sort, by the byte at the shortest string's last position
            List<Match> sorted = new ArrayList<>(list);
            sorted.sort(Comparator.comparingInt(m -> m.match()[at] & 0xff));
            matches = sorted.toArray(new Match[0]);
            int span = Math.min(min, 255);
            Arrays.fill(shift, span);
            int ch = 0;
            for (int i = 0; i < matches.length; i++) {
                byte[] m = matches[i].match();
                for (int j = 0; j < span; j++) {
                    int c = m[min - 1 - j] & 0xff;
                    shift[c] = Math.min(shift[c], j);
                }
                int c = m[min - 1] & 0xff;
                while (ch <= c) {
                    index[ch++] = i;
                }
            }
            while (ch < 257) {
                index[ch++] = matches.length;
            }
        }
    }

    private final Tables tables;
    private final boolean onceConf;
    private final byte[] looked;
    private int lookedLen;
    private final byte[] saved;
    private int savedLen;
    private boolean once;
    private int applied;
    private String[] sub;
    private int offset;
    private int index;

    /** The buffer being searched: its bytes and the search's position. */
    private byte[] data;
    private int pos;
    private int copyStart;
    private int copyEnd;

    private final FileCopy copy = new FileCopy();
    private BodyFilter.Next next;

    SubMatcher(Tables tables, boolean once) {
        this.tables = tables;
        this.onceConf = once;
        this.looked = new byte[tables.max];
        this.saved = new byte[tables.max];
        this.offset = tables.min - 1;
    }

    @Override
    public void run() {
        copy.release();
    }

    /** True once every string was replaced under {@code sub_filter_once}: the rest passes untouched. */
    boolean done() {
        return once && !copy.busy();
    }

    int filter(HttpRequest r, BufChain in, BodyFilter.Next next) {
        this.next = next;
        if (copy.busy() || in != null && FileCopy.hasFile(in)) {
            return copy.filter(r, in, this);
        }
        return filter(r, in);
    }

    /** nginx's {@code ngx_http_sub_body_filter()} on memory buffers. */
    @Override
    public int filter(HttpRequest r, BufChain in) {
        if (once || in == null) {
            return next.filter(r, in);
        }
        BufChain out = null;
        BufChain tail = null;
        boolean flush = false;
        for (BufChain cl = in; cl != null; cl = cl.next) {
            Buf b = cl.buf;
            flush |= b.flush || FileCopy.recycled(b);
            Buf o = search(r, b, cl.next == null && flush);
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

    /** One buffer searched: what nginx's loop over {@code ctx->buf} sends on, in one buffer. */
    private Buf search(HttpRequest r, Buf b, boolean last) {
        ByteBuffer src = b.mem;
        int n = src == null || b.inFile ? 0 : src.remaining();
        data = new byte[n];
        if (n > 0) {
            src.get(data);
        }
        pos = 0;
        Out out = new Out(n + tables.max);
        while (pos < n) {
            int rc = parse(last);
            if (savedLen > 0) {
                out.write(saved, 0, savedLen);
                savedLen = 0;
            }
            if (copyStart != copyEnd) {
                out.write(data, copyStart, copyEnd - copyStart);
            }
            if (rc == AGAIN) {
                continue;
            }
            if (sub == null) {
                sub = new String[tables.matches.length];
            }
            if (sub[index] == null) {
                sub[index] = tables.matches[index].value().evaluate(r);
            }
            byte[] s = sub[index].getBytes(StandardCharsets.ISO_8859_1);
            out.write(s, 0, s.length);
            index = 0;
            once = onceConf && ++applied == tables.matches.length;
        }
        if (lookedLen > 0 && (b.last || b.lastInChain)) {
            out.write(looked, 0, lookedLen);
            lookedLen = 0;
        }
        Buf o = OutBufs.temp(Math.max(1, out.len));
        o.mem.put(out.bytes, 0, out.len).flip();
        o.last = b.last;
        o.lastInChain = b.lastInChain;
        o.flush = b.flush;
        o.sync = out.len == 0;
        data = null;
        return o;
    }

    /** nginx's {@code ngx_http_sub_parse()}: offsets below 0 are in {@code looked}. */
    private int parse(boolean flush) {
        int min = tables.min;
        int off = offset;
        int end = data.length - pos;
        int start;
        int nextStart;
        int rc = AGAIN;
        boolean found = false;
        if (once) {
            off = end + min - 1;
        } else {
            scan:
            while (off < end) {
                int c = lower(off < 0 ? looked[lookedLen + off] : data[pos + off]);
                int shift = tables.shift[c];
                if (shift > 0) {
                    off += shift;
                    continue;
                }
                start = off - min + 1;
                for (int i = Math.max(tables.index[c], index), j = tables.index[c + 1]; i < j; i++) {
                    if (onceConf && sub != null && sub[i] != null) {
                        continue;
                    }
                    byte[] m = tables.matches[i].match();
                    int mrc = match(start, m);
                    if (mrc == DECLINED) {
                        continue;
                    }
                    index = i;
                    if (mrc == AGAIN) {
                        break scan;
                    }
                    offset = off + m.length;
                    found = true;
                    rc = OK;
                    break scan;
                }
                off++;
                index = 0;
            }
            if (!found && off >= end && flush) {
                off = flushed(off, end);
            }
        }
        if (found) {
            start = offset - tables.matches[index].match().length - min + 1;
            nextStart = start + tables.matches[index].match().length;
            end = Math.max(nextStart, 0);
        } else {
            offset = off;
            start = off - min + 1;
            nextStart = start;
        }
        // send [-looked, start) on, keep [next, end) in looked
        savedLen = lookedLen + Math.min(start, 0);
        System.arraycopy(looked, 0, saved, 0, savedLen);
        copyStart = pos;
        copyEnd = pos + Math.max(start, 0);
        int keep = Math.min(nextStart, 0);
        System.arraycopy(looked, lookedLen + keep, looked, 0, -keep);
        int from = Math.max(nextStart, 0);
        System.arraycopy(data, pos + from, looked, -keep, end - from);
        lookedLen = -keep + end - from;
        pos += end;
        offset -= end;
        return rc;
    }

    /** nginx's {@code if (flush)} loop: the offsets where no string can start any more are let go. */
    private int flushed(int off, int end) {
        for (;;) {
            int start = off - tables.min + 1;
            if (start >= end) {
                return off;
            }
            for (Match m : tables.matches) {
                if (match(start, m.match()) == AGAIN) {
                    return off;
                }
            }
            off++;
        }
    }

    /** nginx's {@code ngx_http_sub_match()}. */
    private int match(int start, byte[] m) {
        int pi = 0;
        int p;
        if (start >= 0) {
            p = pos + start;
        } else {
            for (int lp = lookedLen + start; lp < lookedLen && pi < m.length; lp++, pi++) {
                if (lower(looked[lp]) != (m[pi] & 0xff)) {
                    return DECLINED;
                }
            }
            p = pos;
        }
        for (; p < data.length && pi < m.length; p++, pi++) {
            if (lower(data[p]) != (m[pi] & 0xff)) {
                return DECLINED;
            }
        }
        return pi != m.length ? AGAIN : OK;
    }

    private static int lower(byte b) {
        int c = b & 0xff;
        return c >= 'A' && c <= 'Z' ? c | 0x20 : c;
    }

    /** A growable byte array. */
    private static final class Out {
        byte[] bytes;
        int len;

        Out(int size) {
            bytes = new byte[Math.max(16, size)];
        }

        void write(byte[] b, int from, int n) {
            if (len + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, len + n));
            }
            System.arraycopy(b, from, bytes, len, n);
            len += n;
        }
    }
}
