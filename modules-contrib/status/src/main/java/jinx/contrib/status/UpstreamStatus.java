package jinx.contrib.status;

import java.util.ArrayList;
import java.util.List;

import jinx.kernel.SharedZone;
import jinx.proxy.upstream.PeerFigures;
import jinx.proxy.upstream.PeerZone;
import jinx.proxy.upstream.UpstreamFigures;

/**
 * What {@code upstream_status} prints: the live figures of every upstream kept in a {@code zone}, HTTP's and
 * stream's, read from the zones ({@link PeerZone#figures}), so that every worker answers with the same numbers.
 * JSON by default (the shape of nginx Plus' {@code /api/N/http/upstreams}), Prometheus' text with
 * {@code status_format prometheus} (the metric names of nginx-prometheus-exporter's {@code nginxplus_upstream_*},
 * under {@code jinx_}). The format is described in {@code docs/upstream-status.md}.
 */
final class UpstreamStatus {

    /** nginx-prometheus-exporter's numbers for a peer's state. */
    private static final List<String> STATES = List.of("", "up", "draining", "down", "unavail", "checking",
        "unhealthy");

    /** One protocol's upstreams. */
    record Group(String protocol, List<UpstreamFigures> upstreams) {
    }

    private UpstreamStatus() {
    }

    /** The figures of the zones of the cycle, HTTP's first. */
    static List<Group> read(List<SharedZone> zones, long now) {
        List<UpstreamFigures> http = new ArrayList<>();
        List<UpstreamFigures> stream = new ArrayList<>();
        for (SharedZone z : zones) {
            if (z.tag().equals(PeerZone.HTTP_TAG)) {
                http.addAll(PeerZone.figures(z, now));
            } else if (z.tag().equals(PeerZone.STREAM_TAG)) {
                stream.addAll(PeerZone.figures(z, now));
            }
        }
        return List.of(new Group("http", http), new Group("stream", stream));
    }

    static String json(List<Group> groups) {
        StringBuilder sb = new StringBuilder("{");
        for (int g = 0; g < groups.size(); g++) {
            Group group = groups.get(g);
            sb.append(g == 0 ? "" : ",").append(quote(group.protocol())).append(":{");
            for (int u = 0; u < group.upstreams().size(); u++) {
                UpstreamFigures up = group.upstreams().get(u);
                sb.append(u == 0 ? "" : ",").append(quote(up.name())).append(":{\"zone\":").append(quote(up.zone()))
                    .append(",\"peers\":[");
                for (int i = 0; i < up.peers().size(); i++) {
                    peer(sb.append(i == 0 ? "" : ","), i, up.peers().get(i));
                }
                sb.append("]}");
            }
            sb.append('}');
        }
        return sb.append("}\n").toString();
    }

    private static void peer(StringBuilder sb, int id, PeerFigures p) {
        sb.append("{\"id\":").append(id).append(",\"server\":").append(quote(p.server())).append(",\"name\":")
            .append(quote(p.name())).append(",\"backup\":").append(p.backup()).append(",\"weight\":")
            .append(p.weight()).append(",\"state\":").append(quote(p.state())).append(",\"active\":")
            .append(p.active()).append(",\"requests\":").append(p.requests()).append(",\"responses\":{");
        for (int c = 0; c < 5; c++) {
            sb.append('"').append(c + 1).append("xx\":").append(p.responses()[c]).append(',');
        }
        sb.append("\"total\":").append(p.responsesTotal()).append("},\"fails\":").append(p.fails())
            .append(",\"unavail\":").append(p.unavail()).append(",\"health_checks\":{\"checks\":").append(p.checks())
            .append(",\"fails\":").append(p.checkFails()).append(",\"unhealthy\":").append(p.unhealthy());
        if (p.lastCheck() != 0) {
            sb.append(",\"last_passed\":").append(p.lastCheck() == 1);
        }
        sb.append("},\"header_time\":").append(p.headerTime()).append(",\"response_time\":")
            .append(p.responseTime()).append('}');
    }

    static String prometheus(List<Group> groups) {
        StringBuilder sb = new StringBuilder();
        metric(sb, groups, "requests_total", "counter", "Requests (stream: connections) sent to the server",
            p -> Long.toString(p.requests()));
        help(sb, "responses_total", "counter", "Responses of the server by status class");
        for (Group g : groups) {
            for (UpstreamFigures u : g.upstreams()) {
                for (PeerFigures p : u.peers()) {
                    for (int c = 0; c < 5; c++) {
                        sb.append("jinx_upstream_server_responses_total");
                        labels(sb, g, u, p).setLength(sb.length() - 1);
                        sb.append(",code=\"").append(c + 1).append("xx\"} ").append(p.responses()[c]).append('\n');
                    }
                }
            }
        }
        metric(sb, groups, "active", "gauge", "Connections open to the server", p -> Long.toString(p.active()));
        metric(sb, groups, "fails_total", "counter", "Failed attempts to use the server",
            p -> Long.toString(p.fails()));
        metric(sb, groups, "unavail_total", "counter", "Times the server became unavailable (max_fails)",
            p -> Long.toString(p.unavail()));
        metric(sb, groups, "state", "gauge", "State: 1 up, 3 down, 4 unavail, 5 checking, 6 unhealthy",
            p -> Integer.toString(STATES.indexOf(p.state())));
        metric(sb, groups, "health_checks_checks_total", "counter", "Health probes made",
            p -> Long.toString(p.checks()));
        metric(sb, groups, "health_checks_fails_total", "counter", "Health probes failed",
            p -> Long.toString(p.checkFails()));
        metric(sb, groups, "health_checks_unhealthy_total", "counter", "Times the server became unhealthy",
            p -> Long.toString(p.unhealthy()));
        metric(sb, groups, "header_time_milliseconds", "gauge", "Moving average of the time to the response header",
            p -> Long.toString(p.headerTime()));
        metric(sb, groups, "response_time_milliseconds", "gauge", "Moving average of the time to the response's end",
            p -> Long.toString(p.responseTime()));
        return sb.toString();
    }

    private interface Value {
        String of(PeerFigures p);
    }

    private static void metric(StringBuilder sb, List<Group> groups, String name, String type, String help,
                               Value value) {
        help(sb, name, type, help);
        for (Group g : groups) {
            for (UpstreamFigures u : g.upstreams()) {
                for (PeerFigures p : u.peers()) {
                    sb.append("jinx_upstream_server_").append(name);
                    labels(sb, g, u, p).append(' ').append(value.of(p)).append('\n');
                }
            }
        }
    }

    private static void help(StringBuilder sb, String name, String type, String help) {
        sb.append("# HELP jinx_upstream_server_").append(name).append(' ').append(help).append('\n');
        sb.append("# TYPE jinx_upstream_server_").append(name).append(' ').append(type).append('\n');
    }

    private static StringBuilder labels(StringBuilder sb, Group g, UpstreamFigures u, PeerFigures p) {
        return sb.append("{protocol=\"").append(g.protocol()).append("\",upstream=").append(quote(u.name()))
            .append(",server=").append(quote(p.name())).append('}');
    }

    /** A JSON string, which is also a Prometheus label value: quotes, backslashes and control characters escaped. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
