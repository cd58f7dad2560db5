package jinx.bench;

import java.nio.file.Path;

/**
 * The configuration both servers run, in nginx's language (Jinx reads the same): the same workers, connections,
 * {@code access_log} setting and locations, so the responses differ only in the {@code Server} header.
 */
final class Conf {

    /**
     * The folder holding {@code cert.pem} and {@code key.pem} (a P-256 certificate made per run), or null: then the
     * servers have no HTTPS port.
     */
    static volatile Path tls;

    /** The backend's HTTPS port for {@code /proxy-tls/} (TLS to the upstream, keep-alive), or 0 for none. */
    static volatile int tlsBackend;

    private Conf() {
    }

    /** The HTTPS listener and its certificate, the same for both servers (nginx's defaults otherwise). */
    private static String https(int tlsPort) {
        return tls == null || tlsPort == 0 ? "" : "        listen 127.0.0.1:" + tlsPort + " ssl;\n"
            + "        ssl_certificate " + tls.resolve("cert.pem") + ";\n"
            + "        ssl_certificate_key " + tls.resolve("key.pem") + ";\n";
    }

    private static String proxies(int backend) {
        return backend == 0 ? "" : "    upstream backend {\n"
            + "        server 127.0.0.1:" + backend + ";\n"
            + "        keepalive 32;\n"
            + "    }\n"
            + (tlsBackend == 0 ? "" : "    upstream tlsbackend {\n"
                + "        server 127.0.0.1:" + tlsBackend + ";\n"
                + "        keepalive 32;\n"
                + "    }\n");
    }

    /**
     * Renders a configuration.
     *
     * @param main more main-context lines, Jinx's own directives (empty for nginx)
     * @param backend the port of the backend the proxy scenarios pass requests to, 0 for none: {@code /proxy/}
     *     with upstream keep-alive (HTTP/1.1), {@code /proxy-nb/} the same unbuffered, {@code /proxy-post/} the same
     *     with request bodies up to 128k kept in memory, {@code /proxy-noka/} a new
     *     upstream connection per request (nginx's defaults), {@code /proxy-tls/} to the backend's HTTPS port
     *     with keep-alive when {@link #tlsBackend} is set
     */
    static String render(int port, Path docroot, int workers, int connections, boolean accessLog, String main,
                         int backend) {
        return render(port, 0, docroot, workers, connections, accessLog, main, backend);
    }

    /** {@link #render} with an HTTPS port as well ({@code tlsPort}, 0 for none), when {@link #tls} is set. */
    /** The {@code user} directive's arguments for both servers ({@code --user "nobody nogroup"}), or null. */
    static String user;

    static String render(int port, int tlsPort, Path docroot, int workers, int connections, boolean accessLog,
                         String main, int backend) {
        boolean root = "root".equals(System.getProperty("user.name"));
        String as = user != null ? "user " + user + ";\n" : root ? "user root;\n" : "";
        return "master_process on;\n" + main
            + "daemon off;\n"
            + "worker_processes " + workers + ";\n"
            // as root, nginx's workers would otherwise run as nobody and Jinx's as root, unless --user says
            + as
            + "pid logs/server.pid;\n"
            + "error_log logs/error.log notice;\n"
            + "events {\n"
            + "    worker_connections " + connections + ";\n"
            + "}\n"
            + "http {\n"
            + "    types {\n"
            + "        text/html html;\n"
            + "        application/octet-stream bin;\n"
            + "    }\n"
            + "    default_type text/plain;\n"
            + "    sendfile on;\n"
            + "    keepalive_timeout 300s;\n"
            + (accessLog ? "    access_log logs/access.log;\n" : "    access_log off;\n")
            + proxies(backend)
            + "    limit_req_zone $binary_remote_addr zone=bench:1m rate=10000000r/s;\n"
            + map200()
            + "    server {\n"
            + "        listen 127.0.0.1:" + port + ";\n"
            + https(tlsPort)
            + "        server_name localhost;\n"
            + "        root " + docroot + ";\n"
            + "        location = /hello {\n"
            + "            return 200 \"hello\\n\";\n"
            + "        }\n"
            + "        location / {\n"
            + "        }\n"
            + "        location /gz/ {\n"
            + "            gzip on;\n"
            + "            gzip_comp_level 1;\n"
            + "        }\n"
            // map-hello: the 200-entry map's value, looked up on each request; if-hello: a regex if on a header
            + "        location = /mapped {\n"
            + "            return 200 \"$bench_mapped\\n\";\n"
            + "        }\n"
            + "        location = /if {\n"
            + "            if ($http_user_agent ~* \"(bot|crawler|spider)[0-9]*$\") {\n"
            + "                return 403;\n"
            + "            }\n"
            + "            return 200 \"hello\\n\";\n"
            + "        }\n"
            + "        location = /limited {\n"
            + "            limit_req zone=bench burst=100 nodelay;\n"
            + "            try_files /hello.txt =404;\n"
            + "        }\n"
            + (backend == 0 ? "" : "        location /proxy/ {\n"
                + "            proxy_pass http://backend/;\n"
                + "            proxy_http_version 1.1;\n"
                + "            proxy_set_header Connection \"\";\n"
                + "        }\n"
                + "        location /proxy-nb/ {\n"
                + "            proxy_pass http://backend/;\n"
                + "            proxy_http_version 1.1;\n"
                + "            proxy_set_header Connection \"\";\n"
                + "            proxy_buffering off;\n"
                + "        }\n"
                + "        location /proxy-post/ {\n"
                + "            proxy_pass http://backend/;\n"
                + "            proxy_http_version 1.1;\n"
                + "            proxy_set_header Connection \"\";\n"
                + "            client_body_buffer_size 128k;\n"
                + "            client_max_body_size 1m;\n"
                + "        }\n"
                + "        location /proxy-noka/ {\n"
                + "            proxy_pass http://127.0.0.1:" + backend + "/;\n"
                + "        }\n"
                + (tlsBackend == 0 ? "" : "        location /proxy-tls/ {\n"
                    + "            proxy_pass https://tlsbackend/;\n"
                    + "            proxy_http_version 1.1;\n"
                    + "            proxy_set_header Connection \"\";\n"
                    + "        }\n"))
            + "    }\n"
            + "}\n";
    }

    /** A map of 200 entries, the last of which the {@code map-hello} scenario's URI finds. */
    static String map200() {
        StringBuilder b = new StringBuilder("    map $uri $bench_mapped {\n        default none;\n");
        for (int i = 0; i < 199; i++) {
            b.append("        /entry/").append(i).append(" value").append(i).append(";\n");
        }
        return b.append("        /mapped found;\n    }\n").toString();
    }
}
