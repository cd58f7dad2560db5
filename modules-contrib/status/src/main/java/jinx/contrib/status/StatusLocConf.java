package jinx.contrib.status;

/**
 * Where {@code stub_status} answers, and in which format. {@code status_format} is inherited; {@code stub_status}
 * is not (it is the location's content, as nginx's {@code clcf->handler}).
 */
final class StatusLocConf {

    /** The output formats. */
    enum Format {
        /** nginx's stub_status text. */
        STUB,
        /** Prometheus' text exposition format, version 0.0.4. */
        PROMETHEUS,
        /** JSON. */
        JSON
    }

    /** Whether {@code stub_status} stands in this location. */
    boolean enabled;
    /** Whether {@code upstream_status} stands in this location. */
    boolean upstreams;
    /** {@code status_format}; null until merged ({@link Format#STUB} by default). */
    Format format;
}
