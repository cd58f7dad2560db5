package jinx.kernel.internal.process;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

import jinx.kernel.os.Channels;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.ReceivedFds;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;

/**
 * The master-worker channel, nginx's {@code ngx_channel_t} and {@code src/os/unix/ngx_channel.c}: a unix stream
 * socketpair per worker, the master's end non-blocking and close-on-exec, the worker's end inherited at
 * {@link MasterProcess#CHANNEL_FD}. Each message is fixed-size: command, pid, slot, fd (four native-order ints).
 *
 * <p>The master sends {@link #QUIT}, {@link #TERMINATE}, {@link #REOPEN}, and {@link #OPEN_CHANNEL} /
 * {@link #CLOSE_CHANNEL} announcing a sibling's pid and slot; nothing passes a sibling's descriptor yet (no module
 * talks worker to worker), so {@code fd} is -1. {@link #RELOAD} (Jinx's, issue #35) is the one message with
 * descriptors ({@code SCM_RIGHTS}): the new cycle's sealed snapshot, the worker's listening sockets and the shared
 * zones, which the worker builds its next cycle from in its own JVM ({@link WorkerReload}); its {@code pid} is the
 * count of descriptors and its {@code slot} the reload's number for that worker (1, 2, ...). A worker sends
 * {@link #READY} once its loop turns (again after a {@code RELOAD}, with the reload's number in {@code slot}; 0 for
 * its start), which replaces nginx's fixed 100 ms wait during a reload, and {@link #RELOAD_FAILED} (the number too)
 * when it could not take the new cycle: the master replaces it with a new JVM. End of file on a worker's end means
 * the master is gone.
 */
final class ProcessChannel {

    /** nginx's {@code NGX_CMD_OPEN_CHANNEL}: a sibling started (pid, slot). */
    static final int OPEN_CHANNEL = 1;
    /** nginx's {@code NGX_CMD_CLOSE_CHANNEL}: a sibling is gone (pid, slot). */
    static final int CLOSE_CHANNEL = 2;
    /** nginx's {@code NGX_CMD_QUIT}: stop gracefully. */
    static final int QUIT = 3;
    /** nginx's {@code NGX_CMD_TERMINATE}: stop now. */
    static final int TERMINATE = 4;
    /** nginx's {@code NGX_CMD_REOPEN}: reopen the log files. */
    static final int REOPEN = 5;
    /** Worker to master: the loop turns (Jinx's; nginx has no such command). */
    static final int READY = 6;

    /** Master to worker: build the cycle of the descriptors that come with it (Jinx's, issue #35). */
    static final int RELOAD = 7;
    /** Worker to master: a {@link #RELOAD} failed, the worker still serves the cycle it had (Jinx's). */
    static final int RELOAD_FAILED = 8;

    /** The most descriptors one message carries: the kernel's {@code SCM_MAX_FD} is 253. */
    static final int MAX_FDS = 253;

    /** Size of one message: four ints. */
    static final int SIZE = 16;

    /**
     * One message; {@code command} 0 with {@code pid} 0 stands for end of file.
     *
     * @param fds the descriptors that came with a {@link #RELOAD}, now the reader's; empty for any other
     */
    record Message(int command, int pid, int slot, int fd, int[] fds) {

        Message(int command, int pid, int slot, int fd) {
            this(command, pid, slot, fd, new int[0]);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Message m && command == m.command && pid == m.pid && slot == m.slot && fd == m.fd
                && Arrays.equals(fds, m.fds);
        }

        @Override
        public int hashCode() {
            return Objects.hash(command, pid, slot, fd) * 31 + Arrays.hashCode(fds);
        }

        /** Whether the peer closed its end. */
        boolean eof() {
            return command == 0;
        }
    }

    /** What a read returns when nothing is waiting. */
    static final Message NONE = new Message(-1, 0, 0, -1);
    private static final Message EOF = new Message(0, 0, 0, -1);

    private ProcessChannel() {
    }

