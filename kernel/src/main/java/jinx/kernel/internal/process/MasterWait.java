package jinx.kernel.internal.process;

import java.util.ArrayList;
import java.util.List;

import jinx.kernel.Rc;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Polling;
import jinx.kernel.os.SigSet;
import jinx.kernel.os.SignalInfo;
import jinx.kernel.os.Signals;

/**
 * The one set the master waits on, its {@code sigsuspend()}: the signalfd, a timerfd (nginx's
 * {@code setitimer()}: the SIGKILL escalation after TERM, a reload's readiness deadline) and every worker's
 * channel, with {@code poll(2)}. One call returns what is ready; the master acts on it and waits again.
 */
final class MasterWait implements AutoCloseable {

    /** What one wait found. */
    static final class Ready {
        /** Signals read: signo and sender pid, in pairs. */
        final List<int[]> signals = new ArrayList<>();
        /** The timer expired. */
        boolean timer;
        /** Entries whose channel is readable or closed. */
        final List<ProcessTable.Entry> channels = new ArrayList<>();
    }

    private final NativeMemory memory = new NativeMemory();
    private final SignalInfo info = new SignalInfo(memory, 16);
    private final int signalFd;
    private final int timerFd;
    private long pollfds;
    private int capacity;
    private long deadlineNs = Long.MAX_VALUE;

    MasterWait() throws NativeIoException {
        try (SigSet set = Signals.serverSet()) {
            signalFd = Signals.signalfd(-1, set, Platform.SFD_CLOEXEC | Platform.SFD_NONBLOCK);
        }
        timerFd = Polling.timerfd();
    }

    /**
     * Arms the timer for {@code ns} from {@link System#nanoTime()} unless it is armed for an earlier time;
     * {@link Long#MAX_VALUE} leaves it as it is.
     *
     * @param atNs the deadline
     * @throws NativeIoException when the timerfd cannot be armed
     */
    void wakeAt(long atNs) throws NativeIoException {
        if (atNs >= deadlineNs) {
            return;
        }
        deadlineNs = atNs;
        Polling.arm(timerFd, Math.max(1, (atNs - System.nanoTime() + 999_999) / 1_000_000));
    }

    /**
     * Waits until a signal, the timer or a channel is ready, and reads the signals and the timer.
     *
     * @param channels the entries whose channel to watch
     * @return what is ready
     * @throws NativeIoException when waiting or reading fails
     */
    Ready await(List<ProcessTable.Entry> channels) throws NativeIoException {
        int n = 2 + channels.size();
        if (n > capacity) {
            if (pollfds != 0) {
                memory.free(pollfds);
            }
            capacity = Math.max(n, 16);
            pollfds = memory.allocate((long) capacity * Platform.SIZEOF_POLLFD);
        }
        set(0, signalFd);
        set(1, timerFd);
        for (int i = 0; i < channels.size(); i++) {
            set(2 + i, channels.get(i).channel);
        }
        Ready ready = new Ready();
        if (Polling.poll(pollfds, n, -1) == 0) {
            return ready;
        }
        if (revents(0) != 0) {
            while (Signals.read(signalFd, info) != Rc.AGAIN && info.count() > 0) {
                for (int i = 0; i < info.count(); i++) {
                    ready.signals.add(new int[] {info.signo(i), info.pid(i)});
                }
            }
        }
        if (revents(1) != 0 && Polling.expirations(timerFd) != Rc.AGAIN) {
            ready.timer = true;
            deadlineNs = Long.MAX_VALUE;
        }
        for (int i = 0; i < channels.size(); i++) {
            if (revents(2 + i) != 0) {
                ready.channels.add(channels.get(i));
            }
        }
        return ready;
    }

    private void set(int i, int fd) {
        long at = pollfds + (long) i * Platform.SIZEOF_POLLFD;
        NativeMemory.putInt(at + Platform.OFFSETOF_POLLFD_FD, fd);
        NativeMemory.putShort(at + Platform.OFFSETOF_POLLFD_EVENTS, (short) Platform.POLLIN);
        NativeMemory.putShort(at + Platform.OFFSETOF_POLLFD_REVENTS, (short) 0);
    }

    private int revents(int i) {
        return NativeMemory.getShort(pollfds + (long) i * Platform.SIZEOF_POLLFD + Platform.OFFSETOF_POLLFD_REVENTS);
    }

    @Override
    public void close() {
        ProcessChannel.close(signalFd);
        ProcessChannel.close(timerFd);
        memory.close();
    }
}
