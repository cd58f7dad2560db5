package jinx.stream.internal;

import java.util.List;
import java.util.function.Consumer;

import jinx.kernel.ErrorLog;

import jinx.stream.StreamSession;

/**
 * A server's core conf: nginx's {@code ngx_stream_core_srv_conf_t}, holding the server's confs of every module
 * ({@code ctx}) so that a session finds them.
 */
final class StreamCoreSrvConf {

    static final long UNSET = -1;

    /** Every module's server conf, by type index. */
    Object[] ctx;
    /** The content handler: {@code proxy_pass}, {@code return}. */
    Consumer<StreamSession> handler;
    boolean listen;
    String file;
    int line;
    long prereadBufferSize = UNSET;
    long prereadTimeout = UNSET;
    long proxyProtocolTimeout = UNSET;
    int tcpNodelay = -1;
    /** {@code error_log}: the targets, or null to inherit (the cycle's log at the top). */
    List<ErrorLog.Target> errorLogTargets;
    /** The opened log of those targets, or null for the cycle's. */
    volatile ErrorLog errorLog;

    void merge(StreamCoreSrvConf prev) {
        prereadBufferSize = prereadBufferSize != UNSET ? prereadBufferSize
            : prev.prereadBufferSize != UNSET ? prev.prereadBufferSize : 16384;
        prereadTimeout = prereadTimeout != UNSET ? prereadTimeout
            : prev.prereadTimeout != UNSET ? prev.prereadTimeout : 30_000;
        proxyProtocolTimeout = proxyProtocolTimeout != UNSET ? proxyProtocolTimeout
            : prev.proxyProtocolTimeout != UNSET ? prev.proxyProtocolTimeout : 30_000;
        tcpNodelay = tcpNodelay != -1 ? tcpNodelay : prev.tcpNodelay != -1 ? prev.tcpNodelay : 1;
        if (errorLogTargets == null) {
            errorLogTargets = prev.errorLogTargets;
        }
    }
}
