package jinx.kernel.internal.process;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

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
 * talks worker to worker), so {@code fd} is -1 and {@code SCM_RIGHTS} stays unused although
 * {@link Channels#sendFds} could carry it. A worker sends {@link #READY} once its loop turns, which replaces
 * nginx's fixed 100 ms wait during a reload. End of file on a worker's end means the master is gone.
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

    /** Size of one message: four ints. */
    static final int SIZE = 16;

    /** One message; {@code command} 0 with {@code pid} 0 stands for end of file. */
    record Message(int command, int pid, int slot, int fd) {

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
     * nginx's {@code ngx_read_channel()}: reads one message.
     *
     * @param fd the channel
     * @return the message, {@link #NONE} when nothing is waiting, or one whose {@link Message#eof()} holds
     * @throws NativeIoException {@code recvmsg() failed (...)}
     */
    static Message read(int fd) throws NativeIoException {
        ReceivedFds r = Channels.recvFds(fd, SIZE, 1);
        for (int extra : r.fds()) {
            close(extra);
        }
        if (r.isAgain()) {
            return NONE;
        }
        if (r.isEof()) {
            return EOF;
        }
        if (r.n() != SIZE) {
            throw new NativeIoException("recvmsg()", 0, "a short message of " + r.n() + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(r.data()).order(ByteOrder.nativeOrder());
        return new Message(b.getInt(), b.getInt(), b.getInt(), b.getInt());
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
            default -> "command " + command;
        };
    }
}
