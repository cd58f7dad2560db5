package jinx.http.internal.request;

/**
 * nginx's {@code ngx_http_validate_host()} as of nginx 1.29.4 (its host and port state machine, nginx PR #966):
 * the host of a {@code Host} header or an absolute request line without its port and trailing dot, in lower case;
 * null when it is invalid. Beyond the older checks (empty, {@code ..}, a slash, a control character or space),
 * the port is digits only and at most 65535 ({@code 123.49.0.78:98777}, {@code example.com.:1.2} and the "double
 * port" {@code 123.40.56.78:9000:80} are invalid), and an IPv6 literal is the whole host: it starts the value,
 * ends with {@code ]}, and only a port follows it ({@code [::1}, {@code a[::1]}, {@code [::1].} are invalid).
 */
final class HostValidator {

    /** The largest port number. */
    private static final int MAX_PORT = 65535;

    private enum State { HOST, LITERAL, HOST_END, PORT }

    private HostValidator() {
    }

    /**
     * Validates a host as sent.
     *
     * @param host the value
     * @return the host to look servers up with, or null when invalid
     */
    static String validate(String host) {
        int len = host.length();
        int dotPos = -2;
        int hostLen = len;
        int port = 0;
        boolean upper = false;
        State state = len > 0 && host.charAt(0) == '[' ? State.LITERAL : State.HOST;
        for (int i = state == State.LITERAL ? 1 : 0; i < len; i++) {
            char ch = host.charAt(i);
            if (ch == '/' || ch <= 0x20 || ch == 0x7f) {
                return null;
            }
            switch (state) {
                case PORT:
                    if (ch < '0' || ch > '9') {
                        return null;
                    }
                    port = port * 10 + ch - '0';
                    if (port > MAX_PORT) {
                        return null;
                    }
                    continue;
                case HOST_END:
                    // after "]" only the port
                    if (ch != ':') {
                        return null;
                    }
                    state = State.PORT;
                    continue;
                case LITERAL:
                    if (ch == ']') {
                        hostLen = i + 1;
                        state = State.HOST_END;
                        continue;
                    }
                    break;
                default:
                    if (ch == ':') {
                        hostLen = i;
                        state = State.PORT;
                        continue;
                    }
                    if (ch == '[' || ch == ']') {
                        return null;
                    }
                    break;
            }
            if (ch == '.') {
                if (dotPos == i - 1) {
                    return null;
                }
                dotPos = i;
            } else if (ch >= 'A' && ch <= 'Z') {
                upper = true;
            }
        }
        if (state == State.LITERAL) {
            return null;
        }
        if (dotPos == hostLen - 1) {
            hostLen--;
        }
        if (hostLen <= 0) {
            return null;
        }
        String h = host.substring(0, hostLen);
        return upper ? lower(h) : h;
    }

    private static String lower(String s) {
        char[] a = s.toCharArray();
        for (int i = 0; i < a.length; i++) {
            if (a[i] >= 'A' && a[i] <= 'Z') {
                a[i] = (char) (a[i] + ('a' - 'A'));
            }
        }
        return new String(a);
    }
}
