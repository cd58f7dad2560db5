package jinx.kernel;

/**
 * Return codes, as nginx's {@code ngx_core.h}: handlers, filters and I/O calls answer with these (or, for HTTP
 * handlers, a status code).
 */
public final class Rc {

    /** Done, go on. */
    public static final int OK = 0;
    /** Failed. */
    public static final int ERROR = -1;
    /** Not now: would block; call again when the event fires. */
    public static final int AGAIN = -2;
    /** Busy. */
    public static final int BUSY = -3;
    /** Done, and finished with it. */
    public static final int DONE = -4;
    /** Not mine: let the next handler decide. */
    public static final int DECLINED = -5;

    private Rc() {
    }
}
