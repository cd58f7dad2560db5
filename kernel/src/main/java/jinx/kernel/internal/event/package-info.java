/**
 * The event core's modules: {@code events} (the core module owning {@code events {}}, which defines the EVENT
 * module type) and {@code event_core} (its directives, the choice of event method, and each worker's loop).
 * Follows nginx's {@code src/event/ngx_event.c}.
 */
package jinx.kernel.internal.event;
