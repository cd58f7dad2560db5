package jinx.kernel.internal.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import jinx.kernel.CoreConf;
import jinx.kernel.ErrorLog;
import jinx.kernel.internal.IoErrors;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.ConfValues;

/**
 * {@code jinx -s signal}: reads the master's pid from the pid file and sends it the signal, as nginx's
 * {@code ngx_signal_process()} and {@code ngx_os_signal_process()}, with their messages.
 */
final class Signaller {

    /** The {@code -s} words and the signals they send. */
    static final Map<String, String> SIGNALS = Map.of(
        "stop", "TERM",
        "quit", "QUIT",
        "reopen", "USR1",
        "reload", "HUP");

    private Signaller() {
    }

    /**
     * Sends {@code signal} to the master named by the cycle's pid file.
     *
     * @param cycle a cycle built for signalling
     * @param signal a key of {@link #SIGNALS}
     * @return the exit code: 0, or 1 when the pid file or the signal failed
     */
    static int signal(KernelCycle cycle, String signal) {
        ErrorLog log = cycle.log();
        log.notice("signal process started");
        Path file = cycle.conf(MainCoreModule.NAME, CoreConf.class).pid;
        String text;
        try {
            text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            log.error("open() \"" + file + "\" failed (" + IoErrors.reason(e) + ")");
            return 1;
        }
        // nginx reads at most NGX_INT64_LEN + 2 bytes and strips trailing CR and LF
        if (text.length() > 22) {
            text = text.substring(0, 22);
        }
        int end = text.length();
        while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
            end--;
        }
        String number = text.substring(0, end);
        int pid = ConfValues.parseNumber(number);
        if (pid == -1) {
            log.error("invalid PID number \"" + number + "\" in \"" + file + "\"");
            return 1;
        }
        int signo = Syscalls.signal(SIGNALS.get(signal));
        try {
            Syscalls.kill(pid, signo);
        } catch (NativeIoException e) {
            log.alert(e.getMessage());
            return 1;
        }
        return 0;
    }
}
