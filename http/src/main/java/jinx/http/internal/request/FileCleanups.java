package jinx.http.internal.request;

import jinx.kernel.LogLevel;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Syscalls;

/**
 * The files a request closes when it is freed: nginx's {@code ngx_pool_cleanup_file()} entries, kept as a
 * descriptor and a name in arrays the request object keeps across its reuse, so opening a file adds no object.
 */
final class FileCleanups {

    private int[] fds = new int[4];
    private String[] paths = new String[4];
    private int count;

    /**
     * Adds a file to close.
     *
     * @param fd the descriptor
     * @param path its name, for the error log
     */
    void add(int fd, String path) {
        if (count == fds.length) {
            fds = java.util.Arrays.copyOf(fds, count * 2);
            paths = java.util.Arrays.copyOf(paths, count * 2);
        }
        fds[count] = fd;
        paths[count] = path;
        count++;
    }

    /**
     * Closes the files, the last added first, logging a failure at alert as nginx does.
     *
     * @param r the request, for the log
     */
    void closeAll(CoreRequest r) {
        while (count > 0) {
            count--;
            int fd = fds[count];
            String path = paths[count];
            fds[count] = 0;
            paths[count] = null;
            try {
                Syscalls.close(fd);
            } catch (NativeIoException e) {
                r.log(LogLevel.ALERT, e.errno(), "close() \"" + path + "\" failed");
            }
        }
    }
}
