package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.TempPath;
import jinx.kernel.internal.IoErrors;

/**
 * nginx's {@code ngx_create_paths()}: the directories for temporary files that the configuration declared
 * ({@link Cycle#addPath}) are made by the process that builds a serving cycle (the master, or the single process),
 * mode 0700, and given to the workers' {@code user} when it runs as root, with read, write and search permission
 * for their owner, so that workers that dropped their privileges can make their files there.
 */
final class TempPaths {

    /** {@code S_IRWXU}. */
    private static final int USER_RWX = 0700;

    private TempPaths() {
    }

    /**
     * Creates the cycle's paths.
     *
     * @param paths the paths the cycle declared
     * @param uid the workers' uid, negative when the master does not run as root (then no owner is changed)
     * @throws ConfException nginx's words: {@code mkdir() "/x/proxy_temp" failed (13: Permission denied)},
     *     {@code chown("/x", 65534) failed (...)}, {@code chmod() "/x" failed (...)}
     */
    static void create(List<TempPath> paths, int uid) throws ConfException {
        for (TempPath path : paths) {
            Path dir = path.dir();
            String name = dir.toString();
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                    "rwx------")));
            } catch (FileAlreadyExistsException e) {
                // nginx's NGX_EEXIST: a directory (or whatever is there) is kept
            } catch (IOException e) {
                throw new ConfException("mkdir() \"" + name + "\" failed (" + IoErrors.reason(e) + ")");
            }
            // nginx's ngx_create_paths(): stat, chown and chmod as for a reopened file, but fatal
            String failure = ReopenedFiles.own(dir, uid, USER_RWX);
            if (failure != null) {
                throw new ConfException(failure);
            }
        }
    }
}
