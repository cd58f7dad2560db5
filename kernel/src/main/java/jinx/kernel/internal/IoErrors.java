package jinx.kernel.internal;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Turns a Java I/O exception into nginx's {@code (errno: text)} words, for messages such as
 * {@code open() "/etc/jinx/x.conf" failed (2: No such file or directory)}.
 */
public final class IoErrors {

    private IoErrors() {
    }

    /**
     * Returns {@code "2: No such file or directory"} and kin for {@code e}.
     *
     * @param e the exception
     * @return the errno words, or the exception's own message when no errno is known
     */
    public static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "2: No such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "13: Permission denied";
        }
        if (e instanceof NotDirectoryException) {
            return "20: Not a directory";
        }
        String reason = e instanceof FileSystemException fse ? fse.getReason() : e.getMessage();
        if ("Is a directory".equals(reason)) {
            return "21: Is a directory";
        }
        return reason == null ? e.getClass().getSimpleName() : reason;
    }
}
