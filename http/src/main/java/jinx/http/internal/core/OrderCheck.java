package jinx.http.internal.core;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jinx.http.spi.HttpOrder;
import jinx.http.spi.Phase;
import jinx.kernel.LogLevel;
import jinx.kernel.spi.ConfContext;

/**
 * Warns, once the handlers and filters of {@code http {}} are registered, about the two ordering mistakes that
 * otherwise fail silently (nginx has no such check: its module order is fixed at build time). A module that names
 * no {@code before}/{@code after} stands after every built-in module, so its CONTENT handler comes after
 * {@code http_static}, which answers every request whose URI does not end in {@code /}, and its header and body
 * filters come after the filters that write the response and end their chains, so they never run. The warning
 * names the module and the remedy; the configuration stays valid, as the handler may be meant for directory URIs.
 */
final class OrderCheck {

    private OrderCheck() {
    }

    /**
     * Logs a warning for every module whose CONTENT handler runs after {@link HttpOrder#STATIC}, whose header
     * filter runs after {@link HttpOrder#HEADER_WRITER} or whose body filter runs after
     * {@link HttpOrder#BODY_WRITER}.
     *
     * @param cf the parser, for the warning and its place
     * @param cmcf the HTTP core's main conf, its handlers and filters registered
     */
    static void warn(ConfContext cf, HttpCoreMainConf cmcf) {
        for (String module : after(cmcf.phases.get(Phase.CONTENT.ordinal()), HttpOrder.STATIC)) {
            cf.log(LogLevel.WARN, "the CONTENT handler of module \"" + module + "\" runs after \"" + HttpOrder.STATIC
                + "\", which answers every request whose URI does not end in \"/\": order the module before(\""
                + HttpOrder.CONTENT_HANDLERS + "\") (HttpOrder.CONTENT_HANDLERS)");
        }
        for (String module : after(cmcf.headerFilters, HttpOrder.HEADER_WRITER)) {
            cf.log(LogLevel.WARN, "the header filter of module \"" + module + "\" never runs: it is placed after \""
                + HttpOrder.HEADER_WRITER + "\", which writes the header and ends the chain: order the module "
                + "before(\"" + HttpOrder.HEADER_WRITER + "\") (HttpOrder.HEADER_WRITER)");
        }
        for (String module : after(cmcf.bodyFilters, HttpOrder.BODY_WRITER)) {
            cf.log(LogLevel.WARN, "the body filter of module \"" + module + "\" never runs: it is placed after \""
                + HttpOrder.BODY_WRITER + "\", which writes the body and ends the chain: order the module "
                + "before(\"" + HttpOrder.BODY_WRITER + "\") (HttpOrder.BODY_WRITER)");
        }
    }

    /** The modules, each once, that registered an entry after the last entry of {@code last}; none without it. */
    private static Set<String> after(List<? extends HttpCoreMainConf.Registered<?>> registered, String last) {
        Set<String> late = new LinkedHashSet<>();
        boolean past = false;
        for (HttpCoreMainConf.Registered<?> r : registered) {
            if (r.module().equals(last)) {
                past = true;
                late.clear();
            } else if (past) {
                late.add(r.module());
            }
        }
        return late;
    }
}
