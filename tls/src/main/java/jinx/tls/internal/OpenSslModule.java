package jinx.tls.internal;

import java.util.ArrayList;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.TlsClient;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.tls.ClientSessions;
import jinx.tls.SslClient;

/**
 * The {@code openssl} core module: nginx's {@code ngx_openssl_module}, here the provider of the kernel's
 * {@link TlsClient} (TLS to upstreams for the proxy and stream modules, which find it in the cycle). It frees the
 * client contexts a configuration made when the cycle ends, as nginx's pool cleanup runs
 * {@code ngx_ssl_cleanup_ctx}.
 */
public final class OpenSslModule implements JinxModule, TlsClient.Provider {

    /** The module's name. */
    public static final String NAME = "openssl";

    private final List<TlsClient> clients = new ArrayList<>();
    /** The sessions of every client context of this configuration, per upstream peer as nginx keeps them. */
    private final ClientSessions sessions = new ClientSessions();

    /** Instantiated by the kernel, once per configuration. */
    public OpenSslModule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return ModuleType.CORE;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.CURRENT;
    }

    @Override
    public TlsClient client(TlsClient.Settings settings) throws ConfException {
        SslClient c = SslClient.create(settings, sessions);
        clients.add(c);
        return c;
    }

    /** The cycle is over in this worker (it exits, or a reload drained it): its client contexts are freed. */
    @Override
    public void exitProcess(Cycle cycle) {
        closeClients();
    }

    /** The same in the master, for a cycle a reload replaced or the master's last. */
    @Override
    public void exitMaster(Cycle cycle) {
        closeClients();
    }

    private void closeClients() {
        for (TlsClient c : clients) {
            c.close();
        }
        clients.clear();
        sessions.close();
    }
}
