package jinx.kernel.internal.process;

import java.io.IOException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Processes;
import jinx.kernel.os.SigSet;
import jinx.kernel.os.SignalInfo;
import jinx.kernel.os.Signals;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.EventActions;

/**
 * A serving process's own descriptors in its event loop, nginx's {@code ngx_add_channel_event()}: the signalfd
 * (DESIGN 6a: the worker's {@code sigsuspend} is its loop) and the channel to the master. Both are registered
 * level-triggered as connections marked {@code channel}, so a graceful exit neither waits for nor closes them.
 * Handlers run on the loop thread.
 */
final class ProcessEvents {

    private ProcessEvents() {
    }

    /**
     * Opens a non-blocking signalfd for the server's set when this thread blocks it (so, by inheritance, every
     * thread of the JVM), or returns -1: a JVM that does not block them does not own its signals.
     *
     * @param log where a failure goes
     * @return the signalfd, or -1
     */
    static int signalfd(ErrorLog log) {
        try (SigSet set = Signals.serverSet(); SigSet mask = Signals.threadMask()) {
            for (int signo : set.signals()) {
                if (!mask.contains(signo)) {
                    return -1;
                }
            }
            return Signals.signalfd(-1, set, Platform.SFD_CLOEXEC | Platform.SFD_NONBLOCK);
        } catch (NativeIoException e) {
            log.alert(e.getMessage());
            return -1;
        }
    }

    /**
     * Registers {@code fd} in the loop with a read handler.
     *
     * @return the connection holding it (closing it closes {@code fd})
     */
    private static Connection add(EventLoop loop, int fd, Consumer<Connection> onRead) throws IOException {
        Syscalls.setNonBlocking(fd);
        Connection c = loop.getConnection(fd, loop.log());
        if (c == null) {
            throw new IOException("no free connection for the channel " + fd);
        }
        c.read.channel = true;
        c.write.channel = true;
        c.read.handler = ev -> onRead.accept(c);
        loop.actions().add(c.read, EventActions.READ_EVENT, EventActions.LEVEL_EVENT);
        return c;
    }

    /**
     * Registers the signalfd: every readable wake-up reads all pending signals and hands each to
     * {@code signal} (signo, sender pid).
     *
     * @return its connection
     * @throws IOException when it cannot be registered
     */
    static Connection addSignals(EventLoop loop, int signalFd, BiConsumer<Integer, Integer> signal)
        throws IOException {
        NativeMemory memory = new NativeMemory();
        SignalInfo info = new SignalInfo(memory, 8);
        return add(loop, signalFd, c -> {
            try {
                while (Signals.read(signalFd, info) != Rc.AGAIN && info.count() > 0) {
                    for (int i = 0; i < info.count(); i++) {
                        signal.accept(info.signo(i), info.pid(i));
                    }
                }
            } catch (NativeIoException e) {
                loop.log().alert(e.getMessage());
            }
        });
    }

    /**
     * Registers the channel to the master, nginx's {@code ngx_channel_handler()}: each message goes to
     * {@code command}; end of file (the master is gone) closes the channel and reports a message whose
     * {@link ProcessChannel.Message#eof()} holds.
     *
     * @return its connection
     * @throws IOException when it cannot be registered
     */
    static Connection addChannel(EventLoop loop, int channelFd, Consumer<ProcessChannel.Message> command)
        throws IOException {
        return add(loop, channelFd, c -> {
            for (;;) {
                ProcessChannel.Message m;
                try {
                    m = ProcessChannel.read(channelFd);
                } catch (NativeIoException e) {
                    loop.log().alert(e.getMessage());
                    m = new ProcessChannel.Message(0, 0, 0, -1);
                }
                if (m == ProcessChannel.NONE) {
                    return;
                }
                if (loop.log().isEnabled(LogLevel.DEBUG)) {
                    loop.log().log(LogLevel.DEBUG, "channel command: " + ProcessChannel.name(m.command()));
                }
                if (m.eof()) {
                    loop.closeConnection(c);
                    command.accept(m);
                    return;
                }
                command.accept(m);
            }
        });
    }

    /**
     * Tells the master this worker serves: {@code READY} on the channel.
     *
     * @param channelFd the channel
     * @param log where a failure goes
     */
    static void reportReady(int channelFd, ErrorLog log) {
        report(channelFd, ProcessChannel.READY, 0, log);
    }

    /**
     * Tells the master something about this worker on the channel: {@code READY}, {@code RELOAD_FAILED}.
     *
     * @param channelFd the channel
     * @param command the message
     * @param reload the number of the reload it answers, 0 for the start
     * @param log where a failure goes
     */
    static void report(int channelFd, int command, int reload, ErrorLog log) {
        String what = command == ProcessChannel.READY ? "ready" : ProcessChannel.name(command);
        try {
            if (!ProcessChannel.write(channelFd, command, Processes.getpid(), reload)) {
                log.alert("reporting " + what + " failed: the channel is full");
            }
        } catch (NativeIoException e) {
            log.alert("reporting " + what + " failed: " + e.getMessage());
        }
    }
}
