package jinx.proxy.internal;

import jinx.kernel.ConfException;

/**
 * A {@code proxy_pass} URL as nginx's {@code ngx_http_proxy_pass()} splits it: {@code http://} or {@code https://}
 * and a host (an
 * upstream's name or an address, {@code unix:/path:} for a socket), its port, and the URI part that replaces the
 * location's prefix (null when there is none: the request's URI is sent as it is).
 *
 * @param url the URL as written
 * @param ssl whether it is {@code https://}
 * @param host the host as written ({@code backend}, {@code 127.0.0.1}, {@code [::1]}, {@code unix:/tmp/s})
 * @param port the port, 80 (443 for https) when none was written
 * @param hasPort whether a port was written
 * @param hostHeader {@code $proxy_host}: the host, with the port when it is not the scheme's
 * @param uri the URI part, or null
 * @param location the location's name, whose prefix the URI part replaces
 * @param reference the upstream this names, resolved once {@code http {}} is read
 */
record ProxyPass(String url, boolean ssl, String host, int port, boolean hasPort, String hostHeader, String uri,
                 String location, UpstreamMainConf.Reference reference) {

    /**
     * Returns the scheme with its slashes, as nginx's {@code u->schema}: {@code http://} or {@code https://}.
     *
     * @return the scheme
     */
    String schema() {
        return ssl ? "https://" : "http://";
    }

    /**
     * nginx's {@code ngx_http_proxy_pass()} and {@code ngx_parse_url()}: a URL without variables at configuration
     * time (registered in {@code umcf} to be resolved), or one made from variables for a request ({@code umcf}
     * null, as nginx's {@code ngx_http_proxy_eval()}). {@code https://} needs a module offering client TLS
     * ({@code tls}), as nginx needs to be built with SSL.
     */
    static ProxyPass parse(String url, String location, String file, int line, UpstreamMainConf umcf,
                           boolean tls) throws ConfException {
        String rest;
        boolean ssl = false;
        if (url.regionMatches(true, 0, "http://", 0, 7)) {
            rest = url.substring(7);
        } else if (url.regionMatches(true, 0, "https://", 0, 8)) {
            if (!tls) {
                throw new ConfException("https protocol requires SSL support");
            }
            rest = url.substring(8);
            ssl = true;
        } else {
            throw new ConfException("invalid URL prefix");
        }
        int defaultPort = ssl ? 443 : 80;
        String host;
        String uri = null;
        int port = defaultPort;
        boolean hasPort = false;
        if (rest.regionMatches(true, 0, "unix:", 0, 5)) {
            int colon = rest.indexOf(':', 5);
            host = colon < 0 ? rest : rest.substring(0, colon);
            uri = colon < 0 ? null : rest.substring(colon + 1);
        } else {
            int slash = rest.indexOf('/');
            int query = rest.indexOf('?');
            int end = slash < 0 ? rest.length() : slash;
            if (query >= 0 && query < end) {
                end = query;
            }
            String hostPort = rest.substring(0, end);
            uri = end < rest.length() ? rest.substring(end) : null;
            host = hostPort;
            int colon = hostPort.lastIndexOf(':');
            int bracket = hostPort.lastIndexOf(']');
            if (colon > bracket && (bracket >= 0 || hostPort.indexOf(':') == colon)) {
                host = hostPort.substring(0, colon);
                try {
                    port = Integer.parseInt(hostPort.substring(colon + 1));
                } catch (NumberFormatException e) {
                    port = -1;
                }
                if (port < 1 || port > 65535) {
                    throw new ConfException("invalid port in upstream \"" + hostPort + "\"");
                }
                hasPort = true;
            }
            if (host.isEmpty()) {
                throw new ConfException("no host in upstream \"" + hostPort + "\"");
            }
            if (uri != null && uri.startsWith("?")) {
                uri = "/" + uri;
            }
        }
        // nginx's ngx_http_proxy_set_vars(): a unix socket's Host is "localhost"
        String hostHeader = host.regionMatches(true, 0, "unix:", 0, 5) ? "localhost"
            : hasPort && port != defaultPort ? host + ":" + port : host;
        UpstreamMainConf.Reference ref = null;
        if (umcf != null) {
            ref = new UpstreamMainConf.Reference(host, port, hasPort, file, line);
            umcf.references.add(ref);
        }
        return new ProxyPass(url, ssl, host, port, hasPort, hostHeader, uri, location, ref);
    }
}
