package jinx.http.internal.modules;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static jinx.http.internal.modules.StaticModuleTest.get;
import static jinx.http.internal.modules.StaticModuleTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jinx.http.internal.request.EngineFixture;
import jinx.http.internal.request.Responses;

/**
 * The rewrite module: every form of {@code return}, {@code rewrite} with each flag, arguments, captures, {@code set},
 * {@code break}, server against location directives, {@code rewrite_log}, configuration errors.
 */
class RewriteModuleTest {

    @TempDir
    Path root;

    private EngineFixture f;

    void start(String server) throws Exception {
        f = EngineFixture.modules("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n server_tokens off;\n"
            + " root " + root + ";\n" + server + "\n}\n");
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    @Test
    @Timeout(20)
    void returnTextSendsItWithTheDefaultType() throws Exception {
        start("location /t { return 200 \"hello $uri\"; }");
        assertEquals("HTTP/1.1 200 OK\r\n"
            + "Server: jinx\r\n"
            + "Date: X\r\n"
            + "Content-Type: text/plain\r\n"
            + "Content-Length: 11\r\n"
            + "Connection: close\r\n"
            + "\r\n"
            + "hello /text", f.get(get("/text")).masked());
    }

    @Test
    @Timeout(20)
    void returnTextTypedByExtension() throws Exception {
        start("location /x { return 200 '<b>x</b>'; }");
        assertEquals("text/html", f.get(get("/x.html")).header("Content-Type"));
    }

    @Test
    @Timeout(20)
    void returnErrorCodeSendsItsPage() throws Exception {
        start("location /gone { return 410; }\n location /teapot { return 404 \"not here\\n\"; }");
        Responses.Response r = f.get(get("/gone"));
        assertEquals("HTTP/1.1 410 Gone", r.statusLine());
        assertTrue(r.body().contains("<title>410 Gone</title>"), r.body());
        r = f.get(get("/teapot"));
        assertEquals("HTTP/1.1 404 Not Found", r.statusLine());
        assertEquals("not here\n", r.body());
        assertEquals("text/plain", r.header("Content-Type"));
    }

    @Test
    @Timeout(20)
    void returnRedirects() throws Exception {
        start("location /a { return 301 /b$is_args$args; }\n"
            + " location /c { return http://example.com/c; }\n"
            + " location /d { return 307 https://$host$request_uri; }\n"
            + " location /e { return 308 /e2; }");
        Responses.Response r = f.get(get("/a?x=1"));
        assertEquals("HTTP/1.1 301 Moved Permanently", r.statusLine());
        assertEquals("http://localhost:8080/b?x=1", r.header("Location"));
        r = f.get(get("/c"));
        assertEquals("HTTP/1.1 302 Moved Temporarily", r.statusLine());
        assertEquals("http://example.com/c", r.header("Location"));
        r = f.get(get("/d?q"));
        assertEquals(307, r.status());
        assertEquals("https://localhost/d?q", r.header("Location"));
        r = f.get(get("/e"));
        assertEquals(308, r.status());
        assertEquals("http://localhost:8080/e2", r.header("Location"));
    }

    @Test
    @Timeout(20)
    void returnNoContent() throws Exception {
        start("location /n { return 204; }");
        Responses.Response r = f.get(get("/n"));
        assertEquals("HTTP/1.1 204 No Content", r.statusLine());
        assertEquals("", r.body());
    }

    @Test
    @Timeout(20)
    void rewriteLastFindsTheLocationAgain() throws Exception {
        start("location /old/ { rewrite ^/old/(.*)$ /new/$1 last; return 500; }\n"
            + " location /new/ { return 200 \"new uri=$uri args=$args\"; }");
        Responses.Response r = f.get(get("/old/page?a=1"));
        assertEquals(200, r.status());
        assertEquals("new uri=/new/page args=a=1", r.body());
    }

    @Test
    @Timeout(20)
    void rewriteBreakStaysInTheLocation() throws Exception {
        Files.createDirectories(root.resolve("files"));
        write(root.resolve("files/x.txt"), "file x");
        start("location /b/ { rewrite ^/b/(.*)$ /files/$1 break; return 500; }\n"
            + " location /files/ { return 403; }");
        Responses.Response r = f.get(get("/b/x.txt"));
        assertEquals(200, r.status());
        assertEquals("file x", r.body());
    }

    @Test
    @Timeout(20)
    void rewriteRedirectAndPermanent() throws Exception {
        start("location /r/ { rewrite ^/r/(.*)$ /to/$1 redirect; }\n"
            + " location /p/ { rewrite ^/p/(.*)$ /to/$1 permanent; }\n"
            + " location /u/ { rewrite ^ http://example.com/u; }\n"
            + " location /q/ { rewrite ^/q/(.*)$ /to?x=$1 redirect; }");
        Responses.Response r = f.get(get("/r/a?k=v"));
        assertEquals("HTTP/1.1 302 Moved Temporarily", r.statusLine());
        assertEquals("http://localhost:8080/to/a?k=v", r.header("Location"));
        r = f.get(get("/p/a"));
        assertEquals("HTTP/1.1 301 Moved Permanently", r.statusLine());
        assertEquals("http://localhost:8080/to/a", r.header("Location"));
        r = f.get(get("/u/"));
        assertEquals(302, r.status());
        assertEquals("http://example.com/u", r.header("Location"));
        r = f.get(get("/q/b?k=v"));
        assertEquals("http://localhost:8080/to?x=b&k=v", r.header("Location"));
    }

    @Test
    @Timeout(20)
    void encodedCapturesStayEncodedInRedirects() throws Exception {
        start("location /r/ { rewrite ^/r/(.*)$ /to/$1 redirect; }");
        Responses.Response r = f.get(get("/r/a%20b%2Fc"));
        assertEquals("http://localhost:8080/to/a%20b/c", r.header("Location"));
    }

    @Test
    @Timeout(20)
    void rewriteArguments() throws Exception {
        start("location /q/ { rewrite ^/q/(.*)$ /echo?p=$1 last; }\n"
            + " location /drop/ { rewrite ^ /echo? last; }\n"
            + " location /keep/ { rewrite ^ /echo last; }\n"
            + " location = /echo { return 200 \"args=$args\"; }");
        assertEquals("args=p=z&a=1", f.get(get("/q/z?a=1")).body());
        assertEquals("args=", f.get(get("/drop/?a=1")).body());
        assertEquals("args=a=1", f.get(get("/keep/?a=1")).body());
    }

    @Test
    @Timeout(20)
    void rewriteWithoutFlagGoesOn() throws Exception {
        start("location /s/ { rewrite ^/s/(.*)$ /t/$1; rewrite ^/t/(.*)$ /u/$1; return 200 $uri; }");
        assertEquals("/u/x", f.get(get("/s/x")).body());
    }

    @Test
    @Timeout(20)
    void serverRewriteRunsBeforeTheLocation() throws Exception {
        start("rewrite ^/srv$ /target;\n set $where server;\n"
            + " location = /target { return 200 \"target $where\"; }\n"
            + " location = /srv { return 500; }");
        assertEquals("target server", f.get(get("/srv")).body());
    }

    @Test
    @Timeout(20)
    void locationDoesNotInheritTheServersDirectives() throws Exception {
        // the server's set runs in SERVER_REWRITE for every request; a location's own directives run after it
        start("set $v server;\n location /l { set $v location; return 200 $v; }\n location /m { return 200 $v; }");
        assertEquals("location", f.get(get("/l")).body());
        assertEquals("server", f.get(get("/m")).body());
    }

    @Test
    @Timeout(20)
    void setAndUninitializedVariables() throws Exception {
        start("location /a { set $who \"world $arg_x\"; return 200 \"hello $who\"; }\n"
            + " location /b { return 200 \"[$who]\"; }\n"
            + " location /c { set $args y=2; return 200 $args; }");
        assertEquals("hello world 1", f.get(get("/a?x=1")).body());
        assertEquals("[]", f.get(get("/b")).body());
        assertTrue(f.log().contains("[warn]"), f.log());
        assertTrue(f.log().contains("using uninitialized \"who\" variable"), f.log());
        assertEquals("y=2", f.get(get("/c?x=1")).body());
    }

    @Test
    @Timeout(20)
    void breakStopsTheDirectives() throws Exception {
        write(root.resolve("brk"), "static");
        start("location /brk { set $a 1; break; return 500; }");
        Responses.Response r = f.get(get("/brk"));
        assertEquals(200, r.status());
        assertEquals("static", r.body());
    }

    @Test
    @Timeout(20)
    void rewriteLogWritesNotices() throws Exception {
        start("rewrite_log on;\n location /old/ { rewrite ^/old/(.*)$ /new/$1 last; }\n"
            + " location /new/ { rewrite ^/nomatch /x; return 200 ok; }");
        assertEquals("ok", f.get(get("/old/x")).body());
        String log = f.log();
        assertTrue(log.contains("[notice]"), log);
        assertTrue(log.contains("\"^/old/(.*)$\" matches \"/old/x\""), log);
        assertTrue(log.contains("rewritten data: \"/new/x\", args: \"\""), log);
        assertTrue(log.contains("\"^/nomatch\" does not match \"/new/x\""), log);
    }

    @Test
    @Timeout(20)
    void rewriteLoopIs500() throws Exception {
        start("location /loop { rewrite ^ /loop last; }");
        assertEquals(500, f.get(get("/loop")).status());
        assertTrue(f.log().contains("rewrite or internal redirection cycle"), f.log());
    }

    @Test
    @Timeout(20)
    void noLocationMatchedRunsServerDirectivesOnce() throws Exception {
        f = EngineFixture.modules("server {\n listen 127.0.0.1:8080;\n server_name localhost;\n"
            + " rewrite_log on;\n rewrite ^/one$ /two;\n location /x { return 204; }\n}\n");
        Responses.Response r = f.get(get("/one"));
        assertEquals(404, r.status());
        assertNull(r.header("Location"));
        assertEquals(1, f.log().split("\"\\^/one\\$\" matches").length - 1, f.log());
    }

    @Test
    @Timeout(20)
    void configurationErrors() {
        assertRefused("location /a { return abc; }", "invalid return code \"abc\"");
        assertRefused("location /a { return 1000; }", "invalid return code \"1000\"");
        assertRefused("location /a { rewrite ^ /x bogus; }", "invalid parameter \"bogus\"");
        assertRefused("location /a { set who x; }", "invalid variable name \"who\"");
        assertRefused("location /a { set $uri x; }", "the duplicate \"uri\" variable");
        assertRefused("location /a { rewrite ^ /$nosuch; }", "unknown \"nosuch\" variable");
        assertRefused("location /a { rewrite ^ /${x; }", "the closing bracket in \"x\" variable is missing");
        assertFalse(false);
    }

    private void assertRefused(String server, String text) {
        Exception e = assertThrows(Exception.class, () -> start(server));
        assertTrue(String.valueOf(e.getMessage()).contains(text), e.getMessage());
    }
}
