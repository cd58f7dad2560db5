package jinx.stream.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.spi.ConfContext;

/**
 * {@code error_log} in {@code stream {}} and {@code server {}}: nginx's {@code ngx_stream_core_error_log()}. A
 * server's sessions log to its own targets ({@code ngx_set_connection_log()} in {@code ngx_stream_init_connection()});
 * a server without any, at either level, to the cycle's log. Servers naming the same targets share one
 * {@link ErrorLog}, opened once per process and cycle (the master in {@code initModule}, which {@code -t} checks; a
 * worker in {@code initProcess}), closed when the process leaves the cycle and reopened on USR1. Not yet:
 * {@code syslog:} and {@code memory:} targets, a listening socket's own log (its accept errors go to the cycle's).
 */
final class StreamErrorLogs {

    private final List<ErrorLog> opened = new ArrayList<>();
    private boolean open;

    /** The directive: a file or {@code stderr}, then a level ({@code error} when none). */
    static void directive(ConfContext cf, StreamCoreSrvConf cscf) throws ConfException {
        String where = cf.arg(1);
        if (where.startsWith("syslog:") || where.startsWith("memory:")) {
            throw new ConfException("\"" + where.substring(0, where.indexOf(':')) + "\" logging is not supported");
        }
        Path file = where.equals("stderr") ? null
            : cf.resolve(new String(where.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
        LogLevel level = LogLevel.ERROR;
        List<String> args = cf.args();
        if (args.size() > 3) {
            throw new ConfException("duplicate log level \"" + args.get(3) + "\"");
        }
        if (args.size() == 3) {
            level = LogLevel.byLabel(args.get(2));
            if (level == null) {
                throw new ConfException("invalid log level \"" + args.get(2) + "\"");
            }
        }
        List<ErrorLog.Target> targets = cscf.errorLogTargets == null ? new ArrayList<>()
            : new ArrayList<>(cscf.errorLogTargets);
        targets.add(new ErrorLog.Target(file, level));
        cscf.errorLogTargets = List.copyOf(targets);
    }

    /** Opens the servers' logs, once. */
    synchronized void open(Cycle cycle, List<StreamCoreSrvConf> servers) throws ConfException {
        if (open) {
            return;
        }
        Map<List<ErrorLog.Target>, ErrorLog> byTargets = new HashMap<>();
        try {
            for (StreamCoreSrvConf cscf : servers) {
                List<ErrorLog.Target> targets = cscf.errorLogTargets;
                if (targets == null || targets.isEmpty()) {
                    continue;
                }
                ErrorLog log = byTargets.get(targets);
                if (log == null) {
                    log = ErrorLog.open(targets, System.err, cycle);
                    byTargets.put(targets, log);
                    opened.add(log);
                }
                cscf.errorLog = log;
            }
        } catch (IOException e) {
            close(servers);
            throw new ConfException(e.getMessage(), e);
        }
        open = true;
    }

    /** Closes what {@link #open} opened; the servers fall back to the cycle's log. */
    synchronized void close(List<StreamCoreSrvConf> servers) {
        for (StreamCoreSrvConf cscf : servers) {
            cscf.errorLog = null;
        }
        for (ErrorLog log : opened) {
            log.close();
        }
        opened.clear();
        open = false;
    }

    /** USR1: the files reopened (log rotation with {@code mv}). */
    synchronized void reopen(Cycle cycle) {
        for (ErrorLog log : opened) {
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
}
