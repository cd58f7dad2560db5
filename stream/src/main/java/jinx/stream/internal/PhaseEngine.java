package jinx.stream.internal;

import java.util.ArrayList;
import java.util.List;

import jinx.stream.StreamPhase;
import jinx.stream.spi.StreamPhaseHandler;

/**
 * nginx's {@code ngx_stream_phase_engine_t} built by {@code ngx_stream_init_phase_handlers()}: the handlers of the
 * phases before content in one array, each with the index of the first handler of the next phase (what
 * {@code Rc.OK} jumps to); content is the server's handler; the log phase's handlers run when the session ends.
 */
final class PhaseEngine {

    final StreamPhaseHandler[] handlers;
    final StreamPhase[] phaseOf;
    final int[] next;
    final StreamPhaseHandler[] log;

    PhaseEngine(StreamBlock block) {
        List<StreamPhaseHandler> hs = new ArrayList<>();
        List<StreamPhase> ps = new ArrayList<>();
        for (StreamPhase p : StreamPhase.values()) {
            if (p == StreamPhase.CONTENT || p == StreamPhase.LOG) {
                continue;
            }
            for (StreamPhaseHandler h : block.phases.get(p)) {
                hs.add(h);
                ps.add(p);
            }
        }
        handlers = hs.toArray(new StreamPhaseHandler[0]);
        phaseOf = ps.toArray(new StreamPhase[0]);
        next = new int[handlers.length];
        for (int i = 0; i < handlers.length; i++) {
            int j = i;
            while (j < handlers.length && phaseOf[j] == phaseOf[i]) {
                j++;
            }
            next[i] = j;
        }
        log = block.phases.get(StreamPhase.LOG).toArray(new StreamPhaseHandler[0]);
    }

    /** For {@code jinx -m}. */
    List<String> describe() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < handlers.length; i++) {
            out.add(phaseOf[i].name().toLowerCase(java.util.Locale.ROOT) + ": " + handlers[i]);
        }
        return out;
    }
}
