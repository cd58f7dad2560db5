package jinx.http.it;

import java.net.InetAddress;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code log_format} with the core variables, written by {@code access_log} to files: default escaping,
 * {@code escape=json}, the predefined {@code combined} format, {@code if=}, {@code off} per location, and
 * {@code buffer=}/{@code flush=}.
 */
@Tag("slow")
class AccessLogIT {

    private static final String ALL = String.join("|", "$remote_addr", "$remote_port", "$request", "$status",
        "$body_bytes_sent", "$bytes_sent", "$request_method", "$uri", "$args", "$arg_a", "$is_args", "$query_string",
        "$request_uri", "$document_uri", "$http_x_test", "$http_x_dup", "$cookie_c", "$host", "$server_name",
        "$server_port", "$server_addr", "$server_protocol", "$scheme", "$https", "$content_length", "$content_type",
        "$connection", "$connection_requests", "$request_length", "$document_root", "$request_filename",
        "$realpath_root", "$sent_http_content_type", "$jinx_version", "$pid", "$msec", "$request_time",
        "$time_iso8601", "$time_local", "$hostname", "$limit_rate", "$binary_remote_addr", "$request_body");

    private static Site site;
    private static JinxServer server;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        site = Site.create();
        site.write("html/file.txt", "hello\n");
        port = Site.freePort();
        server = JinxServer.start(site, ("""
            include mime.types;
            log_format all '%ALL%';
            log_format json escape=json '{"ua":"$http_user_agent","uri":"$uri","args":"$args"}';
            access_log logs/all.log all;
            server {
                listen 127.0.0.1:%PORT%;
                server_name localhost;
                root html;
                access_log logs/all.log all;
                access_log logs/combined.log combined;
                access_log logs/json.log json;
                access_log logs/if.log all if=$arg_log;
                access_log logs/buffered.log all buffer=32k flush=1s;
                """ + ItSupport.ALIVE + """
                location /echo { it_echo body; }
                location /quiet { access_log off; return 204; }
            }
            """).replace("%ALL%", ALL).replace("%PORT%", Integer.toString(port)));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        site.close();
    }

    @Test
    @Timeout(30)
    void everyCoreVariable() throws Exception {
        try (RawClient c = RawClient.connect(port)) {
            c.send("GET /alive HTTP/1.1\r\nHost: localhost\r\n\r\n").response();
            c.send("POST /echo?a=1&b=2 HTTP/1.1\r\nHost: Localhost:" + port + "\r\nX-Test: t\"q\r\n"
                + "X-Dup: one\r\nX-Dup: two\r\nCookie: c=cookie; d=e\r\nContent-Type: text/plain\r\n"
                + "Content-Length: 4\r\n\r\nbody");
            assertEquals("len=4 body=body", c.responses(2).get(1).body());
        }
        String line = server.awaitLine("logs/all.log", "POST /echo");
        String[] f = line.split("\\|", -1);
        assertEquals(43, f.length, line);
        String root = site.root().resolve("html").toString();
        List<String> expected = List.of("127.0.0.1", f[1], "POST /echo?a=1&b=2 HTTP/1.1", "200", "15", f[5], "POST",
            "/echo", "a=1&b=2", "1", "?", "a=1&b=2", "/echo?a=1&b=2", "/echo", "t\\x22q", "one, two", "cookie",
            "localhost", "localhost", Integer.toString(port), "127.0.0.1", "HTTP/1.1", "http", "", "4", "text/plain",
            f[26], "2", f[28], root, root + "/echo", root, "text/plain", f[33], Long.toString(ProcessHandle.current()
                .pid()), f[35], f[36], f[37], f[38], InetAddress.getLocalHost().getHostName(), "0", "\\x7F\\x00\\x00\\x01",
            "body");
        assertEquals(expected, List.of(f), line);
        assertTrue(f[1].matches("\\d+") && Integer.parseInt(f[5]) > 15, line);
        assertTrue(f[26].matches("\\d+") && Integer.parseInt(f[28]) > 100, line);
        assertTrue(f[33].matches("\\d+\\.\\d+\\.\\d+.*"), f[33]);
        assertTrue(f[35].matches("\\d{10}\\.\\d{3}"), f[35]);
        assertTrue(f[36].matches("\\d+\\.\\d{3}"), f[36]);
        assertTrue(f[37].matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d[+-]\\d\\d:\\d\\d"), f[37]);
        assertTrue(f[38].matches("\\d\\d/[A-Z][a-z]{2}/\\d{4}:\\d\\d:\\d\\d:\\d\\d [+-]\\d{4}"), f[38]);
    }

    @Test
    @Timeout(30)
    void combinedAndJsonFormats() throws Exception {
        ItSupport.request(port, "GET /file.txt?x HTTP/1.1\r\nHost: localhost\r\nReferer: http://r/\r\n"
            + "User-Agent: agent \"7\"\u0001\r\n\r\n");
        String combined = server.awaitLine("logs/combined.log", "GET /file.txt?x");
        assertTrue(combined.matches("127\\.0\\.0\\.1 - - \\[[^]]+\\] \"GET /file\\.txt\\?x HTTP/1\\.1\" 200 6 "
            + "\"http://r/\" \"agent \\\\x227\\\\x22\\\\x01\""), combined);
        String json = server.awaitLine("logs/json.log", "\"args\":\"x\"");
        assertEquals("{\"ua\":\"agent \\\"7\\\"\\u0001\",\"uri\":\"/file.txt\",\"args\":\"x\"}", json);
    }

    @Test
    @Timeout(30)
    void conditionalOffAndBuffered() throws Exception {
        ItSupport.get(port, "localhost", "/file.txt?log=0");
        ItSupport.get(port, "localhost", "/file.txt?log=1");
        ItSupport.get(port, "localhost", "/quiet");
        server.awaitLine("logs/if.log", "GET /file.txt?log=1");
        assertTrue(!site.read("logs/if.log").contains("log=0"), site.read("logs/if.log"));
        // flush=1s: the buffered line reaches the file within a second or two
        server.awaitLine("logs/buffered.log", "GET /file.txt?log=1");
        server.awaitLine("logs/all.log", "GET /file.txt?log=1");
        assertTrue(!site.read("logs/all.log").contains("/quiet"), site.read("logs/all.log"));
    }
}
