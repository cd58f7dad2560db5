package jinx.event.epoll;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.Event;
import jinx.kernel.EventHandler;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;

/**
 * A real {@link EventLoop} on {@link EpollEventActions}, with a log the test can read, socketpairs whose one end is
 * lent to a slot and whose other end (the peer) the fixture owns, and native scratch for I/O. {@link #close()}
 * closes the loop (which closes the lent ends still open), the peers and the memory.
 */
final class EpollFixture implements AutoCloseable {

    private static final Pattern TFD =
        Pattern.compile("tfd:\\s+(\\d+)\\s+events:\\s+([0-9a-f]+)\\s+data:\\s+([0-9a-f]+)");

    final ByteArrayOutputStream logged = new ByteArrayOutputStream();
    final ErrorLog log;
    final EpollEventActions actions;
    final EventLoop loop;
    final NativeMemory memory = new NativeMemory();
    final long buf;
    private final List<Integer> peers = new ArrayList<>();

    /** A connection of the loop and the other end of its socketpair. */
    record Pair(Connection c, int peer) {
    }

    /** A handler that counts its calls and remembers what the event said. */
    static final class Recorder implements EventHandler {
        int calls;
        boolean ready;
        boolean pendingEof;
        int available;
        Thread thread;

        @Override
        public void handle(Event ev) {
            calls++;
            ready = ev.ready;
            pendingEof = ev.pendingEof;
            available = ev.available;
            thread = Thread.currentThread();
        }
    }

    EpollFixture(LogLevel level, int nevents) throws IOException {
        log = ErrorLog.open(List.of(new ErrorLog.Target(null, level)),
                            new PrintStream(logged, true, StandardCharsets.ISO_8859_1));
        actions = new EpollEventActions(nevents);
        loop = new EventLoop(null, actions, 64, 0, EventLoop.AcceptSettings.SINGLE, log);
        buf = memory.allocate(65536);
    }

    EpollFixture() throws IOException {
        this(LogLevel.DEBUG, 512);
    }

    /** A non-blocking socketpair: one end lent to a slot (handlers: fresh recorders), the other the peer. */
    Pair pair() throws NativeIoException {
        int[] sv = Sockets.socketpair(Platform.AF_UNIX,
                                      Platform.SOCK_STREAM | Platform.SOCK_NONBLOCK | Platform.SOCK_CLOEXEC);
        peers.add(sv[1]);
        Connection c = loop.getConnection(sv[0], log);
        if (c == null) {
            throw new IllegalStateException("no free slot");
        }
        c.read.handler = new Recorder();
        c.write.handler = new Recorder();
        return new Pair(c, sv[1]);
    }

    static Recorder reads(Connection c) {
        return (Recorder) c.read.handler;
    }

    static Recorder writes(Connection c) {
        return (Recorder) c.write.handler;
    }

    /** Sends {@code n} bytes. */
    int send(int fd, int n) throws NativeIoException {
        NativeMemory.fill(buf, n, (byte) 'x');
        return Sockets.send(fd, buf, n);
    }

    /** Receives what is there: a count, 0 at EOF, or {@code Rc.AGAIN}. */
    int recv(int fd) throws NativeIoException {
        return Sockets.recv(fd, buf, 65536);
    }

    /** Closes a peer the fixture owns. */
    void closePeer(int fd) throws NativeIoException {
        peers.remove(Integer.valueOf(fd));
        Syscalls.close(fd);
    }

    String logText() {
        return logged.toString(StandardCharsets.ISO_8859_1);
    }

    /** The registrations of the loop's epoll instance, descriptor to {events, data}, read from fdinfo. */
    Map<Integer, long[]> registrations() throws IOException {
        String info = Files.readString(Path.of("/proc/self/fdinfo/" + actions.epollFd()));
        Map<Integer, long[]> r = new HashMap<>();
        Matcher m = TFD.matcher(info);
        while (m.find()) {
            r.put(Integer.parseInt(m.group(1)),
                  new long[] {Long.parseLong(m.group(2), 16), Long.parseUnsignedLong(m.group(3), 16)});
        }
        return r;
    }

    @Override
    public void close() throws IOException {
        try {
            loop.done();
        } finally {
            for (int fd : peers) {
                Syscalls.close(fd);
            }
            peers.clear();
            memory.close();
            log.close();
        }
    }
}
