package jinx.http.internal.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.internal.cycle.KernelCycle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The core directives with handlers of their own: {@code root}/{@code alias}, {@code types} and
 * {@code include mime.types}, {@code error_page}, {@code try_files}, {@code error_log} and the rest, with nginx's
 * error texts.
 */
class CoreDirectivesTest {

    @RegisterExtension
    final HttpConfFixture fx = HttpConfFixture.inTempDir();

    private HttpCoreLocConf location(String http, String uri) throws Exception {
        HttpBlockConf b = fx.http(http);
        LocationMatch m = new LocationMatch();
        Locations.find(b.core().servers.get(0).locConf(), uri, m);
        return m.loc;
    }

    @Test
    void rootAndAlias() throws Exception {
        HttpCoreLocConf l = location("server { root www/; location /i/ { alias /data/w3/images/; } "
                                     + "location ~ ^/u/(.+)$ { alias /data/$1; } }", "/i/x");
        assertEquals("/data/w3/images/", l.root);
        assertEquals(3, l.alias);
        assertNull(l.rootValue);
        l = location("server { root www/; location /i/ { } location ~ ^/u/(.+)$ { alias /data/$1; } }", "/u/x");
        assertEquals(HttpCoreLocConf.ALIAS_REGEX, l.alias);
        assertNotNull(l.rootValue);
        assertEquals("/data/$1", l.rootValue.source());
        l = location("server { root www/; location /i/ { } }", "/i/x");
        assertEquals(fx.prefix + "/www", l.root);
        assertEquals(0, l.alias);
        l = location("server { root /var/$host/html; location /i/ { } }", "/i/x");
        assertEquals("/var/$host/html", l.root);
        assertNotNull(l.rootValue);
    }

    @Test
    void rootAndAliasErrors() throws Exception {
        ConfException e = fx.fail("http {\n server {\n  location /x {\n   root /a;\n   alias /b;\n  }\n }\n}\n");
        assertEquals(fx.at("\"alias\" directive is duplicate, \"root\" directive was specified earlier", 5),
            e.getMessage());
        e = fx.fail("http {\n server {\n  location /x {\n   alias /a;\n   root /b;\n  }\n }\n}\n");
        assertEquals(fx.at("\"root\" directive is duplicate, \"alias\" directive was specified earlier", 5),
            e.getMessage());
        e = fx.fail("http {\n server {\n  root /a;\n  root /b;\n }\n}\n");
        assertEquals(fx.at("\"root\" directive is duplicate", 4), e.getMessage());
        e = fx.fail("http {\n server {\n  root $document_root/x;\n }\n}\n");
        assertEquals(fx.at("the $document_root variable cannot be used in the \"root\" directive", 3),
            e.getMessage());
        e = fx.fail("http {\n server {\n  location /x {\n   alias ${realpath_root};\n  }\n }\n}\n");
        assertEquals(fx.at("the $realpath_root variable cannot be used in the \"alias\" directive", 4),
            e.getMessage());
        e = fx.fail("http {\n server {\n  alias /a;\n }\n}\n");
        assertEquals(fx.at("\"alias\" directive is not allowed here", 3), e.getMessage());
    }

    @Test
    void typesAndIncludeMimeTypes() throws Exception {
        Files.copy(Path.of(System.getProperty("user.dir")).resolve("../conf/mime.types").normalize(),
            Files.createDirectories(fx.prefix.resolve("conf")).resolve("mime.types"));
        HttpCoreLocConf l = location("include mime.types; default_type application/octet-stream; "
                                     + "server { location /a { types { text/x-a a AA; } } location /b { } }", "/b");
        assertEquals("text/html", l.types.get("html"));
        assertEquals("image/svg+xml", l.types.get("svgz"));
        assertEquals("application/octet-stream", l.types.get("iso"));
        assertEquals("application/octet-stream", l.defaultType);
        assertTrue(l.types.size() > 100);
        HttpCoreLocConf a = location("include mime.types; server { location /a { types { text/x-a a AA; } } }",
            "/a");
        assertEquals(2, a.types.size());
        assertEquals("text/x-a", a.types.get("aa"));
    }