    /**
     * Opens a channel: element 0 is the master's end (non-blocking, close-on-exec), element 1 the worker's
     * (blocking as nginx leaves it: the worker marks it non-blocking itself before adding it to its loop).
     *
     * @return the two ends
     * @throws NativeIoException {@code socketpair() failed (...)}
     */
    static int[] open() throws NativeIoException {
        int[] sv = Sockets.socketpair(Platform.AF_UNIX, Platform.SOCK_STREAM);
        try {
            Syscalls.setNonBlocking(sv[0]);
            Syscalls.setCloexec(sv[0]);
            Syscalls.setCloexec(sv[1]);
        } catch (NativeIoException e) {
            close(sv[0]);
            close(sv[1]);
            throw e;
        }
        return sv;
    }

    /**
     * nginx's {@code ngx_write_channel()}: sends one message.
     *
     * @param fd the channel
     * @param command the command
     * @param pid the pid it is about
     * @param slot the slot it is about
     * @return whether it was sent (false: the socket buffer is full, the caller falls back to a signal)
     * @throws NativeIoException {@code sendmsg() failed (...)}, e.g. the peer is gone
     */
    static boolean write(int fd, int command, int pid, int slot) throws NativeIoException {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.nativeOrder());
        b.putInt(command).putInt(pid).putInt(slot).putInt(-1);
        return Channels.sendFds(fd, b.array()) == SIZE;
    }

    /**
     * Sends one message with descriptors ({@link #RELOAD}); the sender's stay open.
     *
     * @param fd the channel
     * @param command the command
     * @param slot what the command says in {@code slot}: the reload's number
     * @param fds at most {@link #MAX_FDS} descriptors
     * @return whether it was sent (false: the socket buffer is full)
     * @throws NativeIoException {@code sendmsg() failed (...)}, e.g. the peer is gone
     */
    static boolean write(int fd, int command, int slot, int[] fds) throws NativeIoException {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.nativeOrder());
        b.putInt(command).putInt(fds.length).putInt(slot).putInt(-1);
        return Channels.sendFds(fd, b.array(), fds) == SIZE;
    }

    /**
     * nginx's {@code ngx_read_channel()}: reads one message.
     *
     * @param fd the channel
     * @return the message, {@link #NONE} when nothing is waiting, or one whose {@link Message#eof()} holds
     * @throws NativeIoException {@code recvmsg() failed (...)}
     */
    static Message read(int fd) throws NativeIoException {
        ReceivedFds r = Channels.recvFds(fd, SIZE, MAX_FDS);
        if (r.isAgain()) {
            return NONE;
        }
        if (r.isEof()) {
            return EOF;
        }
        if (r.n() != SIZE || r.truncated()) {
            closeAll(r.fds());
            throw new NativeIoException("recvmsg()", 0, "a short message of " + r.n() + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(r.data()).order(ByteOrder.nativeOrder());
        int command = b.getInt();
        if (command != RELOAD) {
            // only a RELOAD carries descriptors: any other's would leak
            closeAll(r.fds());
            return new Message(command, b.getInt(), b.getInt(), b.getInt());
        }
        return new Message(command, b.getInt(), b.getInt(), b.getInt(), r.fds());
    }

    /**
     * Closes a descriptor, ignoring errors (nginx's {@code ngx_close_channel()}).
     *
     * @param fd the descriptor, or -1
     */
    static void close(int fd) {
        if (fd < 0) {
            return;
        }
        try {
            Syscalls.close(fd);
        } catch (NativeIoException e) {
            // already gone: nothing to do
        }
    }

    /**
     * Closes descriptors, ignoring errors.
     *
     * @param fds the descriptors
     */
    static void closeAll(int[] fds) {
        for (int fd : fds) {
            close(fd);
        }
    }

    /**
     * The command's name for the debug log.
     *
     * @param command the command
     * @return its name
     */
    static String name(int command) {
        return switch (command) {
            case OPEN_CHANNEL -> "OPEN_CHANNEL";
            case CLOSE_CHANNEL -> "CLOSE_CHANNEL";
            case QUIT -> "QUIT";
            case TERMINATE -> "TERMINATE";
            case REOPEN -> "REOPEN";
            case READY -> "READY";
            case RELOAD -> "RELOAD";
            case RELOAD_FAILED -> "RELOAD_FAILED";
            default -> "command " + command;
        };
    }
}
