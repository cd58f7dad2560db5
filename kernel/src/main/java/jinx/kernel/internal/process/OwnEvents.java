package jinx.kernel.internal.process;

import java.io.IOException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.os.Syscalls;

/**
 * A serving process's own descriptors and their connections in the loop in force ({@link ProcessEvents}): the
 * signalfd of a process that owns its signals, and a worker's channel to its master. A reload moves both into the
 * new cycle's loop ({@link #moveTo}); the old loop, drained on a thread of its own, must neither read them nor
 * close them as it ends.
 */
final class OwnEvents {

    private final BiConsumer<Integer, Integer> signal;
    private final Consumer<ProcessChannel.Message> command;
    private int signalFd = -1;
    private Connection signals;
    private int channelFd = -1;
    private Connection channel;

    /**
     * Holds no descriptor yet.
     *
     * @param signal what a signal does (signo, sender pid)
     * @param command what a message from the master does
     */
    OwnEvents(BiConsumer<Integer, Integer> signal, Consumer<ProcessChannel.Message> command) {
        this.signal = signal;
        this.command = command;
    }

    /** Sets the signalfd, or -1. */
    void signalFd(int fd) {
        signalFd = fd;
    }

    /** The signalfd, or -1: whether this process owns its signals. */
    int signalFd() {
        return signalFd;
    }

    /** Sets the channel to the master, or -1. */
    void channelFd(int fd) {
        channelFd = fd;
    }

    /** The channel to the master, or -1 (none, or the master is gone). */
    int channelFd() {
        return channelFd;
    }

    /** The master closed the channel: the loop closed its end already. */
    void channelClosed() {
        channelFd = -1;
        channel = null;
    }

    /**
     * Registers the descriptors in the loop (nginx's worker: {@code ngx_add_channel_event}).
     *
     * @param loop the loop in force
     * @throws IOException when one cannot be registered
     */
    void add(EventLoop loop) throws IOException {
        if (signalFd != -1) {
            signals = ProcessEvents.addSignals(loop, signalFd, signal);
        }
        if (channelFd != -1) {
            channel = ProcessEvents.addChannel(loop, channelFd, command);
        }
    }

    /**
     * Moves the descriptors from {@code from} into {@code next}: the channel under a second descriptor of the same
     * socket (nothing in it is lost), a new signalfd for the same blocked set; the old ones closed in {@code from}.
     *
     * @param from the loop in force
     * @param next the new cycle's loop
     * @param log where a failure goes
     * @return false when they could not be registered in {@code next} (logged): they stay in {@code from}, and
     *     what {@code next} got is closed with it
     */
    boolean moveTo(EventLoop from, EventLoop next, ErrorLog log) {
        int newChannelFd = -1;
        Connection newChannel = null;
        int newSignalFd = -1;
        Connection newSignals = null;
        try {
            if (channelFd != -1) {
                newChannelFd = Syscalls.dup(channelFd);
                newChannel = ProcessEvents.addChannel(next, newChannelFd, command);
            }
            if (signalFd != -1) {
                newSignalFd = ProcessEvents.signalfd(log);
                newSignals = ProcessEvents.addSignals(next, newSignalFd, signal);
            }
        } catch (IOException e) {
            log.alert("reload failed: " + e.getMessage());
            if (newChannel == null) {
                ProcessChannel.close(newChannelFd);
            }
            if (newSignals == null) {
                ProcessChannel.close(newSignalFd);
            }
            return false;
        }
        if (newChannel != null) {
            from.closeConnection(channel);
            channelFd = newChannelFd;
            channel = newChannel;
        }
        if (newSignals != null) {
            from.closeConnection(signals);
            signalFd = newSignalFd;
            signals = newSignals;
        }
        return true;
    }
}
