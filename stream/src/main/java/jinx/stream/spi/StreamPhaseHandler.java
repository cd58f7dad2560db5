package jinx.stream.spi;

import jinx.stream.StreamSession;

/**
 * A handler of a stream phase: nginx's {@code ngx_stream_handler_pt}. Its answers are listed in
 * {@link jinx.stream.StreamPhase}.
 */
@FunctionalInterface
public interface StreamPhaseHandler {

    /**
     * Handles the session in its phase.
     *
     * @param s the session
     * @return {@code Rc.OK}, {@code Rc.DECLINED}, {@code Rc.AGAIN}, {@code Rc.DONE}, {@code Rc.ERROR} or a status
     */
    int handle(StreamSession s);
}
