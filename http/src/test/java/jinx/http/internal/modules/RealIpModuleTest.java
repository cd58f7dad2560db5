package jinx.http.internal.modules;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.Responses;

/**
 * The realip module on the fixture's UNIX-domain clients (trusted with {@code set_real_ip_from unix:}): X-Real-IP,
 * X-Forwarded-For with and without recursion, another header, ports and IPv6 text, the access module and the
 * error log seeing the new address, and location-level directives run in PREACCESS.
 */
class RealIpModuleTest {

    private static final String SHOW = "return 200 \"$remote_addr|$remote_port|$realip_remote_addr|"
        + "$realip_remote_port\";";

    @TempDir
    Path root;

    private EngineFixture f;

    void start(String server) throws Exception {
        Files.writeString(root.resolve("f.txt"), "f");
        f = EngineFixture.modules("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n root " + root + ";\n"
            + server + "\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private Responses.Response get(String uri, String headers) throws Exception {
        return f.get("GET " + uri + " HTTP/1.1\r\nHost: localhost\r\n" + headers + "Connection: close\r\n\r\n");
    }

    @Test
    @Timeout(20)
    void xRealIpFromATrustedClient() throws Exception {
        start("set_real_ip_from unix:;\n location / { " + SHOW + " }");
        assertEquals("192.0.2.7||unix:|", get("/", "X-Real-IP: 192.0.2.7\r\n").body());
        assertEquals("192.0.2.7|8080|unix:|", get("/", "X-Real-IP: 192.0.2.7:8080\r\n").body());
        assertEquals("2001:db8::1||unix:|", get("/", "X-Real-IP: 2001:DB8:0:0::1\r\n").body());
        assertEquals("unix:||unix:|", get("/", "").body());
        assertEquals("unix:||unix:|", get("/", "X-Real-IP: not-an-address\r\n").body());
    }

    @Test
    @Timeout(20)
    void untrustedClientsKeepTheirAddress() throws Exception {
        start("set_real_ip_from 10.0.0.0/8;\n location / { " + SHOW + " }");
        assertEquals("unix:||unix:|", get("/", "X-Real-IP: 192.0.2.7\r\n").body());
    }

    @Test
    @Timeout(20)
    void xForwardedForOnceOrRecursively() throws Exception {
        String from = "set_real_ip_from unix:; set_real_ip_from 10.0.0.0/8; ";
        // a location's directives run in PREACCESS, after return: the address shows in a header of the content
        String show = "add_header X-A $remote_addr; try_files /f.txt =404; ";
        start("real_ip_header X-Forwarded-For;\n location /once { " + from + show + " }\n"
            + " location /all { " + from + "real_ip_recursive on; " + show + " }");
        assertEquals("10.0.0.2", get("/once", "X-Forwarded-For: 1.1.1.1, 10.0.0.2\r\n").header("X-A"));
        assertEquals("1.1.1.1", get("/all", "X-Forwarded-For: 1.1.1.1, 10.0.0.2\r\n").header("X-A"));
        assertEquals("10.0.0.3", get("/all", "X-Forwarded-For: 10.0.0.3,10.0.0.2\r\n").header("X-A"));
        assertEquals("1.1.1.1", get("/all", "X-Forwarded-For: 9.9.9.9, 1.1.1.1\r\nX-Forwarded-For: 10.0.0.2\r\n")
            .header("X-A"));
    }

    @Test
    @Timeout(20)
    void theServersDirectivesDecideFirstInPostRead() throws Exception {
        // POST_READ runs with the server's confs and replaces the address once: the location's recursion comes late
        start("set_real_ip_from unix:;\n set_real_ip_from 10.0.0.0/8;\n real_ip_header X-Forwarded-For;\n"
            + " location / { real_ip_recursive on; " + SHOW + " }");
        assertEquals("10.0.0.2", get("/", "X-Forwarded-For: 1.1.1.1, 10.0.0.2\r\n").body().split("\\|")[0]);
    }

    @Test
    @Timeout(20)
    void anotherHeaderAndTheLocationsOwnDirectives() throws Exception {
        start("location /h { set_real_ip_from unix:; real_ip_header X-Client; deny 192.0.2.0/24; }");
        assertEquals(403, get("/h/f.txt", "X-Client: 192.0.2.9\r\n").status());
        assertTrue(f.log().contains("access forbidden by rule, client: 192.0.2.9"), f.log());
        assertEquals(404, get("/h/f.txt", "X-Client: 198.51.100.1\r\n").status());
        assertEquals(404, get("/h/f.txt", "X-Real-IP: 192.0.2.9\r\n").status());
    }

    @Test
    void configurationErrors() {
        assertRefused("set_real_ip_from nowhere.invalid;", "host not found in set_real_ip_from \"nowhere.invalid\"");
        assertRefused("real_ip_recursive maybe;", "invalid value \"maybe\"");
        assertRefused("real_ip_header a b;", "invalid number of arguments in \"real_ip_header\" directive");
    }

    private void assertRefused(String server, String text) {
        Exception e = assertThrows(Exception.class, () -> start(server));
        assertTrue(String.valueOf(e.getMessage()).contains(text), e.getMessage());
    }
}
