package jinx.kernel.internal.core;

import java.util.List;

/**
 * The fixed order of the built-in modules, nginx's {@code auto/modules}: a built-in module that is present
 * stands where this list puts it, whatever the order of discovery; other modules are placed by their
 * {@code after} and {@code before} names.
 */
public final class BuiltinOrder {

    /** The built-in modules' names in order. */
    public static final List<String> NAMES = List.of(
        "core",
        "errlog",
        "conf",
        "events",
        "event_core",
        "epoll",
        "poll",
        "http",
        "http_core");

    private BuiltinOrder() {
    }
}
