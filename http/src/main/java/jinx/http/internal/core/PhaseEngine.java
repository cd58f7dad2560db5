package jinx.http.internal.core;

import java.util.List;

import jinx.http.spi.Phase;
import jinx.http.spi.PhaseHandler;

/**
 * The phase engine of an {@code http {}} block: nginx's {@code ngx_http_phase_engine_t}, built once by
 * {@code ngx_http_init_phase_handlers()}. Entry {@code i} belongs to phase {@link #phase(int)}, whose checker the
 * request engine runs (generic for POST_READ, PREACCESS and PRECONTENT; rewrite for SERVER_REWRITE and REWRITE;
 * find config; post rewrite; access; post access; content) with {@link #handler(int)}, and {@link #next(int)} is
 * where the checker goes when a handler returns OK (the first entry of the next phase). FIND_CONFIG, POST_REWRITE
 * and POST_ACCESS are the core's own entries without a handler; POST_REWRITE exists only when REWRITE has handlers,
 * POST_ACCESS only when ACCESS has. Unlike nginx, the handlers of a phase run in module order. LOG handlers are not
 * entries: they run when the request ends ({@link #logHandlers()}).
 *
 * @param phases the phase of each entry
 * @param handlers the handler of each entry, null for the core's own entries
 * @param nexts the next entry of each
 * @param modules the module of each entry's handler, for {@code jinx -m}; {@code http_core} for the core's own
 * @param serverRewriteIndex the first entry of SERVER_REWRITE (an internal redirect starts here)
 * @param locationRewriteIndex the first entry of REWRITE
 * @param logHandlers the LOG handlers in module order
 */
public record PhaseEngine(Phase[] phases, PhaseHandler[] handlers, int[] nexts, String[] modules,
                          int serverRewriteIndex, int locationRewriteIndex, List<PhaseHandler> logHandlers) {

    /**
     * Returns the number of entries; the engine stops when it runs past the last.
     *
     * @return the count
     */
    public int size() {
        return phases.length;
    }

    /**
     * Returns the phase of an entry, which tells its checker.
     *
     * @param i the entry
     * @return the phase
     */
    public Phase phase(int i) {
        return phases[i];
    }

    /**
     * Returns the handler of an entry.
     *
     * @param i the entry
     * @return the handler, or null for FIND_CONFIG, POST_REWRITE and POST_ACCESS
     */
    public PhaseHandler handler(int i) {
        return handlers[i];
    }

    /**
     * Returns where an entry's checker goes when its handler finishes the phase.
     *
     * @param i the entry
     * @return the next entry
     */
    public int next(int i) {
        return nexts[i];
    }

    /**
     * Returns the index of the FIND_CONFIG entry (POST_REWRITE goes back there).
     *
     * @return the index
     */
    public int findConfigIndex() {
        for (int i = 0; i < phases.length; i++) {
            if (phases[i] == Phase.FIND_CONFIG) {
                return i;
            }
        }
        throw new IllegalStateException("no FIND_CONFIG entry");
    }

    /**
     * Describes the engine for {@code jinx -m}: one {@code PHASE module} per entry.
     *
     * @return the lines
     */
    public List<String> describe() {
        String[] lines = new String[phases.length];
        for (int i = 0; i < phases.length; i++) {
            lines[i] = phases[i] + " " + modules[i];
        }
        return List.of(lines);
    }
}