    @Test
    void typesInsideTypesIncludedFromTheBlock() throws Exception {
        fx.write("conf/extra.types", "text/x-extra ext;\nimage/x-html html;\n");
        HttpCoreLocConf l = location("types { text/html html; include extra.types; } server { }", "/");
        assertEquals("text/x-extra", l.types.get("ext"));
        assertEquals("image/x-html", l.types.get("html"));
        assertTrue(fx.stderrText().contains("duplicate extension \"html\", content type: \"image/x-html\", "
                                            + "previous content type: \"text/html\""), fx.stderrText());
        ConfException e = fx.fail("http {\n types {\n  include;\n }\n}\n");
        assertEquals(fx.at("invalid number of arguments in \"include\" directive", 3), e.getMessage());
        e = fx.fail("http {\n types {\n  text/html { }\n }\n}\n");
        assertEquals(fx.at("unexpected \"{\"", 3), e.getMessage());
    }

    @Test
    void errorPages() throws Exception {
        HttpCoreLocConf l = location("""
            error_page 404 /404.html;
            server {
                location /x {
                    error_page 500 502 =200 /50x.php?from=x;
                    error_page 403 = @fallback;
                    error_page 497 /https;
                }
                location /y { }
            }
            """, "/x");
        List<ErrorPage> pages = l.errorPages;
        assertEquals(4, pages.size());
        assertEquals(new ErrorPage(500, 200, "/50x.php", null, "from=x"), pages.get(0));
        assertEquals(new ErrorPage(502, 200, "/50x.php", null, "from=x"), pages.get(1));
        assertEquals(new ErrorPage(403, 0, "@fallback", null, null), pages.get(2));
        assertEquals(new ErrorPage(497, 400, "/https", null, null), pages.get(3));
        HttpCoreLocConf y = location("error_page 404 /404.html; server { location /y { } }", "/y");
        assertEquals(List.of(new ErrorPage(404, -1, "/404.html", null, null)), y.errorPages);
        HttpCoreLocConf v = location("server { error_page 404 /e/$uri; location /y { } }", "/y");
        assertNotNull(v.errorPages.get(0).value());
        assertNull(v.errorPages.get(0).uri());
    }

    @Test
    void errorPageErrors() throws Exception {
        ConfException e = fx.fail("http {\n error_page 200 /x;\n}\n");
        assertEquals(fx.at("value \"200\" must be between 300 and 599", 2), e.getMessage());
        e = fx.fail("http {\n error_page 499 /x;\n}\n");
        assertEquals(fx.at("invalid value \"499\"", 2), e.getMessage());
        e = fx.fail("http {\n error_page =404 /x;\n}\n");
        assertEquals(fx.at("invalid value \"=404\"", 2), e.getMessage());
        e = fx.fail("http {\n error_page 404 =x /x;\n}\n");
        assertEquals(fx.at("invalid value \"=x\"", 2), e.getMessage());
        e = fx.fail("http {\n error_page /x;\n}\n");
        assertEquals(fx.at("invalid number of arguments in \"error_page\" directive", 2), e.getMessage());
    }

    @Test
    void tryFiles() throws Exception {
        HttpBlockConf b = fx.http("server { location / { try_files $uri $uri/ /index.php?$args; } "
                                  + "location /c { try_files /a /b =404; } }");
        assertTrue(b.core().tryFiles);
        LocationMatch m = new LocationMatch();
        Locations.find(b.core().servers.get(0).locConf(), "/x", m);
        List<TryFile> tf = m.loc.tryFiles;
        assertEquals(3, tf.size());
        assertEquals(new TryFile("$uri", tf.get(0).value(), false, 0), tf.get(0));
        assertTrue(tf.get(1).testDir());
        assertEquals("$uri", tf.get(1).name());
        assertNotNull(tf.get(2).value());
        Locations.find(b.core().servers.get(0).locConf(), "/c", m);
        assertEquals(404, m.loc.tryFiles.get(2).code());
        assertNull(m.loc.tryFiles.get(0).value());
        ConfException e = fx.fail("http {\n server {\n  try_files /a =abc;\n }\n}\n");
        assertEquals(fx.at("invalid code \"=abc\"", 3), e.getMessage());
        e = fx.fail("http {\n server {\n  try_files /a /b;\n  try_files /a /b;\n }\n}\n");
        assertEquals(fx.at("\"try_files\" directive is duplicate", 4), e.getMessage());
        // try_files is not inherited
        HttpCoreLocConf inner = location("server { try_files /a /b; location /q { } }", "/q");
        assertNull(inner.tryFiles);
    }

