package jinx.http.spi;

import jinx.http.ClientConnection;
import jinx.http.HttpRequest;
import jinx.kernel.ConfException;

/**
 * A module that takes a new connection over before HTTP reads its first request: nginx's
 * {@code ngx_http_init_connection()} giving a connection of a {@code listen ... ssl} address to
 * {@code ngx_http_ssl_handshake()} instead of {@code ngx_http_wait_request_handler()}. A module registers one for a
 * parameter of {@code listen} ({@link HttpConfig#addListenParameter}); HTTP calls it from the read handler of every
 * connection accepted on an address that has the parameter, each time the connection is readable (or its
 * {@code client_header_timeout} expired: {@code read.timedout}), until the module sets handlers of its own.
 *
 * <p>The module secures the connection (sets its {@link jinx.kernel.Connection#io(jinx.kernel.ConnectionIo) I/O})
 * and hands it back with {@link ClientConnection#readRequest(boolean) readRequest(true)}; a client that does not
 * speak the module's protocol is handed back with {@code readRequest(false)}, and each of its requests is answered
 * as nginx answers plain HTTP on an HTTPS port (497, logged {@code client sent plain HTTP request to HTTPS port}).
 * Added in SPI 1.4.
 */
@FunctionalInterface
public interface ConnectionTakeover {

    /**
     * Takes the connection over, or goes on with it: called on the loop's thread.
     *
     * @param c the connection, HTTP's view of it
     */
    void takeOver(ClientConnection c);

    /**
     * Checks the default server of every address with the parameter once {@code http {}} is read: nginx's
     * {@code ngx_http_ssl_init()}, which refuses an {@code ssl} address whose default server has no certificate.
     *
     * @param srvConfs the default server's conf objects, by HTTP module index ({@link HttpConfKey#ctxIndex()})
     * @param file the file of that server's {@code server} directive
     * @param line its line
     * @throws ConfException to refuse the configuration, worded with the place given
     */
    default void checkDefaultServer(Object[] srvConfs, String file, int line) throws ConfException {
    }

    /**
     * Checks a request of a connection the module secured once its header is read and its server chosen, before
     * its phases run: nginx's {@code ngx_http_process_request()}, which answers a client certificate that failed
     * verification with 495 and a missing one with 496 (both sent as 400). The module logs its own line.
     * Added in SPI 1.6.
     *
     * @param r the request
     * @return {@link jinx.kernel.Rc#OK} to go on, or the status to finalize the request with
     */
    default int processRequest(HttpRequest r) {
        return jinx.kernel.Rc.OK;
    }
}
