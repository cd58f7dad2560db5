package jinx.stream.internal;

import jinx.kernel.ConfException;
import jinx.proxy.upstream.Upstream;
import jinx.proxy.upstream.UpstreamSsl;

/**
 * A server's proxy conf: nginx's {@code ngx_stream_proxy_srv_conf_t}.
 */
final class StreamProxySrvConf {

    private static final long UNSET = -1;
    /** {@code proxy_responses} unset: a UDP session waits for responses until {@code proxy_timeout}. */
    static final int UNLIMITED = Integer.MAX_VALUE;

    /** Finds the group once the block is parsed (an {@code upstream {}} may follow the {@code proxy_pass}). */
    interface UpstreamRef {
        Upstream get() throws ConfException;
    }

    UpstreamRef upstream;
    /** {@code proxy_pass} with variables: the value, and the block's groups it may name. */
    StreamValue upstreamValue;
    StreamUpstreamModule.MainConf upstreams;
    private Upstream resolved;
    long connectTimeout = UNSET;
    long timeout = UNSET;
    long bufferSize = UNSET;
    long uploadRate = UNSET;
    long downloadRate = UNSET;
    long nextUpstreamTimeout = UNSET;
    int nextUpstreamTries = -1;
    int nextUpstream = -1;
    int halfClose = -1;
    int socketKeepalive = -1;
    int proxyProtocol = -1;
    /** {@code proxy_requests}: 0 for no limit. */
    int requests = -1;
    /** {@code proxy_responses}: {@link #UNLIMITED} while unset (nginx's {@code NGX_MAX_INT32_VALUE}). */
    int responses = -1;
    /** {@code proxy_bind}: null while unset or {@code off}. */
    StreamValue bind;
    /** {@code proxy_bind} was written (possibly {@code off}). */
    boolean bindSet;
    /** {@code proxy_bind ... transparent}. */
    boolean bindTransparent;
    /** {@code proxy_ssl}. */
    int sslEnable = -1;
    /** {@code proxy_ssl_*} and the client context. */
    final UpstreamSsl<StreamValue> ssl = new UpstreamSsl<>();
    /** {@code resolver} (nginx's stream core server conf), or null. */
    jinx.proxy.upstream.Resolver resolver;
    /** {@code resolver_timeout}, 30 s by default. */
    long resolverTimeout = UNSET;
    /** {@code health_check_timeout}, 5 s by default. */
    long healthCheckTimeout = UNSET;

    /** The group; an implicit one is resolved here, as nginx resolves it while reading the configuration. */
    void resolve() throws ConfException {
        if (upstream != null && resolved == null) {
            resolved = upstream.get();
        }
    }

    Upstream group() {
        return resolved;
    }

    void merge(StreamProxySrvConf p) throws ConfException {
        connectTimeout = pick(connectTimeout, p.connectTimeout, 60_000);
        timeout = pick(timeout, p.timeout, 600_000);
        bufferSize = pick(bufferSize, p.bufferSize, 16384);
        uploadRate = pick(uploadRate, p.uploadRate, 0);
        downloadRate = pick(downloadRate, p.downloadRate, 0);
        nextUpstreamTimeout = pick(nextUpstreamTimeout, p.nextUpstreamTimeout, 0);
        nextUpstreamTries = (int) pick(nextUpstreamTries, p.nextUpstreamTries, 0);
        nextUpstream = (int) pick(nextUpstream, p.nextUpstream, 1);
        halfClose = (int) pick(halfClose, p.halfClose, 0);
        socketKeepalive = (int) pick(socketKeepalive, p.socketKeepalive, 0);
        proxyProtocol = (int) pick(proxyProtocol, p.proxyProtocol, 0);
        requests = (int) pick(requests, p.requests, 0);
        responses = (int) pick(responses, p.responses, UNLIMITED);
        resolver = resolver != null ? resolver : p.resolver;
        healthCheckTimeout = pick(healthCheckTimeout, p.healthCheckTimeout, 5000);
        resolverTimeout = pick(resolverTimeout, p.resolverTimeout, jinx.proxy.upstream.Resolver.DEFAULT_TIMEOUT);
        if (!bindSet) {
            bind = p.bind;
            bindTransparent = p.bindTransparent;
            bindSet = p.bindSet;
        }
        sslEnable = (int) pick(sslEnable, p.sslEnable, 0);
        ssl.needed = sslEnable == 1;
        ssl.merge(p.ssl);
    }

    private static long pick(long v, long parent, long dflt) {
        return v != UNSET ? v : parent != UNSET ? parent : dflt;
    }
}
