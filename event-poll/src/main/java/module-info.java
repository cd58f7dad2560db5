/**
 * The poll(2) event method, nginx's {@code ngx_poll_module}: a level-triggered method for systems (or tests)
 * without epoll, chosen with {@code events { use poll; }}.
 */
module jinx.event.poll {
    requires jinx.kernel;
    requires org.jnrproject.ffi;

    // jnr-ffi generates the binding's implementation outside this module, so the binding package must be open to
    // everybody; it is not API (see its package-info).
    exports jinx.event.poll.bind;

    provides jinx.kernel.spi.JinxModule with jinx.event.poll.PollEventModule;
}
