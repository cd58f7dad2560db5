package jinx.bench;

import java.nio.file.Path;

/**
 * The configuration both servers run, in nginx's language (Jinx reads the same): the same workers, connections,
 * {@code access_log} setting and locations, so the responses differ only in the {@code Server} header.
 */
final class Conf {

    private Conf() {
    }

    /**
     * Renders a configuration.
     *
     * @param main more main-context lines, Jinx's own directives (empty for nginx)
     */
    static String render(int port, Path docroot, int workers, int connections, boolean accessLog, String main) {
        boolean root = "root".equals(System.getProperty("user.name"));
        return "master_process on;\n" + main
            + "daemon off;\n"
            + "worker_processes " + workers + ";\n"
            // as root, nginx's workers would otherwise run as nobody and Jinx's as root
            + (root ? "user root;\n" : "")
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
            + "    server {\n"
            + "        listen 127.0.0.1:" + port + ";\n"
            + "        server_name localhost;\n"
            + "        root " + docroot + ";\n"
            + "        location = /hello {\n"
            + "            return 200 \"hello\\n\";\n"
            + "        }\n"
            + "        location / {\n"
            + "        }\n"
            + "    }\n"
            + "}\n";
    }
}
