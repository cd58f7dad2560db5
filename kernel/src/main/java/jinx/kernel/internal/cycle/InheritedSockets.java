package jinx.kernel.internal.cycle;

import java.util.ArrayList;
import java.util.List;

import jinx.kernel.ErrorLog;
import jinx.kernel.Listening;
import jinx.kernel.LogLevel;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Platform;
import jinx.kernel.os.SockAddr;
import jinx.kernel.os.Sockets;

/**
 * The listening sockets a master inherits from the one that started it: nginx's {@code ngx_add_inherited_sockets()}
 * (src/core/nginx.c) and {@code ngx_set_inherited_sockets()} (src/core/ngx_connection.c). The variable
 * {@link #VARIABLE} ({@code JINX=5;6;}, nginx's {@code NGINX}) names the descriptors; each is asked its address
 * with {@code getsockname()}, and the first cycle takes the one whose address it configures
 * ({@link ListeningSockets#inherit}), as a reload takes the old cycle's.
 */
public final class InheritedSockets {

    /** The environment variable: descriptor numbers, each ended by {@code ;} or {@code :}. */
    public static final String VARIABLE = "JINX";

    private InheritedSockets() {
    }

    /**
     * The descriptors a value names, as nginx reads them.
     *
     * @param fds the descriptors, in order
     * @param error nginx's message for an invalid entry (the rest is ignored), or null
     */
    public record Parsed(List<Integer> fds, String error) {
    }

    /**
     * Reads a value of {@link #VARIABLE}: numbers each ended by {@code ;} or {@code :}. An invalid number stops
     * the reading, and what follows the last separator is ignored, both with nginx's message.
     *
     * @param value the variable's value
     * @return the descriptors and the error, if any
     */
    public static Parsed parse(String value) {
        List<Integer> fds = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch != ';' && ch != ':') {
                continue;
            }
            int fd = number(value.substring(start, i));
            if (fd == -1) {
                return new Parsed(fds, "invalid socket number \"" + value.substring(start) + "\" in " + VARIABLE
                    + " environment variable, ignoring the rest of the variable");
            }
            fds.add(fd);
            start = i + 1;
        }
        if (start != value.length()) {
            return new Parsed(fds, "invalid socket number \"" + value.substring(start) + "\" in " + VARIABLE
                + " environment variable, ignoring");
        }
        return new Parsed(fds, null);
    }

    /** nginx's {@code ngx_atoi()}: digits only, not empty, no overflow; else -1. */
    private static int number(String text) {
        if (text.isEmpty() || text.length() > 9) {
            return -1;
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return -1;
            }
        }
        return Integer.parseInt(text);
    }

    /**
     * Takes the sockets {@code value} names, at notice {@code using inherited sockets from "5;6;"}: each one
     * asked its address; one that is not a socket is logged and left alone, as nginx ignores it.
     *
     * @param value the value of {@link #VARIABLE}
     * @param log where to say it
     * @return one listening socket per inherited descriptor, open on it and marked inherited
     */
    public static List<Listening> take(String value, ErrorLog log) {
        log.notice("using inherited sockets from \"" + value + "\"");
        Parsed parsed = parse(value);
        if (parsed.error() != null) {
            log.emerg(parsed.error());
        }
        List<Listening> sockets = new ArrayList<>();
        for (int fd : parsed.fds()) {
            SockAddr addr;
            try {
                addr = Sockets.getsockname(fd);
            } catch (NativeIoException e) {
                log.log(LogLevel.CRIT, "getsockname() of the inherited socket #" + fd + " failed (" + reason(e)
                    + ")");
                continue;
            }
            Listening ls = new Listening(addr);
            try {
                ls.reuseport = Sockets.getsockopt(fd, Platform.SOL_SOCKET, Platform.SO_REUSEPORT) != 0;
            } catch (NativeIoException e) {
                log.alert("getsockopt(SO_REUSEPORT) " + addr + " failed, ignored (" + reason(e) + ")");
            }
            try {
                ls.datagram = Sockets.getsockopt(fd, Platform.SOL_SOCKET, Platform.SO_TYPE) == Platform.SOCK_DGRAM;
            } catch (NativeIoException e) {
                log.alert("getsockopt(SO_TYPE) " + addr + " failed, ignored (" + reason(e) + ")");
            }
            ls.open(fd, true);
            sockets.add(ls);
        }
        return sockets;
    }

    /** {@code 9: Bad file descriptor}, from the exception's {@code call failed (9: Bad file descriptor)}. */
    private static String reason(NativeIoException e) {
        String m = e.getMessage();
        int at = m.indexOf(" failed (");
        return at == -1 ? m : m.substring(at + " failed (".length(), m.length() - 1);
    }
}
