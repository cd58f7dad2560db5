package jinx.kernel.internal.cycle;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import jinx.kernel.ConfException;
import jinx.kernel.CoreConf;
import jinx.kernel.ErrorLog;
import jinx.kernel.Listening;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.os.Errors;
import jinx.kernel.os.Files;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.SockAddr;
import jinx.kernel.os.Sockets;
import jinx.kernel.os.Syscalls;

/**
 * Opens a cycle's listening sockets, taking over the old cycle's descriptor for the same address, and closes
 * the old ones no longer configured: nginx's {@code ngx_open_listening_sockets()},
 * {@code ngx_configure_listening_sockets()} and the listening part of {@code ngx_init_cycle()}
 * (src/core/ngx_connection.c, src/core/ngx_cycle.c).
 */
public final class ListeningSockets {

    /** nginx tries bind() five times, half a second apart, before it gives up. */
    private static final int BIND_TRIES = 5;
    private static final long BIND_PAUSE_MS = 500;

    /** Sockets inherited through {@code JINX}, for the first cycle. */
    private static List<Listening> inherited = List.of();

    private ListeningSockets() {
    }

    /**
     * Opens every listening socket of {@code cycle}, or inherits it from {@code old}.
     *
     * @param cycle the new cycle
     * @param old the cycle in force, or null
     * @throws ConfException naming the address and the failed call; what this call opened is closed again
     */
    public static void open(KernelCycle cycle, KernelCycle old) throws ConfException {
        List<Listening> previous = old != null ? old.listening() : takeInherited();
        List<Listening> opened = new ArrayList<>();
        Map<Listening, Boolean> taken = new IdentityHashMap<>();
        try {
            for (Listening ls : cycle.listening()) {
                Listening match = match(previous, ls, taken);
                if (match != null) {
                    taken.put(match, Boolean.TRUE);
                    ls.open(match.fd(), true);
                    continue;
                }
                ls.open(openSocket(ls, cycle.log()), false);
                opened.add(ls);
            }
        } catch (NativeIoException e) {
            closeAll(opened, cycle.log());
            // every failed bind() is logged already, as nginx logs each try
            String text = e.errno() == Errors.EADDRINUSE ? "still could not bind()" : e.getMessage();
            throw new ConfException(text, e);
        } finally {
            if (old == null) {
                settleInherited(previous, taken, cycle.log());
            }
        }
    }

    /**
     * Gives each worker its own socket for every {@code reuseport} address (nginx's {@code ngx_clone_listening()}):
     * when a master runs several workers, the configured socket becomes worker 0's and workers 1 to N-1 get a
     * clone each, added at the end of the list; the kernel spreads the connections over them. A single process,
     * or one worker, keeps the one socket. Call it once the core conf holds its final values (a worker: the
     * master's resolved ones), before the sockets are opened or attached.
     *
     * @param cycle the cycle, parsed
     */
    public static void cloneReuseport(KernelCycle cycle) {
        CoreConf core = cycle.conf(MainCoreModule.NAME, CoreConf.class);
        if (core == null || core.masterProcess != 1 || core.workerProcesses < 2) {
            return;
        }
        for (Listening ls : new ArrayList<>(cycle.listening())) {
            if (!ls.reuseport || ls.worker != -1) {
                continue;
            }
            ls.worker = 0;
            for (int n = 1; n < core.workerProcesses; n++) {
                cycle.addListening(ls.cloneFor(n));
            }
        }
    }

    /**
     * Hands the sockets inherited from the master that started this one ({@link InheritedSockets#take}) to the
     * next cycle opened without an old cycle (the first): it takes those whose address it configures instead of
     * binding, and the others are closed.
     *
     * @param sockets the inherited sockets
     */
    public static synchronized void inherit(List<Listening> sockets) {
        inherited = List.copyOf(sockets);
    }

    private static synchronized List<Listening> takeInherited() {
        List<Listening> sockets = inherited;
        inherited = List.of();
        return sockets;
    }

    /**
     * The inherited descriptors came without close-on-exec (they crossed an exec): those taken get it back, so
     * that no later exec leaks them; those the configuration does not name are closed (a unix socket's file
     * stays: the master that passed it may still serve it).
     */
    private static void settleInherited(List<Listening> inherited, Map<Listening, Boolean> taken, ErrorLog log) {
        for (Listening ls : inherited) {
            if (ls.fd() == -1) {
                continue;
            }
            if (taken.containsKey(ls)) {
                try {
                    Syscalls.setCloexec(ls.fd());
                } catch (NativeIoException e) {
                    log.alert(e.getMessage());
                }
                continue;
            }
            closeQuietly(ls.fd(), log);
            ls.open(-1, false);
        }
    }

    /** The previous socket for the same address, worker and kind (stream or datagram), not yet taken by another new one. */
    private static Listening match(List<Listening> previous, Listening ls, Map<Listening, Boolean> taken) {
        for (Listening o : previous) {
            if (o.fd() != -1 && !taken.containsKey(o) && o.sockaddr().equals(ls.sockaddr())
                && o.reuseport == ls.reuseport && o.worker == ls.worker && o.datagram == ls.datagram) {
                return o;
            }
        }
        return null;
    }

