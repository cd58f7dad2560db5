package jinx.kernel.spi;

/**
 * The version of the module SPI a module was compiled against.
 *
 * <p>A module states it with {@code ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR)}: both are compile-time
 * constants, so the compiler copies the values of the kernel the module was built against into the module's
 * class. On load the kernel refuses a different major ({@code is not binary compatible}) and a newer minor
 * ({@code version x.y instead of x.z}); an older minor is accepted, since minors only add to the SPI. (nginx
 * refuses any difference; this is Jinx's own rule.)
 *
 * <p>History: 1.0, the first SPI; 1.1 adds, for third-party HTTP modules, {@code jinx.http.spi.HttpDirectives}
 * (compiling values and finding variables from a directive's handler), {@code jinx.http.spi.HttpResponses}
 * ({@code setContentType}) and {@code HttpRequest.retain()} / {@code addCleanup()} (handlers that go on from
 * an event); 1.2 adds {@code JinxModule.warmUp}, {@link WarmUpExchange} and {@code Connection.warmUp} (a
 * worker's warm-up, {@code worker_warmup}); 1.3 adds what a module producing a response from elsewhere needs:
 * outbound connections ({@code jinx.kernel.EventConnect}, {@code PeerConnection}), a location's content handler
 * and its kind ({@code HttpDirectives.contentHandler}, {@code location}), the request body, a request's event
 * handlers, pending output and log context ({@code HttpRequest.readClientRequestBody} and kin), the response
 * parser ({@code jinx.http.ResponseParser}), and for module authors {@code jinx.http.spi.HttpOrder} (where a
 * module stands, in the author's words) and the helpers each marked "Added in SPI 1.3"; 1.4 adds what TLS needs of
 * the kernel and HTTP: {@code ConnectionIo.release} (the loop frees a connection's I/O at close),
 * {@code jinx.http.spi.ConnectionTakeover} with {@code HttpConfig.addListenParameter} (a module takes a
 * {@code listen ... ssl} connection over before its first request) and {@code jinx.http.ClientConnection} (the
 * connection's server chosen by the TLS server name, its log, and the way back to reading requests, secured or
 * answered 497); for the stream module, {@code Connection.localSockaddr()} ({@code $server_addr} without the OS
 * layer), {@code SocketIo.tcpNodelay()}, {@code ErrorLog.strerror()}, {@code PeerConnection.number} and
 * {@code PeerConnection.logContext}; what the proxy's error interception, {@code X-Accel-*}, {@code proxy_bind} and
 * unbuffered bodies need ({@code HttpRequest.hasErrorPage}, {@code limitRate}, {@code requestBodyNoBuffering} and
 * kin, {@code HttpResponses.redirectUnsafe}, {@code PeerConnection.local}); and the methods each marked "Added in
 * SPI 1.4"; 1.5 adds {@code jinx.kernel.TlsClient} (TLS to upstreams, offered by a module and found in the cycle),
 * datagram peer connections for the DNS resolver ({@code PeerConnection.datagram}, {@code SocketIo.recvDatagram}),
 * subrequests ({@code HttpRequest.subrequest} with its flags and {@code HttpRequest.PostSubrequest}, {@code main()},
 * {@code parent()}, {@code subrequestOutput()}: a module such as {@code auth_request} or {@code mirror} starts one,
 * and a content handler, the proxy's, serves it as any request) and what each type or method marked "Added in SPI
 * 1.5" says; 1.6 adds temporary files for any module ({@code jinx.kernel.TempFile}, {@code jinx.kernel.TempPath},
 * {@code Cycle.addPath}: nginx's {@code ngx_temp_file_t}, {@code ngx_path_t} and {@code ngx_add_path()}, the paths
 * created by the master and given to {@code user}; the proxy's {@code proxy_temp_path}); listening datagram sockets
 * ({@code Listening.datagram}) whose clients get sessions of their own ({@code DatagramIo}: nginx's UDP sessions on
 * a shared listening socket); {@code ConnectionTakeover.processRequest} (a module's checks of a request on its
 * secured connection before the phases: nginx's client certificate verification) and
 * {@code ClientConnection.evaluate} (a value with variables before a request: certificates named by
 * {@code $ssl_server_name}); for a stream module outside {@code jinx.stream} (the TLS module's {@code stream_ssl}),
 * {@code StreamConfig.addListenParameter} with {@code StreamSession.listenParameter}, {@code StreamSession.srvConf}
 * and {@code StreamSession.runPhases}; in {@code jinx.proxy.upstream}, upstream zones ({@code PeerZone}: the peers'
 * state in a shared zone, {@code Upstream.zone}), live per-peer figures ({@code PeerFigures},
 * {@code UpstreamFigures}, {@code Upstream.responded}), active health checks ({@code HealthCheck} with its
 * {@code Probe} and {@code Settings}) and {@code random two peak_ewma} ({@code Upstream.randomMethod}); and what each
 * type or method marked "Added in SPI 1.6" says.
 *
 * @param major incompatible changes bump this
 * @param minor compatible additions bump this
 */
public record ApiVersion(int major, int minor) {

    /** The running kernel's major version. */
    public static final int MAJOR = 1;

    /** The running kernel's minor version. */
    public static final int MINOR = 6;

    /** The running kernel's version. */
    public static final ApiVersion CURRENT = new ApiVersion(MAJOR, MINOR);

    /**
     * Returns the version {@code major.minor}.
     *
     * @param major the major version
     * @param minor the minor version
     * @return the version
     */
    public static ApiVersion of(int major, int minor) {
        return new ApiVersion(major, minor);
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
