package jinx.event.epoll;

import jinx.kernel.spi.Conf;

/**
 * The {@code epoll} module's configuration, nginx's {@code ngx_epoll_conf_t}.
 */
final class EpollConf {

    /** {@code epoll_events}: the most events one {@code epoll_wait} returns; default 512. */
    int events = Conf.UNSET;
}
