package jinx.contrib.status;

/**
 * The two formats of the status page.
 */
final class StatusOutput {

    private StatusOutput() {
    }

    /**
     * nginx's stub_status text, byte for byte ({@code ngx_http_stub_status_handler()}): note the space before
     * each newline.
     */
    static String stub(StatusZone.Totals t) {
        return "Active connections: " + t.active() + " \n"
            + "server accepts handled requests\n"
            + " " + t.accepted() + " " + t.handled() + " " + t.requests() + " \n"
            + "Reading: " + t.reading() + " Writing: " + t.writing() + " Waiting: " + t.waiting() + " \n";
    }

    /** The same counts as a JSON object, named as nginx Plus' {@code /api/N/connections} names them. */
    static String json(StatusZone.Totals t) {
        return "{\"connections\":{\"accepted\":" + t.accepted() + ",\"handled\":" + t.handled() + ",\"active\":"
            + t.active() + ",\"reading\":" + t.reading() + ",\"writing\":" + t.writing() + ",\"waiting\":"
            + t.waiting() + "},\"requests\":" + t.requests() + "}\n";
    }

    /**
     * Prometheus' text exposition format 0.0.4, with the metric names of nginx-prometheus-exporter under the
     * {@code jinx_} prefix.
     */
    static String prometheus(StatusZone.Totals t) {
        StringBuilder sb = new StringBuilder();
        metric(sb, "jinx_connections_accepted", "counter", "Accepted client connections", t.accepted());
        metric(sb, "jinx_connections_active", "gauge", "Active client connections", t.active());
        metric(sb, "jinx_connections_handled", "counter", "Handled client connections", t.handled());
        metric(sb, "jinx_connections_reading", "gauge", "Connections where Jinx is reading the request header",
            t.reading());
        metric(sb, "jinx_connections_waiting", "gauge", "Idle client connections", t.waiting());
        metric(sb, "jinx_connections_writing", "gauge", "Connections where Jinx is writing the response back to "
            + "the client", t.writing());
        metric(sb, "jinx_http_requests_total", "counter", "Total http requests", t.requests());
        return sb.toString();
    }

    private static void metric(StringBuilder sb, String name, String type, String help, long value) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
        sb.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        sb.append(name).append(' ').append(value).append('\n');
    }
}
