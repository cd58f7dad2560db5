package jinx.http.internal.modules;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.Responses;

/**
 * The auth_basic module: every password scheme of an htpasswd file (the hashes made by {@code openssl passwd} and
 * by the system's {@code crypt(3)}), the 401 with its realm, the file's format, a missing file, {@code off} and
 * inheritance, and {@code satisfy any} with the access module.
 */
class AuthBasicModuleTest {

    /** User, password, stored hash: made with {@code openssl passwd} (apr1, 1, 5, 6), openssl sha1, crypt(3). */
    private static final String[][] USERS = {
        {"plain", "secret", "{PLAIN}secret"},
        {"sha", "secret", "{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ="},
        {"ssha", "secret", "{SSHA}8bX4JQDfZqtTfvnQ4ssDmWb17/FTQUxU"},
        {"apr1", "secret", "$apr1$abcdefgh$h9FWgUz3n9YxylKLlR5SQ/"},
        {"apr1short", "secret", "$apr1$ab$jiiV6N7hIIuIoJbc1hxOE/"},
        {"md5", "secret", "$1$xyz$Qia9Wq6FxQkYcwNWMk/RM0"},
        {"sha256", "secret", "$5$saltsalt$0IyaXrmV7.sGNS6tirgqHLqX/G.FBvgkYA.lpPdS5sA"},
        {"sha512", "secret", "$6$saltsalt$TVLlQcbpFVof5W3Yz4DTP6gRstiNuHwwTt6GLc1E5n0U0aDehy0S5knV8wiOQSpT0Y77vwPZN"
            + ".Pq.H91p5hVO1"},
        {"yescrypt", "secret", "$y$j9T$F5Jx5fExrKuPp53xLKQ..1$GmcwIgvdUC9qLWcKCi6gklUa1dM3ziD43YxYNURLKy0"},
        {"bcrypt", "secret", "$2b$05$abcdefghijklmnopqrstuuOQiyCxlgf/oeuTqixKmWdcYUh4Hjl0a"},
        {"des", "secret", "abNANd1rDfiNc"},
    };

    @TempDir
    Path root;

    private EngineFixture f;

    void start(String server) throws Exception {
        StringBuilder file = new StringBuilder("# a comment\n\n");
        for (String[] u : USERS) {
            file.append(u[0]).append(':').append(u[2]).append(":a comment\r\n");
        }
        file.append("last:{PLAIN}nonewline");
        Files.writeString(root.resolve("htpasswd"), file.toString());
        Files.writeString(root.resolve("index.html"), "in");
        f = EngineFixture.modules("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n root " + root + ";\n"
            + server + "\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private Responses.Response get(String uri, String user, String password) throws Exception {
        String auth = user == null ? "" : "Authorization: Basic " + Base64.getEncoder().encodeToString(
            (user + ":" + password).getBytes(StandardCharsets.ISO_8859_1)) + "\r\n";
        return f.get("GET " + uri + " HTTP/1.1\r\nHost: localhost\r\n" + auth + "Connection: close\r\n\r\n");
    }

    @Test
    @Timeout(30)
    void everySchemeRightAndWrong() throws Exception {
        start("auth_basic \"Zone $server_name\";\n auth_basic_user_file " + root.resolve("htpasswd") + ";");
        for (String[] u : USERS) {
            assertEquals(200, get("/", u[0], u[1]).status(), u[0]);
            Responses.Response r = get("/", u[0], u[1] + "x");
            assertEquals(401, r.status(), u[0]);
            assertEquals("Basic realm=\"Zone localhost\"", r.header("WWW-Authenticate"));
        }
        assertEquals(200, get("/", "last", "nonewline").status());
        assertTrue(f.log().contains("user \"plain\": password mismatch"), f.log());
    }

    @Test
    @Timeout(20)
    void missingOrUnknownCredentials() throws Exception {
        start("auth_basic on;\n auth_basic_user_file " + root.resolve("htpasswd") + ";");
        Responses.Response r = get("/", null, null);
        assertEquals(401, r.status());
        assertEquals("Basic realm=\"on\"", r.header("WWW-Authenticate"));
        assertEquals(401, get("/", "nobody", "x").status());
        assertTrue(f.log().contains("user \"nobody\" was not found in \"" + root.resolve("htpasswd") + "\""),
            f.log());
        assertEquals(401, get("/", "# a comment", "x").status());
        assertEquals(401, f.get("GET / HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic !!\r\n"
            + "Connection: close\r\n\r\n").status());
    }

    @Test
    @Timeout(20)
    void offInheritanceAndAMissingFile() throws Exception {
        start("auth_basic closed;\n auth_basic_user_file htpasswd.missing;\n"
            + " location /open/ { auth_basic off; }\n"
            + " location /var/ { auth_basic_user_file " + root + "/$arg_f; }\n"
            + " location /any/ { satisfy any; allow unix:; deny all; }\n"
            + " location /dir/ { auth_basic_user_file " + root + "; }");
        assertEquals(403, get("/", "plain", "secret").status());
        assertTrue(f.log().contains("htpasswd.missing\" failed (2: No such file or directory)"), f.log());
        assertEquals(404, get("/open/", null, null).status());
        assertNull(get("/open/", null, null).header("WWW-Authenticate"));
        assertEquals(404, get("/var/?f=htpasswd", "plain", "secret").status());
        assertEquals(500, get("/dir/", "plain", "secret").status());
        assertTrue(f.log().contains("[crit]"), f.log());
        assertTrue(f.log().contains("pread() \"" + root + "\" failed (21: Is a directory)"), f.log());
        Responses.Response any = get("/any/", null, null);
        assertEquals(404, any.status());
        assertNull(any.header("WWW-Authenticate"));
    }
}
