package jinx.kernel;

/**
 * A link of a chain of buffers: nginx's {@code ngx_chain_t}.
 */
public final class BufChain {

    /** The buffer. */
    public Buf buf;
    /** The next link, or null. */
    public BufChain next;

    /**
     * A link.
     *
     * @param buf the buffer
     * @param next the next link, or null
     */
    public BufChain(Buf buf, BufChain next) {
        this.buf = buf;
        this.next = next;
    }

    /**
     * A chain of one buffer.
     *
     * @param buf the buffer
     * @return the chain
     */
    public static BufChain of(Buf buf) {
        return new BufChain(buf, null);
    }

    /**
     * Returns the total size of data in the chain from this link on.
     *
     * @return bytes
     */
    public long size() {
        long n = 0;
        for (BufChain cl = this; cl != null; cl = cl.next) {
            n += cl.buf.size();
        }
        return n;
    }
}