    @Test
    void errorLogsPerLevel() throws Exception {
        Files.createDirectories(fx.prefix.resolve("logs"));
        KernelCycle c = fx.build("""
            http {
                error_log logs/http.log warn;
                server {
                    listen 8080;
                    location /own {
                        error_log logs/own.log debug;
                        error_log stderr;
                    }
                    location /inherits { }
                }
            }
            """);
        HttpBlockConf b = HttpConfFixture.block(c);
        LocationMatch m = new LocationMatch();
        HttpCoreSrvConf s = b.core().servers.get(0);
        Locations.find(s.locConf(), "/own", m);
        HttpCoreLocConf own = m.loc;
        assertEquals(List.of(new ErrorLog.Target(fx.prefix.resolve("logs/own.log"), LogLevel.DEBUG),
            new ErrorLog.Target(null, LogLevel.ERROR)), own.errorLogTargets);
        assertNotNull(own.errorLog);
        Locations.find(s.locConf(), "/inherits", m);
        assertSame(s.locConf().errorLog, m.loc.errorLog);
        assertTrue(Files.exists(fx.prefix.resolve("logs/http.log")));
        assertSame(s.locConf().errorLog, c.listening().get(0).log);
        own.errorLog.close();
        s.locConf().errorLog.close();
        ConfException e = fx.fail("http {\n error_log logs/x.log warn info;\n}\n");
        assertEquals(fx.at("duplicate log level \"info\"", 2), e.getMessage());
        e = fx.fail("http {\n error_log syslog:server=x;\n}\n");
        assertEquals(fx.at("\"syslog\" logging is not supported", 2), e.getMessage());
    }

    @Test
    void withoutErrorLogTheCycleLogIsUsed() throws Exception {
        KernelCycle c = fx.build("http { server { listen 8080; } }");
        assertSame(c.log(), HttpConfFixture.block(c).core().servers.get(0).locConf().errorLog);
    }

    @Test
    void otherHandlers() throws Exception {
        HttpCoreLocConf l = location("""
            open_file_cache max=1000 inactive=20s;
            client_body_temp_path /tmp/body 1 2;
            directio 4m;
            aio off;
            gzip_disable msie6 "MSIE [4-6]\\.";
            gzip_proxied expired no-cache;
            keepalive_disable none;
            server { location /x { open_file_cache off; internal; } }
            """, "/x");
        assertEquals(0, l.openFileCacheMax);
        assertEquals(1, l.internal);
        assertEquals(Path.of("/tmp/body"), l.clientBodyTempPath);
        assertEquals(List.of(1, 2), java.util.Arrays.stream(l.clientBodyTempLevels).boxed().toList());
        assertEquals(4 * 1024 * 1024, l.directio);
        assertEquals(1, l.gzipDisableMsie6);
        assertTrue(l.gzipDisable.get(0).matches("Mozilla/4.0 (compatible; msie 6.0)"));
        assertEquals(HttpCoreLocConf.GZIP_PROXIED_EXPIRED | HttpCoreLocConf.GZIP_PROXIED_NO_CACHE,
            l.gzipProxied);
        assertEquals(HttpCoreLocConf.KEEPALIVE_DISABLE_NONE, l.keepaliveDisable);
        HttpCoreLocConf inherits = location("open_file_cache max=10; server { location /x { } }", "/x");
        assertEquals(10, inherits.openFileCacheMax);
        assertEquals(60, inherits.openFileCacheInactive);

        ConfException e = fx.fail("http {\n open_file_cache inactive=10s;\n}\n");
        assertEquals(fx.at("\"open_file_cache\" must have the \"max\" parameter", 2), e.getMessage());
        e = fx.fail("http {\n open_file_cache max=0;\n}\n");
        assertEquals(fx.at("invalid \"open_file_cache\" parameter \"max=0\"", 2), e.getMessage());
        e = fx.fail("http {\n aio on;\n}\n");
        assertEquals(fx.at("\"aio on\" is unsupported on this platform", 2), e.getMessage());
        e = fx.fail("http {\n directio big;\n}\n");
        assertEquals(fx.at("\"directio\" directive invalid value", 2), e.getMessage());
        e = fx.fail("http {\n client_body_temp_path /tmp/b 0;\n}\n");
        assertEquals(fx.at("\"client_body_temp_path\" directive invalid value", 2), e.getMessage());
        e = fx.fail("http {\n server {\n  location / {\n   internal;\n   internal;\n  }\n }\n}\n");
        assertEquals(fx.at("\"internal\" directive is duplicate", 5), e.getMessage());
        fx.build("http { send_lowat 1k; }");
        assertTrue(fx.stderrText().contains("\"send_lowat\" is not supported, ignored"));
    }
}
