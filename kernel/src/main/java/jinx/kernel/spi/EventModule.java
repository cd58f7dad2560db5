package jinx.kernel.spi;

import jinx.kernel.Cycle;

/**
 * The context of an event-method module (epoll, poll): nginx's {@code ngx_event_module_t}. Its conf lives in
 * the {@code events {}} block like every module of type {@code EVENT}.
 */
public interface EventModule extends CoreModule {

    /** The type of the modules inside {@code events {}}. */
    ModuleType EVENT = ModuleType.of("EVENT");

    /** The context of the directives inside {@code events {}}. */
    Ctx EVENTS = Ctx.of("events");

    /**
     * Returns the method's name, as {@code use} names it ({@code "epoll"}).
     *
     * @return the name
     */
    String methodName();

    /**
     * Tells whether the method works here: a real probe ({@code epoll_create1}, then close).
     *
     * @return true when usable
     */
    boolean isUsable();

    /**
     * Returns the method's rank when {@code use} does not name one: the usable method with the lowest value wins.
     *
     * @return the priority
     */
    int priority();

    /**
     * Creates the method's table for one loop.
     *
     * @param cycle the cycle
     * @param conf this module's conf object in the cycle
     * @return a fresh table
     */
    EventActions createActions(Cycle cycle, Object conf);
}
