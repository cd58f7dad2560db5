package jinx.proxy.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jinx.proxy.upstream.PeerZone;
import jinx.proxy.upstream.Upstream;

/**
 * The upstream module's main conf: every upstream of {@code http {}}, explicit or implicit (nginx's
 * {@code ngx_http_upstream_main_conf_t.upstreams}).
 */
final class UpstreamMainConf {

    /** Explicit upstreams by name. */
    final Map<String, Upstream> blocks = new LinkedHashMap<>();
    /** References made by {@code proxy_pass} before or after the block they name. */
    final List<Reference> references = new ArrayList<>();
    /** The upstream zones by name ({@code zone}). */
    final Map<String, PeerZone> zones = new LinkedHashMap<>();
    /** {@code match} blocks by name. */
    final Map<String, HttpMatch> matches = new LinkedHashMap<>();
    /** {@code health_check}s as read, and as resolved. */
    final List<HttpHealthChecks.Pending> pendingChecks = new ArrayList<>();
    final List<HttpHealthChecks.Running> checks = new ArrayList<>();

    /** A {@code proxy_pass} naming a host: an upstream block of that name, or an address to resolve. */
    static final class Reference {
        final String host;
        final int port;
        final boolean hasPort;
        final String file;
        final int line;
        Upstream resolved;

        Reference(String host, int port, boolean hasPort, String file, int line) {
            this.host = host;
            this.port = port;
            this.hasPort = hasPort;
            this.file = file;
            this.line = line;
        }
    }
}
