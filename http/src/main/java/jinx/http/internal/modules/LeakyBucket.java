package jinx.http.internal.modules;

import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.SharedZone;

/**
 * nginx's leaky bucket of {@code ngx_http_limit_req_module.c}, in its integer arithmetic: the excess is kept in
 * thousandths of a request ({@code 1000} is one request over the rate), drained at {@code rate} thousandths per
 * second, and a request adds 1000. {@code lookup}, {@code account} and {@code expire} are nginx's
 * {@code ngx_http_limit_req_lookup()}, {@code ngx_http_limit_req_account()} and
 * {@code ngx_http_limit_req_expire()}, on a node of a {@link ShmTable}: {@code last} (monotonic ms),
 * {@code excess}, {@code count} (requests between lookup and account).
 */
final class LeakyBucket {

    /** The node's payload. */
    static final int PAYLOAD = 24;
    private static final int LAST = ShmTable.PAYLOAD;
    private static final int EXCESS = ShmTable.PAYLOAD + 8;
    private static final int COUNT = ShmTable.PAYLOAD + 16;

    /** nginx's NGX_DECLINED: no key, nothing to limit. */
    static final int DECLINED = -5;
    /** nginx's NGX_BUSY: over the burst. */
    static final int BUSY = -3;
    /** nginx's NGX_ERROR: no room for the key. */
    static final int ERROR = -1;
    /** nginx's NGX_OK: accounted (the last limit). */
    static final int OK = 0;
    /** nginx's NGX_AGAIN: looked up, to be accounted once every limit passed. */
    static final int AGAIN = -2;

    private LeakyBucket() {
    }

    /** A request's lookups: nginx keeps them in {@code ctx->node} and the handler's {@code excess}. */
    static final class Scratch {
        long[] nodes = new long[4];
        long excess;

        void clear(int n) {
            if (nodes.length < n) {
                nodes = new long[n];
            }
            java.util.Arrays.fill(nodes, 0, n, 0L);
            excess = 0;
        }
    }

    /**
     * nginx's {@code ngx_http_limit_req_lookup()}, the zone's lock held.
     *
     * @param z the zone
     * @param burst the limit's burst, in thousandths
     * @param hash the key's CRC32
     * @param key the key
     * @param s where the excess and the node go
     * @param index the limit's index
     * @param account whether this is the last limit
     * @param now the monotonic time in ms
     * @param log where {@code could not allocate node} goes
     * @return {@link #BUSY}, {@link #ERROR}, {@link #OK} or {@link #AGAIN}
     */
    static int lookup(LimitZone z, long burst, int hash, String key, Scratch s, int index, boolean account,
                      long now, ErrorLog log) {
        ShmTable t = z.table;
        SharedZone m = t.zone();
        long node = t.find(hash, key);
        if (node != 0) {
            t.touch(node);
            long ms = elapsed(now, m.getLong(node + LAST));
            long excess = Math.max(0, m.getLong(node + EXCESS) - z.rate * ms / 1000 + 1000);
            s.excess = excess;
            if (excess > burst) {
                return BUSY;
            }
            if (account) {
                m.putLong(node + EXCESS, excess);
                if (ms != 0) {
                    m.putLong(node + LAST, now);
                }
                return OK;
            }
            m.putLong(node + COUNT, m.getLong(node + COUNT) + 1);
            s.nodes[index] = node;
            return AGAIN;
        }
        s.excess = 0;
        expire(z, 1, now);
        node = t.insert(hash, key);
        if (node == 0) {
            expire(z, 0, now);
            node = t.insert(hash, key);
            if (node == 0) {
                log.log(LogLevel.ALERT, "could not allocate node in limit_req zone \"" + z.name + "\"");
                return ERROR;
            }
        }
        if (account) {
            m.putLong(node + LAST, now);
            return OK;
        }
        m.putLong(node + COUNT, 1);
        s.nodes[index] = node;
        return AGAIN;
    }

    /**
     * The excess after {@code ms} for the account step: nginx's {@code ngx_http_limit_req_account()} for one
     * limit, the zone's lock held; the node's count goes down.
     *
     * @param z the zone
     * @param node the node looked up
     * @param now the monotonic time in ms
     * @return the new excess
     */
    static long account(LimitZone z, long node, long now) {
        SharedZone m = z.table.zone();
        long ms = elapsed(now, m.getLong(node + LAST));
        long excess = Math.max(0, m.getLong(node + EXCESS) - z.rate * ms / 1000 + 1000);
        if (ms != 0) {
            m.putLong(node + LAST, now);
        }
        m.putLong(node + EXCESS, excess);
        m.putLong(node + COUNT, m.getLong(node + COUNT) - 1);
        return excess;
    }

    /**
     * Gives back a lookup that will not be accounted (nginx's {@code ngx_http_limit_req_unlock()}), the zone's lock
     * held.
     *
     * @param z the zone
     * @param node the node
     */
    static void release(LimitZone z, long node) {
        SharedZone m = z.table.zone();
        m.putLong(node + COUNT, m.getLong(node + COUNT) - 1);
    }

    /**
     * The delay an excess asks for: {@code (excess - delay) * 1000 / rate} ms over the limit's {@code delay=}.
     *
     * @param excess the excess, in thousandths
     * @param delay the limit's delay, in thousandths
     * @param rate the zone's rate
     * @return the delay in ms, 0 for none
     */
    static long delay(long excess, long delay, long rate) {
        return excess <= delay ? 0 : (excess - delay) * 1000 / rate;
    }

    /** nginx's clamping of the time since {@code last}: a clock far behind counts as 1 ms, slightly behind as 0. */
    static long elapsed(long now, long last) {
        long ms = now - last;
        if (ms < -60000) {
            return 1;
        }
        return Math.max(ms, 0);
    }

    /**
     * nginx's {@code ngx_http_limit_req_expire()}: with {@code n == 1} one or two idle keys drained for a minute
     * go; with {@code n == 0} the least recently used goes whatever its state, then one or two idle ones.
     */
    static void expire(LimitZone z, int n, long now) {
        ShmTable t = z.table;
        SharedZone m = t.zone();
        while (n < 3) {
            long node = t.last();
            if (node == 0 || m.getLong(node + COUNT) != 0) {
                return;
            }
            if (n++ != 0) {
                long ms = Math.abs(now - m.getLong(node + LAST));
                if (ms < 60000) {
                    return;
                }
                if (m.getLong(node + EXCESS) - z.rate * ms / 1000 > 0) {
                    return;
                }
            }
            t.remove(node);
        }
    }
}
