package jinx.http.internal.core;

import jinx.kernel.os.SockAddr;

/**
 * What one address of a listening socket serves: nginx's {@code ngx_http_addr_conf_t} with its address
 * ({@code ngx_http_in_addr_t}).
 *
 * @param addr the address
 * @param defaultServer the server for requests whose host names no server ({@code default_server}, else the first
 *     server listening on the address)
 * @param virtualNames the server names to choose among, or null when the address has one server whose names
 *     capture nothing
 * @param proxyProtocol {@code proxy_protocol} was given
 * @param takeover what takes the connections over before their first request ({@code ssl}), or null
 */
public record AddrConf(SockAddr addr, HttpCoreSrvConf defaultServer, VirtualNames virtualNames,
                       boolean proxyProtocol, jinx.http.spi.ConnectionTakeover takeover) {
}
