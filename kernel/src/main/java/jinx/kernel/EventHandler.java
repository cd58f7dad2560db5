package jinx.kernel;

/**
 * What an event calls when it fires: nginx's {@code ngx_event_handler_pt}. A handler never blocks: it does what
 * it can, re-arms what it needs (an event, a timer) and returns.
 */
@FunctionalInterface
public interface EventHandler {

    /**
     * Handles the event; {@code ev.timedout} tells a timer's expiry from readiness.
     *
     * @param ev the event
     */
    void handle(Event ev);
}
