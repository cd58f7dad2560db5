package jinx.kernel.os;

import java.util.Arrays;

import jnr.constants.platform.SocketMessage;

import jinx.kernel.Rc;

/**
 * Bytes and descriptors over a unix socket, {@code sendmsg}/{@code recvmsg} with {@code SCM_RIGHTS}: what nginx's
 * {@code src/os/unix/ngx_channel.c} does between the master and its workers. The facade rules of
 * {@link Syscalls} apply. Not hot: each call allocates its {@code struct msghdr} and frees it before returning.
 */
public final class Channels {

    private static final int EINTR = Errors.EINTR;

    /*
     * struct msghdr { void *msg_name; socklen_t msg_namelen; struct iovec *msg_iov; size_t msg_iovlen;
     *                 void *msg_control; size_t msg_controllen; int msg_flags; };
     * struct cmsghdr { size_t cmsg_len; int cmsg_level; int cmsg_type; unsigned char cmsg_data[]; };
     * (glibc's widths; the probe reports each field's offset and size.)
     */
    private static final int SIZEOF_MSGHDR = Platform.probe("SIZEOF_MSGHDR");
    private static final int MSG_IOV = Platform.probe("OFFSETOF_MSG_IOV");
    private static final int MSG_IOVLEN = Platform.probe("OFFSETOF_MSG_IOVLEN");
    private static final int SIZEOF_MSG_IOVLEN = Platform.probe("SIZEOF_MSG_IOVLEN");
    private static final int MSG_CONTROL = Platform.probe("OFFSETOF_MSG_CONTROL");
    private static final int MSG_CONTROLLEN = Platform.probe("OFFSETOF_MSG_CONTROLLEN");
    private static final int SIZEOF_MSG_CONTROLLEN = Platform.probe("SIZEOF_MSG_CONTROLLEN");
    private static final int MSG_FLAGS = Platform.probe("OFFSETOF_MSG_FLAGS");
    private static final int SIZEOF_CMSGHDR = Platform.probe("SIZEOF_CMSGHDR");
    private static final int CMSG_LEN = Platform.probe("OFFSETOF_CMSG_LEN");
    private static final int SIZEOF_CMSG_LEN = Platform.probe("SIZEOF_CMSG_LEN");
    private static final int CMSG_LEVEL = Platform.probe("OFFSETOF_CMSG_LEVEL");
    private static final int CMSG_TYPE = Platform.probe("OFFSETOF_CMSG_TYPE");
    private static final int CMSG_DATA = Platform.probe("CMSG_DATA_OFFSET");
    private static final int CMSG_ALIGN = Platform.probe("CMSG_ALIGN_UNIT");
    private static final int MSG_TRUNC = SocketMessage.MSG_TRUNC.intValue();
    private static final int MSG_CTRUNC = SocketMessage.MSG_CTRUNC.intValue();

    private Channels() {
    }

    /**
     * Sends bytes and descriptors ({@code SCM_RIGHTS}) over a unix socket: nginx's {@code ngx_write_channel}.
     * Not hot. The receiver gets its own descriptors for the same open files; the sender's stay open.
     *
     * @param sock a unix stream socket
     * @param data at least one byte (a stream socket delivers descriptors only with data)
     * @param fds the descriptors, maybe none
     * @return bytes sent (the descriptors travel with the first), or {@link Rc#AGAIN}
     * @throws NativeIoException {@code sendmsg() failed (...)}
     */
    public static int sendFds(int sock, byte[] data, int... fds) throws NativeIoException {
        if (data.length == 0) {
            throw new IllegalArgumentException("no data to carry the descriptors");
        }
        int control = fds.length == 0 ? 0 : cmsgSpace(fds.length * 4);
        long msg = NativeMemory.allocateTemporary(SIZEOF_MSGHDR + Platform.SIZEOF_IOVEC + control + data.length);
        try {
            long cmsg = layout(msg, control, data.length);
            NativeMemory.put(iovBase(msg), data, 0, data.length);
            if (fds.length > 0) {
                NativeMemory.putUnsigned(cmsg + CMSG_LEN, SIZEOF_CMSG_LEN, CMSG_DATA + fds.length * 4L);
                NativeMemory.putInt(cmsg + CMSG_LEVEL, Platform.SOL_SOCKET);
                NativeMemory.putInt(cmsg + CMSG_TYPE, Platform.SCM_RIGHTS);
                for (int i = 0; i < fds.length; i++) {
                    NativeMemory.putInt(cmsg + CMSG_DATA + i * 4L, fds[i]);
                }
            }
            for (;;) {
                long n = Native.C.sendmsg(sock, msg, Platform.MSG_NOSIGNAL);
                if (n >= 0) {
                    return (int) n;
                }
                int errno = Errors.last();
                if (errno != EINTR) {
                    return Errors.again("sendmsg()", errno);
                }
            }
        } finally {
            NativeMemory.freeTemporary(msg);
        }
    }

