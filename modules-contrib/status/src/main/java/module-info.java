/**
 * The {@code status} module: nginx's {@code stub_status} and a Prometheus text endpoint, from counters in a
 * shared memory zone; {@code upstream_status}, the live figures of the upstreams kept in zones.
 */
module jinx.contrib.status {
    requires jinx.http;
    requires jinx.proxy.upstream;

    provides jinx.kernel.spi.JinxModule with jinx.contrib.status.StatusModule;
}
