/**
 * The {@code status} module: nginx's {@code stub_status} and a Prometheus text endpoint, from counters in a
 * shared memory zone.
 */
module jinx.contrib.status {
    requires jinx.http;

    provides jinx.kernel.spi.JinxModule with jinx.contrib.status.StatusModule;
}
