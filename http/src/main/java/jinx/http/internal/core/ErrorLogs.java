package jinx.http.internal.core;

import java.io.IOException;
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
 * {@link ErrorLog}; a location without {@code error_log} at any level uses the cycle's log. The logs are not
 * closed when a cycle ends (a reload leaves them to the collector), a limitation noted in the module's report.
 */
final class ErrorLogs {

    private ErrorLogs() {
    }

    static void open(Cycle cycle, HttpBlockConf block) throws ConfException {
        Map<List<ErrorLog.Target>, ErrorLog> opened = new HashMap<>();
        for (HttpCoreLocConf clcf : block.allLocConfs()) {
            clcf.errorLog = logOf(cycle, clcf.errorLogTargets, opened);
        }
        for (Listening ls : block.core().listening) {
            if (ls.servers instanceof ListeningServers s) {
                List<AddrConf> addrs = s.addrs();
                ls.log = addrs.get(addrs.size() - 1).defaultServer().locConf().errorLog;
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
            log = ErrorLog.open(targets, System.err);
        } catch (IOException e) {
            throw new ConfException(e.getMessage(), e);
        }
        opened.put(targets, log);
        return log;
    }
}
