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
        String failure = own(file, uid, USER_READ_WRITE);
        if (failure != null) {
            log.emerg(failure);
        }
    }

    /**
     * Gives {@code file} to {@code uid} and adds {@code mask} to its owner's permissions: the part nginx's
     * {@code ngx_reopen_files()} and {@code ngx_create_paths()} share.
     *
     * @param file the file or directory
     * @param uid the workers' uid, negative for none (then nothing is done)
     * @param mask the owner's permissions it must have
     * @return null, or the failure in nginx's words ({@code chown("/x", 65534) failed (1: Operation not permitted)})
     */
    static String own(Path file, int uid, int mask) {
        if (uid < 0) {
            return null;
        }
        int owner;
        int mode;
        try {
            owner = (Integer) Files.getAttribute(file, "unix:uid");
            mode = (Integer) Files.getAttribute(file, "unix:mode");
        } catch (IOException | UnsupportedOperationException e) {
            return "stat() \"" + file + "\" failed (" + reason(e) + ")";
        }
        if (owner != uid) {
            try {
                Files.setAttribute(file, "unix:uid", uid);
            } catch (IOException | UnsupportedOperationException e) {
                return "chown(\"" + file + "\", " + uid + ") failed (" + reason(e) + ")";
            }
        }
        if ((mode & mask) != mask) {
            try {
                Files.setAttribute(file, "unix:mode", mode | mask);
            } catch (IOException | UnsupportedOperationException e) {
                return "chmod() \"" + file + "\" failed (" + reason(e) + ")";
            }
        }
        return null;
    }

    private static String reason(Exception e) {
        return e instanceof IOException io ? IoErrors.reason(io) : String.valueOf(e.getMessage());
    }
}
