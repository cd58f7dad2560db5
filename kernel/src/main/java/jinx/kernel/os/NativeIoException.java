package jinx.kernel.os;

import java.io.IOException;

/**
 * A failed system call, worded as nginx words them: {@code kill(12, 1) failed (3: No such process)}.
 */
public final class NativeIoException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String call;
    private final int errno;

    /**
     * A failure of {@code call} with {@code errno}.
     *
     * @param call the call as nginx names it in messages ({@code "kill(12, 1)"})
     * @param errno the error number
     * @param text the error number's text
     */
    public NativeIoException(String call, int errno, String text) {
        super(call + " failed (" + errno + ": " + text + ")");
        this.call = call;
        this.errno = errno;
    }

    /**
     * Returns the call that failed.
     *
     * @return the call
     */
    public String call() {
        return call;
    }

    /**
     * Returns the error number.
     *
     * @return errno
     */
    public int errno() {
        return errno;
    }
}
