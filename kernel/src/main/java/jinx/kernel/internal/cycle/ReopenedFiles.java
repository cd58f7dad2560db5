package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import jinx.kernel.ErrorLog;
import jinx.kernel.internal.IoErrors;

/**
 * The part of nginx's {@code ngx_reopen_files()} that runs in the master only, with {@code user} known: a file
 * the master has just reopened (and so created anew, as root) is given to the workers' user and made readable
 * and writable by its owner, so the workers, reopening it after the master, can write to it.
 */
final class ReopenedFiles {

    /** {@code S_IRUSR | S_IWUSR}. */
    private static final int USER_READ_WRITE = 0600;

    private ReopenedFiles() {
    }

    /**
     * Gives {@code file} to {@code uid}, as nginx does, each failure logged at {@code emerg}.
     *
     * @param file the file
     * @param uid the workers' uid, negative for none (then nothing is done)
     * @param log where failures go
     */
    static void own(Path file, int uid, ErrorLog log) {
        if (uid < 0) {
            return;
        }
        int owner;
        int mode;
        try {
            owner = (Integer) Files.getAttribute(file, "unix:uid");
            mode = (Integer) Files.getAttribute(file, "unix:mode");
        } catch (IOException | UnsupportedOperationException e) {
            log.emerg("stat() \"" + file + "\" failed (" + reason(e) + ")");
            return;
        }
        if (owner != uid) {
            try {
                Files.setAttribute(file, "unix:uid", uid);
            } catch (IOException | UnsupportedOperationException e) {
                log.emerg("chown(\"" + file + "\", " + uid + ") failed (" + reason(e) + ")");
                return;
            }
        }
        if ((mode & USER_READ_WRITE) != USER_READ_WRITE) {
            try {
                Files.setAttribute(file, "unix:mode", mode | USER_READ_WRITE);
            } catch (IOException | UnsupportedOperationException e) {
                log.emerg("chmod() \"" + file + "\" failed (" + reason(e) + ")");
            }
        }
    }

    private static String reason(Exception e) {
        return e instanceof IOException io ? IoErrors.reason(io) : String.valueOf(e.getMessage());
    }
}
