package jinx.http.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code location} choice as nginx makes it: {@code =} first, then the longest prefix, which {@code ^~} makes
 * final, else the regular expressions in order ({@code ~}, {@code ~*}), nested locations, named locations and
 * {@code internal}.
 */
@Tag("slow")
class LocationIT {

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
                location = / { return 200 "exact root\\n"; }
                location / { return 200 "prefix root\\n"; }
                location /docs/ { return 200 "prefix docs\\n"; }
                location /docs/api/ {
                    location ~ \\.json$ { return 200 "nested json\\n"; }
                    return 200 "prefix docs/api\\n";
                }
                location ^~ /static/ { return 200 "final static\\n"; }
                location ~ \\.(png|gif)$ { return 200 "regex image $1\\n"; }
                location ~* \\.JPG$ { return 200 "caseless jpg\\n"; }
                location ~ ^/docs/.*\\.txt$ { return 200 "regex txt\\n"; }
                location ~ ^/docs/(?P<name>\\w+)\\.txt$ { return 200 "never: the first regex wins\\n"; }
                location /named { try_files /nothing @fallback; }
                location @fallback { return 200 "named $uri\\n"; }
                location /private { internal; return 200 "private\\n"; }
                location /to-private { error_page 404 /private; return 404; }
            }
            """);
        port = server.port();
    }

    @AfterAll
    static void stop() throws Exception {
        ItSupport.assertAlive(server);
        server.close();
        site.close();
    }

    private static String body(String uri) throws Exception {
        return ItSupport.get(port, "localhost", uri).body();
    }

    @Test
    @Timeout(30)
    void exactAndPrefix() throws Exception {
        assertEquals("exact root\n", body("/"));
        assertEquals("prefix root\n", body("/other"));
        assertEquals("prefix docs\n", body("/docs/guide"));
        assertEquals("prefix docs/api\n", body("/docs/api/v1"));
    }

    @Test
    @Timeout(30)
    void regexesAfterPrefixesUnlessFinal() throws Exception {
        assertEquals("regex image png\n", body("/docs/logo.png"));
        assertEquals("final static\n", body("/static/logo.png"));
        assertEquals("caseless jpg\n", body("/photo.jpg"));
        assertEquals("regex txt\n", body("/docs/readme.txt"));
        assertEquals("nested json\n", body("/docs/api/spec.json"));
    }

    @Test
    @Timeout(30)
    void namedAndInternal() throws Exception {
        assertEquals("named /named/x\n", body("/named/x"));
        assertEquals(404, ItSupport.get(port, "localhost", "/private").status());
        assertEquals("private\n", body("/to-private"));
    }
}
