package jinx.http.internal.modules;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.EngineFixture;

import static jinx.http.internal.modules.StaticModuleTest.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The secure_link module in both forms: base64url MD5 with an expiry, and the older secret word in the URI.
 */
class SecureLinkModuleTest {

    private static final String HTTP = """
        server {
            listen 127.0.0.1:8080;
            location /sl/ {
                secure_link $arg_md5,$arg_e;
                secure_link_md5 "$secure_link_expires$uri key";
                return 200 "[$secure_link][$secure_link_expires]";
            }
            location /nx/ {
                secure_link $arg_md5;
                secure_link_md5 "$uri key";
                return 200 "[$secure_link][$secure_link_expires]";
            }
            location /p/ {
                secure_link_secret w0rd;
                return 200 "[$secure_link]";
            }
        }
        """;

    private EngineFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    static byte[] md5(String s) throws Exception {
        return MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    static String b64url(String s) throws Exception {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(md5(s));
    }

    @Test
    @Timeout(30)
    void md5WithExpiry() throws Exception {
        f = EngineFixture.modules(HTTP);
        String future = "4102444800";
        assertEquals("[1][" + future + "]", f.get(get("/sl/a?md5=" + b64url(future + "/sl/a key") + "&e=" + future))
            .body());
        assertEquals("[0][1000]", f.get(get("/sl/a?md5=" + b64url("1000/sl/a key") + "&e=1000")).body());
        assertEquals("[][1000]", f.get(get("/sl/a?md5=" + b64url("1000/sl/b key") + "&e=1000")).body());
        assertEquals("[][]", f.get(get("/sl/a?md5=" + b64url("/sl/a key") + "&e=x1")).body());
        assertEquals("[][]", f.get(get("/sl/a?md5=" + b64url("/sl/a key") + "&e=0")).body());
        assertEquals("[1][]", f.get(get("/nx/a?md5=" + b64url("/nx/a key"))).body());
        assertEquals("[1][]", f.get(get("/nx/a?md5=" + b64url("/nx/a key") + "==")).body());
        assertEquals("[][]", f.get(get("/nx/a?md5=" + b64url("/nx/a key") + "===")).body());
        assertEquals("[][]", f.get(get("/nx/a?md5=" + Base64.getEncoder().encodeToString(md5("/nx/a key"))
            .replace('-', '+').replace('_', '/').replace("=", "") + "+")).body());
    }

    @Test
    @Timeout(30)
    void secretWord() throws Exception {
        f = EngineFixture.modules(HTTP);
        String hash = HexFormat.of().formatHex(md5("dir/file.txtw0rd"));
        assertEquals("[dir/file.txt]", f.get(get("/p/" + hash + "/dir/file.txt")).body());
        assertEquals("[dir/file.txt]", f.get(get("/p/" + hash.toUpperCase() + "/dir/file.txt")).body());
        assertEquals("[]", f.get(get("/p/" + hash + "/dir/other.txt")).body());
        assertEquals("[]", f.get(get("/p/" + hash + "x/dir/file.txt")).body());
    }

    @Test
    void oldVariableShapes() {
        assertNull(SecureLinkModule.oldVariable("/p", "s"));
        assertNull(SecureLinkModule.oldVariable("/p/0123", "s"));
        assertNull(SecureLinkModule.oldVariable("/p/" + "0".repeat(32) + "/", "s"));
        assertEquals(-1, SecureLinkModule.atotm(""));
        assertEquals(-1, SecureLinkModule.atotm("99999999999999999999"));
        assertEquals(42, SecureLinkModule.atotm("42"));
    }

    @Test
    void configurationErrors() {
        Exception e = assertThrows(Exception.class, () -> EngineFixture.modules("server { listen 127.0.0.1:8080; "
            + "location / { secure_link $arg_a; secure_link_secret x; } }").close());
        assertTrue(e.getMessage().contains("\"secure_link_secret\" cannot be mixed with \"secure_link\" and "
            + "\"secure_link_md5\""), e.getMessage());
        e = assertThrows(Exception.class, () -> EngineFixture.modules("server { listen 127.0.0.1:8080; "
            + "location / { secure_link $arg_a; secure_link $arg_b; } }").close());
        assertTrue(e.getMessage().contains("\"secure_link\" directive is duplicate"), e.getMessage());
        e = assertThrows(Exception.class, () -> EngineFixture.modules("server { listen 127.0.0.1:8080; "
            + "secure_link_secret x; }").close());
        assertTrue(e.getMessage().contains("\"secure_link_secret\" directive is not allowed here"), e.getMessage());
    }
}
