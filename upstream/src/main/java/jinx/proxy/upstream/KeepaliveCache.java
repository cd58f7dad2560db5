package jinx.proxy.upstream;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Iterator;

import jinx.kernel.Connection;
import jinx.kernel.Event;
import jinx.kernel.EventHandler;
import jinx.kernel.EventLoop;
import jinx.kernel.PeerConnection;
import jinx.kernel.Rc;

/**
 * Idle connections to an upstream's peers kept for the next request: nginx's
 * {@code ngx_http_upstream_keepalive_module.c} ({@code keepalive N}). A worker keeps at most {@code N} idle
 * connections per upstream (the least recently used is closed to make room); one is reused for a request to the
 * same peer the balancer chose, and given back only when its response was read whole and the peer did not say
 * {@code Connection: close}. An idle connection is closed when the peer closes it or sends anything, after
 * {@code keepalive_timeout}, after {@code keepalive_requests} requests and once older than {@code keepalive_time}.
 *
 * <p>One cache per upstream and worker, used on the loop's thread.
 */
public final class KeepaliveCache {

    /** An idle connection. */
    private static final class Item {
        final Connection c;
        final SocketAddress address;
        final long connectedAt;

        Item(Connection c, SocketAddress address, long connectedAt) {
            this.c = c;
            this.address = address;
            this.connectedAt = connectedAt;
        }
    }

    private static final EventHandler IGNORE = ev -> { };

    private final int max;
    private final int requests;
    private final long time;
    private final long timeout;
    private final ArrayDeque<Item> idle = new ArrayDeque<>();
    private final ByteBuffer probe = ByteBuffer.allocateDirect(1);
    /** The handlers an idle connection gets, made once: keeping a connection allocates no lambda. */
    private final EventHandler idleReadHandler = this::idleRead;


    /**
     * A cache.
     *
     * @param max idle connections at most ({@code keepalive})
     * @param requests requests per connection at most ({@code keepalive_requests}, 1000)
     * @param time ms a connection may live ({@code keepalive_time}, 1 h)
     * @param timeout ms a connection may stay idle ({@code keepalive_timeout}, 60 s)
     */
    public KeepaliveCache(int max, int requests, long time, long timeout) {
        this.max = max;
        this.requests = requests;
        this.time = time;
        this.timeout = timeout;
    }

    /**
     * Returns the idle connections held now.
     *
     * @return the count
     */
    public int size() {
        return idle.size();
    }

    /**
     * Wraps a request's balancer: its peer choice stands, and a cached connection to that peer is used when
     * there is one ({@link Rc#DONE} with {@link PeerConnection#cached} set).
     *
     * @param balancer the request's balancer
     * @return the source to connect with
     */
    public PeerConnection.Source wrap(PeerConnection.Source balancer) {
        return new PeerConnection.Source() {
            @Override
            public int get(PeerConnection pc) {
                int rc = balancer.get(pc);
                if (rc != Rc.OK) {
                    return rc;
                }
                return take(pc);
            }

            @Override
            public void free(PeerConnection pc, int state) {
                keep(pc, state);
                balancer.free(pc, state);
            }
        };
    }

    private int take(PeerConnection pc) {
        for (Iterator<Item> it = idle.iterator(); it.hasNext(); ) {
            Item item = it.next();
            if (!item.address.equals(pc.address)) {
                continue;
            }
            it.remove();
            Connection c = item.c;
            c.loop().deleteTimer(c.read);
            c.idle = false;
            c.log = pc.log != null ? pc.log : c.log;
            c.read.log = c.log;
            c.write.log = c.log;
            pc.connection = c;
            pc.cached = true;
            pc.connectedAt = item.connectedAt;
            return Rc.DONE;
        }
        return Rc.OK;
    }

    /** nginx's {@code ngx_http_upstream_free_keepalive_peer()}: keep the connection, or let the caller close it. */
    private void keep(PeerConnection pc, int state) {
        Connection c = pc.connection;
        if (c == null || (state & PeerConnection.FAILED) != 0 || (state & PeerConnection.KEEPALIVE) == 0
            || max == 0 || c.read.eof || c.read.error || c.read.timedout || c.write.error || c.write.timedout
            || c.read.pendingEof) {
            return;
        }
        EventLoop loop = c.loop();
        if (++c.requests >= requests || loop.wallMillis() - pc.connectedAt > time) {
            return;
        }
        if (c.loop().handleReadEvent(c.read, 0) != Rc.OK) {
            return;
        }
        if (idle.size() >= max) {
            Item oldest = idle.pollLast();
            oldest.c.close();
        }
        Item item = new Item(c, pc.address, pc.connectedAt);
        idle.addFirst(item);
        pc.connection = null;
        c.data = item;
        c.idle = true;
        loop.deleteTimer(c.write);
        c.write.handler = IGNORE;
        c.read.handler = idleReadHandler;
        loop.addTimer(c.read, timeout);
        if (c.read.ready) {
            idleRead(c.read);
        }
    }

    /**
     * nginx's {@code ngx_http_upstream_keepalive_close_handler()}: anything from an idle peer ends it, and so does a
     * worker shutting down gracefully, which marks its idle connections {@code close} and calls this handler.
     */
    private void idleRead(Event ev) {
        Connection c = ev.connection();
        if (!ev.timedout && !c.close) {
            int n = c.io().recv(c, probe.clear());
            if (n == Rc.AGAIN) {
                if (c.loop().handleReadEvent(ev, 0) == Rc.OK) {
                    return;
                }
            }
        }
        idle.removeIf(item -> item.c == c);
        c.close();
    }

    /**
     * Closes every idle connection (a worker stopping, an old cycle's upstream going away).
     */
    public void closeAll() {
        for (Item item; (item = idle.pollFirst()) != null; ) {
            item.c.close();
        }
    }
}
