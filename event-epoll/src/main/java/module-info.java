/**
 * The epoll(7) event method, nginx's {@code ngx_epoll_module}. Exports nothing but the jnr-ffi binding package,
 * which jnr-ffi needs to reach (see its package-info); the module is found through its {@code provides}.
 */
module jinx.event.epoll {
    requires jinx.kernel;
    requires org.jnrproject.ffi;

    // jnr-ffi generates the binding's implementation outside this module: not API.
    exports jinx.event.epoll.bind;

    provides jinx.kernel.spi.JinxModule with jinx.event.epoll.EpollEventModule;
}
