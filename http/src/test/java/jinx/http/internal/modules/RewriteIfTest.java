package jinx.http.internal.modules;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static jinx.http.internal.modules.StaticModuleTest.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.Responses;

/**
 * The rewrite module's {@code if}: every condition nginx has, captures, the directives of the module inside the
 * block, the block's own location confs, {@code if} in a server, and the configuration errors.
 */
class RewriteIfTest {

    @TempDir
    Path root;

    private EngineFixture f;

    void start(String server) throws Exception {
        Files.writeString(root.resolve("file.txt"), "file\n");
        Files.createDirectories(root.resolve("dir"));
        Path exe = root.resolve("run.sh");
        Files.writeString(exe, "#!/bin/sh\n");
        Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwxr-xr-x"));
        f = EngineFixture.modules("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n root " + root + ";\n"
            + " rewrite_log on;\n" + server + "\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private String body(String uri) throws Exception {
        return f.get(get(uri)).body();
    }

    @Test
    @Timeout(20)
    void variableConditionIsFalseWhenEmptyOrZero() throws Exception {
        start("location / { if ($arg_a) { return 200 yes; } return 200 no; }");
        assertEquals("yes", body("/?a=1"));
        assertEquals("yes", body("/?a=00"));
        assertEquals("no", body("/?a=0"));
        assertEquals("no", body("/?a="));
        assertEquals("no", body("/"));
    }

    @Test
    @Timeout(20)
    void comparisons() throws Exception {
        start("location /eq { if ($arg_a = \"x-$arg_b\") { return 200 eq; } return 200 ne; }\n"
            + " location /ne { if ($arg_a != abc) { return 200 ne; } return 200 eq; }");
        assertEquals("eq", body("/eq?a=x-1&b=1"));
        assertEquals("ne", body("/eq?a=X"));
        assertEquals("eq", body("/ne?a=abc"));
        assertEquals("ne", body("/ne?a=ABC"));
    }

    @Test
    @Timeout(20)
    void regexConditionsAndCaptures() throws Exception {
        start("location /c { if ($uri ~ ^/c/(?<word>[a-z]+)/(\\d+)$) { return 200 \"$word $2\"; } return 200 none; }\n"
            + " location /i { if ($uri ~* ^/I/(.+)$) { return 200 \"ci $1\"; } return 200 none; }\n"
            + " location /n { if ($uri !~ ^/n/ok) { return 403; } return 200 ok; }\n"
            + " location /m { if ($http_x_a !~* ^YES$) { return 403; } return 200 ok; }");
        assertEquals("abc 42", body("/c/abc/42"));
        assertEquals("none", body("/c/ABC/42"));
        assertEquals("ci x", body("/i/x"));
        assertEquals(403, f.get(get("/n/bad")).status());
        assertEquals("ok", body("/n/ok"));
        assertEquals(403, f.get(get("/m")).status());
        assertEquals("ok", f.get("GET /m HTTP/1.1\r\nHost: localhost\r\nX-A: yes\r\nConnection: close\r\n\r\n")
            .body());
        assertTrue(f.log().contains("\"^/c/(?<word>[a-z]+)/(\\d+)$\" matches \"/c/abc/42\""), f.log());
    }

    @Test
    @Timeout(20)
    void fileTests() throws Exception {
        start("location /t/ {\n"
            + "  if (-f $document_root/$arg_p) { return 200 f; }\n"
            + "  if (-d $document_root/$arg_p) { return 200 d; }\n"
            + "  return 200 none;\n }\n"
            + " location /e { if (-e $document_root/$arg_p) { return 200 e; } return 200 none; }\n"
            + " location /x { if (-x $document_root/$arg_p) { return 200 x; } return 200 none; }\n"
            + " location /nf { if (!-f $document_root/$arg_p) { return 200 notf; } return 200 f; }\n"
            + " location /nd { if (!-d $document_root/$arg_p) { return 200 notd; } return 200 d; }\n"
            + " location /ne { if (!-e $document_root/$arg_p) { return 200 note; } return 200 e; }\n"
            + " location /nx { if (!-x $document_root/$arg_p) { return 200 notx; } return 200 x; }");
        assertEquals("f", body("/t/?p=file.txt"));
        assertEquals("d", body("/t/?p=dir"));
        assertEquals("none", body("/t/?p=missing"));
        assertEquals("none", body("/t/?p=file.txt/below"));
        assertEquals("e", body("/e?p=dir"));
        assertEquals("none", body("/e?p=missing"));
        assertEquals("x", body("/x?p=run.sh"));
        assertEquals("none", body("/x?p=file.txt"));
        assertEquals("notf", body("/nf?p=dir"));
        assertEquals("f", body("/nf?p=file.txt"));
        assertEquals("notd", body("/nd?p=missing"));
        assertEquals("d", body("/nd?p=dir"));
        assertEquals("note", body("/ne?p=missing"));
        assertEquals("e", body("/ne?p=file.txt"));
        assertEquals("notx", body("/nx?p=file.txt"));
        assertEquals("x", body("/nx?p=run.sh"));
    }

    @Test
    @Timeout(20)
    void blockDirectivesAndItsOwnLocationConf() throws Exception {
        start("location /file.txt {\n"
            + "  if ($arg_h) { add_header X-If yes; }\n"
            + "  if ($arg_s) { set $v \"set $arg_s\"; return 200 $v; }\n"
            + "  if ($arg_r) { rewrite ^ /dir/ break; }\n"
            + "  if ($arg_b) { break; }\n"
            + "  if ($arg_b) { return 500; }\n"
            + " }");
        Responses.Response r = f.get(get("/file.txt?h=1"));
        assertEquals("file\n", r.body());
        assertEquals("yes", r.header("X-If"));
        assertNull(f.get(get("/file.txt")).header("X-If"));
        assertEquals("set 7", body("/file.txt?s=7"));
        assertEquals(200, f.get(get("/file.txt?b=1")).status());
        assertEquals(403, f.get(get("/file.txt?r=1")).status());
    }

    @Test
    @Timeout(20)
    void serverIfRunsInServerRewrite() throws Exception {
        start("if ($http_x_block) { return 403; }\n if ($arg_go) { rewrite ^ /file.txt last; }\n"
            + " location / { return 200 loc; }");
        assertEquals(403, f.get("GET / HTTP/1.1\r\nHost: localhost\r\nX-Block: 1\r\nConnection: close\r\n\r\n")
            .status());
        assertEquals("loc", body("/"));
        assertEquals("loc", body("/x?go=1"));
    }

    @Test
    void configurationErrors() {
        assertRefused("location / { if $a { } }", "invalid condition \"$a\"");
        assertRefused("location / { if ($arg_a { } }", "invalid condition \"$arg_a\"");
        assertRefused("location / { if ($arg_a == b) { } }", "unexpected \"==\" in condition");
        assertRefused("location / { if ($arg_a = b c) { } }", "invalid condition \"$arg_a\"");
        assertRefused("location / { if (-q /x) { } }", "invalid condition \"-q\"");
        assertRefused("location / { if (-f) { } }", "invalid condition \"-f\"");
        assertRefused("location / { if (abc) { } }", "invalid condition \"abc\"");
        assertRefused("location / { if ($nosuch) { } }", "unknown \"nosuch\" variable");
        assertRefused("location / { if ($arg_a ~ \"(\") { } }", "regex");
        assertRefused("location / { if ($arg_a) { if ($arg_b) { } } }", "\"if\" directive is not allowed here");
        assertRefused("if ($arg_a) { root /tmp; }", "\"root\" directive is not allowed here");
    }

    private void assertRefused(String server, String text) {
        Exception e = assertThrows(Exception.class, () -> start(server));
        assertTrue(String.valueOf(e.getMessage()).contains(text), e.getMessage());
    }
}
