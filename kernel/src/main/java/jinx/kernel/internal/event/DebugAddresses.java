package jinx.kernel.internal.event;

import java.util.regex.Pattern;

/**
 * Checks {@code debug_connection}'s argument: an IPv4 or IPv6 address, optionally with a CIDR prefix length
 * (nginx's {@code ngx_ptocidr()}). Host names are not resolved.
 */
final class DebugAddresses {

    private static final Pattern V4 = Pattern.compile(
        "((25[0-5]|2[0-4]\\d|1?\\d?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1?\\d?\\d)(/(3[0-2]|[12]?\\d))?");
    private static final Pattern V6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(/(12[0-8]|1[01]\\d|[1-9]?\\d))?");

    private DebugAddresses() {
    }

    static boolean isAddressOrCidr(String value) {
        return V4.matcher(value).matches() || V6.matcher(value).matches();
    }
}