    private static int openSocket(Listening ls, ErrorLog log) throws NativeIoException {
        SockAddr addr = ls.sockaddr();
        int type = ls.datagram ? Platform.SOCK_DGRAM : Platform.SOCK_STREAM;
        int fd = Sockets.socket(addr.family(), type | Platform.SOCK_CLOEXEC, 0);
        try {
            configure(fd, ls);
            if (addr.isUnix()) {
                unlinkStale(addr.path());
            }
            bind(fd, addr, log);
            if (ls.datagram) {
                // a datagram socket is bound only: nginx's ngx_open_listening_sockets() skips listen() for it
                return fd;
            }
            Sockets.listen(fd, ls.backlog);
            if (ls.deferredAccept) {
                // Linux: wake the listener only when data arrives, or after this many seconds
                Sockets.setsockopt(fd, Platform.IPPROTO_TCP, Platform.TCP_DEFER_ACCEPT, 1);
            }
            return fd;
        } catch (NativeIoException e) {
            closeQuietly(fd, log);
            throw e;
        }
    }

    private static void configure(int fd, Listening ls) throws NativeIoException {
        SockAddr addr = ls.sockaddr();
        if (!addr.isUnix()) {
            Sockets.setsockopt(fd, Platform.SOL_SOCKET, Platform.SO_REUSEADDR, 1);
        }
        if (ls.reuseport) {
            Sockets.setsockopt(fd, Platform.SOL_SOCKET, Platform.SO_REUSEPORT, 1);
        }
        if (addr.family() == Platform.AF_INET6) {
            Sockets.setsockopt(fd, Platform.IPPROTO_IPV6, Platform.IPV6_V6ONLY, ls.ipv6only ? 1 : 0);
        }
        if (ls.rcvbuf != -1) {
            Sockets.setsockopt(fd, Platform.SOL_SOCKET, Platform.SO_RCVBUF, ls.rcvbuf);
        }
        if (ls.sndbuf != -1) {
            Sockets.setsockopt(fd, Platform.SOL_SOCKET, Platform.SO_SNDBUF, ls.sndbuf);
        }
        if (ls.keepalive != -1) {
            Sockets.setsockopt(fd, Platform.SOL_SOCKET, Platform.SO_KEEPALIVE, ls.keepalive);
        }
        Syscalls.setNonBlocking(fd);
    }

    /** A unix socket's file is left behind by a previous run: remove it so bind() can create it anew. */
    private static void unlinkStale(String path) throws NativeIoException {
        try {
            Files.unlink(path);
        } catch (NativeIoException e) {
            if (e.errno() != Errors.ENOENT) {
                throw e;
            }
        }
    }

    private static void bind(int fd, SockAddr addr, ErrorLog log) throws NativeIoException {
        for (int attempt = 1; ; attempt++) {
            try {
                Sockets.bind(fd, addr);
                return;
            } catch (NativeIoException e) {
                if (e.errno() != Errors.EADDRINUSE) {
                    throw e;
                }
                log.emerg(e.getMessage());
                if (attempt == BIND_TRIES) {
                    throw e;
                }
                pause();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(BIND_PAUSE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Closes the sockets of {@code old} that {@code fresh} did not take over (nginx closes them once the new
     * cycle is in force); a unix socket's file is removed with it.
     *
     * @param old the cycle going out
     * @param fresh the cycle in force
     */
    public static void closeUnused(KernelCycle old, KernelCycle fresh) {
        List<Listening> unused = new ArrayList<>();
        for (Listening o : old.listening()) {
            boolean kept = false;
            for (Listening n : fresh.listening()) {
                kept |= n.inherited() && n.fd() == o.fd();
            }
            if (!kept) {
                unused.add(o);
            }
        }
        closeAll(unused, fresh.log());
    }

    /**
     * Closes the sockets a failed cycle opened itself, leaving those it took over from the cycle in force.
     *
     * @param cycle the failed cycle
     */
    public static void closeOpened(KernelCycle cycle) {
        List<Listening> own = new ArrayList<>();
        for (Listening ls : cycle.listening()) {
            if (!ls.inherited()) {
                own.add(ls);
            }
        }
        closeAll(own, cycle.log());
    }

    /**
     * Closes every listening socket of a cycle: the server is stopping.
     *
     * @param cycle the cycle
     */
    public static void closeAll(KernelCycle cycle) {
        closeAll(cycle.listening(), cycle.log(), true);
    }

    /**
     * Closes every listening socket of a cycle, leaving unix sockets' files when {@code keepFiles}: a new binary
     * started by USR2 serves them (nginx unlinks only when {@code ngx_new_binary == 0}).
     *
     * @param cycle the cycle
     * @param keepFiles whether unix sockets' files stay
     */
    public static void closeAll(KernelCycle cycle, boolean keepFiles) {
        closeAll(cycle.listening(), cycle.log(), !keepFiles);
    }

    private static void closeAll(List<Listening> sockets, ErrorLog log) {
        closeAll(sockets, log, true);
    }

    private static void closeAll(List<Listening> sockets, ErrorLog log, boolean unlink) {
        for (Listening ls : sockets) {
            if (ls.fd() == -1) {
                continue;
            }
            closeQuietly(ls.fd(), log);
            ls.open(-1, false);
            if (unlink && ls.sockaddr().isUnix()) {
                try {
                    Files.unlink(ls.sockaddr().path());
                } catch (NativeIoException e) {
                    log.error(e.getMessage());
                }
            }
        }
    }

    private static void closeQuietly(int fd, ErrorLog log) {
        try {
            Syscalls.close(fd);
        } catch (NativeIoException e) {
            log.alert(e.getMessage());
        }
    }
}
