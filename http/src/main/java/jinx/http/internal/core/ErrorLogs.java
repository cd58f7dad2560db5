package jinx.http.internal.core;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.ErrorLog;
import jinx.kernel.Listening;

/**
 * Opens the {@code error_log}s of the {@code http}, {@code server} and {@code location} levels once the cycle has
 * its own log (nginx opens them with the cycle's files). Locations naming the same targets share one
 * {@link ErrorLog}; a location without {@code error_log} at any level uses the cycle's log. Each process opens
 * them once per cycle (the master in {@code initModule}, which {@code -t} checks; a worker, which never runs
 * {@code initModule}, in {@code initProcess}) and closes them when it leaves the cycle ({@code exitProcess},
 * {@code exitMaster}); {@code reopenFiles} reopens them (USR1).
 */
final class ErrorLogs {

    private ErrorLogs() {
    }

    static void open(Cycle cycle, HttpBlockConf block) throws ConfException {
        if (block.errorLogs != null) {
            return;
        }
        Map<List<ErrorLog.Target>, ErrorLog> opened = new HashMap<>();
        try {
            for (HttpCoreLocConf clcf : block.allLocConfs()) {
                clcf.errorLog = logOf(cycle, clcf.errorLogTargets, opened);
            }
        } catch (ConfException e) {
            opened.values().forEach(ErrorLog::close);
            throw e;
        }
        block.errorLogs = new ArrayList<>(opened.values());
        for (Listening ls : block.core().listening) {
            if (ls.servers instanceof ListeningServers s) {
                List<AddrConf> addrs = s.addrs();
                ls.log = addrs.get(addrs.size() - 1).defaultServer().locConf().errorLog;
            }
        }
    }

    /** Closes what {@link #open} opened; the locations fall back to the cycle's log. */
    static void close(Cycle cycle, HttpBlockConf block) {
        if (block.errorLogs == null) {
            return;
        }
        for (HttpCoreLocConf clcf : block.allLocConfs()) {
            clcf.errorLog = cycle.log();
        }
        for (ErrorLog log : block.errorLogs) {
            log.close();
        }
        block.errorLogs = null;
    }

    /** USR1: reopens what {@link #open} opened (log rotation with {@code mv}). */
    static void reopen(Cycle cycle, HttpBlockConf block) {
        if (block.errorLogs == null) {
            return;
        }
        for (ErrorLog log : block.errorLogs) {
            try {
                log.reopen();
            } catch (IOException e) {
                cycle.log().alert("reopening an error log failed: " + e.getMessage());
            }
            for (ErrorLog.Target t : log.targets()) {
                if (t.file() != null) {
                    cycle.ownReopenedFile(t.file());
                }
            }
        }
    }

    private static ErrorLog logOf(Cycle cycle, List<ErrorLog.Target> targets,
                                  Map<List<ErrorLog.Target>, ErrorLog> opened) throws ConfException {
        if (targets == null || targets.isEmpty()) {
            return cycle.log();
        }
        ErrorLog log = opened.get(targets);
        if (log != null) {
            return log;
        }
        try {
            log = ErrorLog.open(targets, System.err, cycle);
        } catch (IOException e) {
            throw new ConfException(e.getMessage(), e);
        }
        opened.put(targets, log);
        return log;
    }
}
