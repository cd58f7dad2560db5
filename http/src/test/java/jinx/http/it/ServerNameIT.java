package jinx.http.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.Responses.Response;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code server_name} on one address, in nginx's order: exact names, the longest leading wildcard, the longest
 * trailing wildcard, the first matching regular expression (captures usable, PCRE's {@code (?P<name>)} spelling
 * accepted), then the default server; {@code ""} for requests without a Host.
 */
@Tag("slow")
class ServerNameIT {

    private static Site site;
    private static JinxServer server;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        site = Site.create();
        server = JinxServer.start(site, """
            server {
                listen 127.0.0.1:0;
                server_name localhost;
                """ + ItSupport.ALIVE + """
                location / { return 200 "first $server_name\\n"; }
            }
            server {
                listen 127.0.0.1:0;
                server_name example.com www.example.com;
                return 200 "exact $server_name $host\\n";
            }
            server {
                listen 127.0.0.1:0;
                server_name *.example.com;
                return 200 "leading $host\\n";
            }
            server {
                listen 127.0.0.1:0;
                server_name *.sub.example.com;
                return 200 "longer leading $host\\n";
            }
            server {
                listen 127.0.0.1:0;
                server_name mail.*;
                return 200 "trailing $host\\n";
            }
            server {
                listen 127.0.0.1:0;
                server_name ~^(?<user>[a-z]+)\\.users\\.test$ ~^(?P<team>[a-z]+)\\.teams\\.test$;
                return 200 "regex $user$team\\n";
            }
            server {
                listen 127.0.0.1:0;
                server_name ~^www\\d+\\.;
                return 200 "numbered $host\\n";
            }
            server {
                listen 127.0.0.1:0 default_server;
                server_name default "";
                return 200 "default $server_name\\n";
            }
            """);
        port = server.port();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        site.close();
    }

    private static String body(String host) throws Exception {
        return ItSupport.get(port, host, "/").body();
    }

    @Test
    @Timeout(30)
    void exactNamesFirst() throws Exception {
        assertEquals("exact example.com example.com\n", body("example.com"));
        assertEquals("exact example.com www.example.com\n", body("www.example.com"));
        // Host is case-insensitive, without its port and trailing dot
        assertEquals("exact example.com www.example.com\n", body("WWW.Example.COM.:8080"));
    }

    @Test
    @Timeout(30)
    void wildcards() throws Exception {
        assertEquals("leading a.example.com\n", body("a.example.com"));
        assertEquals("longer leading x.sub.example.com\n", body("x.sub.example.com"));
        assertEquals("trailing mail.example.org\n", body("mail.example.org"));
    }

    @Test
    @Timeout(30)
    void regexesWithCaptures() throws Exception {
        assertEquals("regex alice\n", body("alice.users.test"));
        assertEquals("regex red\n", body("red.teams.test"));
        assertEquals("numbered www42.example.net\n", body("www42.example.net"));
    }

    @Test
    @Timeout(30)
    void defaultServerAndNoHost() throws Exception {
        assertEquals("default default\n", body("nobody.invalid"));
        Response r = ItSupport.request(port, "GET / HTTP/1.0\r\n\r\n");
        assertEquals("default default\n", r.body());
        ItSupport.assertAlive(server);
    }
}