    /**
     * Receives bytes and descriptors sent by {@link #sendFds}: nginx's {@code ngx_read_channel}. Not hot. The
     * descriptors arrive close-on-exec ({@code MSG_CMSG_CLOEXEC}) and belong to the caller, even when the result
     * says {@link ReceivedFds#truncated()}.
     *
     * @param sock a unix stream socket
     * @param maxData the most bytes to take
     * @param maxFds the most descriptors expected
     * @return what arrived; {@link ReceivedFds#AGAIN} when nothing is waiting
     * @throws NativeIoException {@code recvmsg() failed (...)}
     */
    public static ReceivedFds recvFds(int sock, int maxData, int maxFds) throws NativeIoException {
        int control = maxFds == 0 ? 0 : cmsgSpace(maxFds * 4);
        long msg = NativeMemory.allocateTemporary(SIZEOF_MSGHDR + Platform.SIZEOF_IOVEC + control + maxData);
        try {
            long cmsg = layout(msg, control, maxData);
            long n;
            for (;;) {
                n = Native.C.recvmsg(sock, msg, Platform.MSG_CMSG_CLOEXEC);
                if (n >= 0) {
                    break;
                }
                int errno = Errors.last();
                if (Errors.isAgain(errno)) {
                    return ReceivedFds.AGAIN;
                }
                if (errno != EINTR) {
                    throw Errors.failure("recvmsg()", errno);
                }
            }
            byte[] data = new byte[(int) n];
            NativeMemory.get(iovBase(msg), data, 0, data.length);
            long controlLen = NativeMemory.getUnsigned(msg + MSG_CONTROLLEN, SIZEOF_MSG_CONTROLLEN);
            int flags = NativeMemory.getInt(msg + MSG_FLAGS);
            return new ReceivedFds((int) n, data, rights(cmsg, controlLen),
                                   (flags & (MSG_TRUNC | MSG_CTRUNC)) != 0);
        } finally {
            NativeMemory.freeTemporary(msg);
        }
    }

    /** Lays out msghdr, one iovec, the control area and the data area; returns the control area's address. */
    private static long layout(long msg, int control, int dataLen) {
        long iov = msg + SIZEOF_MSGHDR;
        long cmsg = iov + Platform.SIZEOF_IOVEC;
        long data = cmsg + control;
        NativeMemory.putLong(iov + Platform.OFFSETOF_IOV_BASE, data);
        NativeMemory.putLong(iov + Platform.OFFSETOF_IOV_LEN, dataLen);
        NativeMemory.putLong(msg + MSG_IOV, iov);
        NativeMemory.putUnsigned(msg + MSG_IOVLEN, SIZEOF_MSG_IOVLEN, 1);
        if (control > 0) {
            NativeMemory.putLong(msg + MSG_CONTROL, cmsg);
            NativeMemory.putUnsigned(msg + MSG_CONTROLLEN, SIZEOF_MSG_CONTROLLEN, control);
        }
        return cmsg;
    }

    private static long iovBase(long msg) {
        return NativeMemory.getLong(msg + SIZEOF_MSGHDR + Platform.OFFSETOF_IOV_BASE);
    }

    /** The descriptors of every SCM_RIGHTS message in a control area: CMSG_FIRSTHDR, CMSG_NXTHDR. */
    private static int[] rights(long control, long controlLen) {
        int[] fds = new int[0];
        long off = 0;
        while (off + SIZEOF_CMSGHDR <= controlLen) {
            long c = control + off;
            long len = NativeMemory.getUnsigned(c + CMSG_LEN, SIZEOF_CMSG_LEN);
            if (len < CMSG_DATA || off + len > controlLen) {
                break;
            }
            if (NativeMemory.getInt(c + CMSG_LEVEL) == Platform.SOL_SOCKET
                && NativeMemory.getInt(c + CMSG_TYPE) == Platform.SCM_RIGHTS) {
                int n = (int) ((len - CMSG_DATA) / 4);
                int[] more = Arrays.copyOf(fds, fds.length + n);
                for (int i = 0; i < n; i++) {
                    more[fds.length + i] = NativeMemory.getInt(c + CMSG_DATA + i * 4L);
                }
                fds = more;
            }
            off += align(len);
        }
        return fds;
    }

    /** CMSG_SPACE(len): the aligned header plus the aligned data. */
    private static int cmsgSpace(int len) {
        return CMSG_DATA + (int) align(len);
    }

    private static long align(long len) {
        return (len + CMSG_ALIGN - 1) & -CMSG_ALIGN;
    }
}
