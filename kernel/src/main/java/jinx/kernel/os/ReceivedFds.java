package jinx.kernel.os;

import jinx.kernel.Rc;

/**
 * What {@link Channels#recvFds} received: bytes and the descriptors that came with them. The descriptors are new
 * ones in this process, close-on-exec, and belong to the caller.
 *
 * @param n bytes received, 0 when the peer has closed, or {@link Rc#AGAIN} when nothing was waiting
 * @param data the bytes ({@code n} of them; empty unless {@code n > 0})
 * @param fds the descriptors received, maybe none
 * @param truncated whether data or descriptors did not fit ({@code MSG_TRUNC}/{@code MSG_CTRUNC}: nginx's
 *     {@code recvmsg() truncated data})
 */
public record ReceivedFds(int n, byte[] data, int[] fds, boolean truncated) {

    /** Nothing was waiting. */
    public static final ReceivedFds AGAIN = new ReceivedFds(Rc.AGAIN, new byte[0], new int[0], false);

    /**
     * Returns whether nothing was waiting.
     *
     * @return whether {@code n} is {@link Rc#AGAIN}
     */
    public boolean isAgain() {
        return n == Rc.AGAIN;
    }

    /**
     * Returns whether the peer has closed.
     *
     * @return whether {@code n} is 0
     */
    public boolean isEof() {
        return n == 0;
    }
}
