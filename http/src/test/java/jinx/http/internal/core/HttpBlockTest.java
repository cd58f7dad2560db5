package jinx.http.internal.core;

import java.util.List;

import jinx.http.spi.Phase;
import jinx.kernel.ConfException;
import jinx.kernel.Rc;
import jinx.kernel.internal.cycle.KernelCycle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code http {}} block: module hooks in order, the conf each directive sets, merging down the tree, the phase
 * engine and the filter chains.
 */
class HttpBlockTest {

    @RegisterExtension
    final HttpConfFixture fx = HttpConfFixture.inTempDir();

    private static <T> T conf(HttpBlockConf block, Object[] confs, String module, Class<T> type) {
        int i = block.cycle().module(module).typeIndex();
        return type.cast(confs[i]);
    }

    @Test
    void withoutHttpBlockNothingIsSet() throws Exception {
        KernelCycle cycle = fx.build("worker_processes 1;\n");
        assertFalse(HttpConfFixture.block(cycle).isSet());
        assertTrue(cycle.listening().isEmpty());
    }

    @Test
    void hooksRunInModuleOrder() throws Exception {
        HttpBlockConf block = fx.http("server { listen 8080; }");
        assertEquals(List.of("preconfiguration a", "preconfiguration b", "postconfiguration a",
            "postconfiguration b"), fx.journal);
        assertTrue(block.mainConf("http_test_a", HttpConfFixture.TestMain.class).initialised);
    }

    @Test
    void directivesSetTheConfOfTheirLevel() throws Exception {
        HttpBlockConf block = fx.http("""
            test_main m;
            test_srv s-http;
            test_loc l-http;
            server {
                listen 8080;
                test_srv s-server;
                location /a/ {
                    test_loc l-a;
                    location /a/b/ {
                    }
                }
                location /c/ {
                    test_size 1k;
                }
            }
            server {
                listen 8081;
            }
            """);
        assertEquals("m", block.mainConf("http_test_a", HttpConfFixture.TestMain.class).value);
        HttpCoreSrvConf first = block.core().servers.get(0);
        HttpCoreSrvConf second = block.core().servers.get(1);
        assertEquals("s-server", conf(block, first.ctx.srvConf, "http_test_a", HttpConfFixture.TestSrv.class).value);
        assertEquals("s-http", conf(block, second.ctx.srvConf, "http_test_a", HttpConfFixture.TestSrv.class).value);
        // a location inherits from its enclosing location, the server and http
        LocationMatch m = new LocationMatch();
        Locations.find(first.locConf(), "/a/b/x", m);
        assertEquals("/a/b/", m.loc.name);
        HttpConfFixture.TestLoc nested = conf(block, m.loc.locConf, "http_test_a", HttpConfFixture.TestLoc.class);
        assertEquals("l-a", nested.value);
        assertEquals(4096L, nested.size);
        Locations.find(first.locConf(), "/c/x", m);
        HttpConfFixture.TestLoc c = conf(block, m.loc.locConf, "http_test_a", HttpConfFixture.TestLoc.class);
        assertEquals("l-http", c.value);
        assertEquals(1024L, c.size);
    }

    @Test
    void coreValuesAreInheritedAndDefaulted() throws Exception {
        HttpBlockConf block = fx.http("""
            sendfile on;
            keepalive_timeout 10s 5;
            client_header_timeout 7s;
            server {
                listen 8080;
                root /srv/www/;
                tcp_nodelay off;
                large_client_header_buffers 8 16k;
                location /x {
                    sendfile off;
                    default_type application/json;
                }
            }
            """);
        HttpCoreSrvConf cscf = block.core().servers.get(0);
        assertEquals(7000, cscf.clientHeaderTimeout);
        assertEquals(1024, cscf.clientHeaderBufferSize);
        assertEquals(8, cscf.largeClientHeaderBuffersNum);
        assertEquals(16384, cscf.largeClientHeaderBuffersSize);
        assertEquals(1, cscf.mergeSlashes);
        assertEquals(0, cscf.underscoresInHeaders);
        assertEquals("", cscf.serverName);
        HttpCoreLocConf server = cscf.locConf();
        assertEquals(1, server.sendfile);
        assertEquals("/srv/www", server.root);
        LocationMatch m = new LocationMatch();
        Locations.find(server, "/x", m);
        HttpCoreLocConf x = m.loc;
        assertEquals(0, x.sendfile);
        assertEquals(0, x.tcpNodelay);
        assertEquals(10_000, x.keepaliveTimeout);
        assertEquals(5, x.keepaliveHeader);
        assertEquals("/srv/www", x.root);
        assertEquals("application/json", x.defaultType);
        assertEquals(1000, x.keepaliveRequests);
        assertEquals(3_600_000, x.keepaliveTime);
        assertEquals(1024 * 1024, x.clientMaxBodySize);
        assertEquals(60_000, x.sendTimeout);
        assertEquals(HttpCoreLocConf.LINGERING_ON, x.lingeringClose);
        assertEquals(HttpCoreLocConf.SERVER_TOKENS_ON, x.serverTokens);
        assertEquals(1, x.absoluteRedirect);
        assertEquals(1, x.portInRedirect);
        assertEquals(0, x.serverNameInRedirect);
        assertEquals(1, x.etag);
        assertEquals(1, x.chunkedTransferEncoding);
        assertEquals(1, x.logNotFound);
        assertEquals(HttpCoreLocConf.IMS_EXACT, x.ifModifiedSince);
        assertEquals(HttpCoreLocConf.KEEPALIVE_DISABLE_MSIE6, x.keepaliveDisable);
        assertEquals(2 * 1024 * 1024, x.sendfileMaxChunk);
        assertEquals("text/html", x.types.get("html"));
        assertEquals(3, x.types.size());
        assertEquals(0, x.internal);
    }

    @Test
    void defaultRootIsHtmlUnderThePrefix() throws Exception {
        HttpBlockConf block = fx.http("server { listen 8080; location / { } }");
        LocationMatch m = new LocationMatch();
        Locations.find(block.core().servers.get(0).locConf(), "/", m);
        assertEquals(fx.prefix + "/html", m.loc.root);
        assertEquals(fx.prefix.resolve("client_body_temp"), m.loc.clientBodyTempPath);
    }

    @Test
    void phaseEngineHasTheCoreEntriesAndHandlersInModuleOrder() throws Exception {
        HttpBlockConf block = fx.http("server { listen 8080; }");
        PhaseEngine pe = block.core().phaseEngine;
        assertEquals(List.of(
            "FIND_CONFIG http_core",
            "REWRITE http_test_a",
            "POST_REWRITE http_core",
            "ACCESS http_test_b",
            "POST_ACCESS http_core",
            "CONTENT http_test_a",
            "CONTENT http_test_b"), pe.describe());
        assertEquals(0, pe.serverRewriteIndex());
        assertEquals(1, pe.locationRewriteIndex());
        assertEquals(2, pe.next(1));
        assertEquals(0, pe.next(2));
        // OK from ACCESS under "satisfy any" skips POST_ACCESS
        assertEquals(5, pe.next(3));
        assertEquals(5, pe.next(4));
        assertEquals(7, pe.next(5));
        assertNull(pe.handler(0));
        assertSame(Phase.POST_ACCESS, pe.phase(4));
        assertEquals(1, pe.logHandlers().size());
        assertEquals(0, pe.findConfigIndex());
    }

    @Test
    void filterChainsRunInModuleOrder() throws Exception {
        HttpBlockConf block = fx.http("server { listen 8080; }");
        HttpCoreMainConf cmcf = block.core();
        fx.journal.clear();
        assertEquals(Rc.OK, cmcf.headerFilter.filter(null));
        assertEquals(Rc.OK, cmcf.bodyFilter.filter(null, null));
        assertEquals(List.of("header a", "header b", "body a"), fx.journal);
        assertEquals(List.of("http_test_a", "http_test_b"), cmcf.headerFilterModules);
        assertEquals(List.of("http_test_a"), cmcf.bodyFilterModules);
    }

    @Test
    void coreDirectivesOutsideTheirContextAreRefused() throws Exception {
        ConfException e = fx.fail("http {\n  server {\n    internal;\n  }\n}\n");
        assertEquals(fx.at("\"internal\" directive is not allowed here", 3), e.getMessage());
        e = fx.fail("http {\n  listen 80;\n}\n");
        assertEquals(fx.at("\"listen\" directive is not allowed here", 2), e.getMessage());
        e = fx.fail("http {\n  sendfile on;\n  sendfile off;\n}\n");
        assertEquals(fx.at("\"sendfile\" directive is duplicate", 3), e.getMessage());
        e = fx.fail("http {\n  sendfile yes;\n}\n");
        assertEquals(fx.at("invalid value \"yes\" in \"sendfile\" directive, it must be \"on\" or \"off\"", 2),
            e.getMessage());
        e = fx.fail("http {\n  keepalive_timeout 10x;\n}\n");
        assertEquals(fx.at("\"keepalive_timeout\" directive invalid value", 2), e.getMessage());
        e = fx.fail("http {\n}\nhttp {\n}\n");
        assertEquals(fx.at("\"http\" directive is duplicate", 3), e.getMessage());
        e = fx.fail("http {\n  server_tokens maybe;\n}\n");
        assertEquals(fx.at("invalid value \"maybe\"", 2), e.getMessage());
        // nginx's ngx_conf_set_bufs_slot() words, checked against Debian's nginx -t
        for (String bufs : new String[] {"0 8k", "4 0", "x 8k", "4 8x"}) {
            e = fx.fail("http {\n  large_client_header_buffers " + bufs + ";\n}\n");
            assertEquals(fx.at("\"large_client_header_buffers\" directive invalid value", 2), e.getMessage());
        }
    }

    /**
     * Issue #36: nginx takes any size_t for a buffer and fails at run time; a size no Java buffer holds is refused
     * at -t (it reset every connection with "capacity < 0", or silently at 4294967296).
     */
    @Test
    void buffersNoJavaBufferHoldsAreRefused() throws Exception {
        for (String directive : new String[] {"client_header_buffer_size 2147483648",
            "client_header_buffer_size 4294967296", "large_client_header_buffers 4 2147483648",
            "client_body_buffer_size 3000000000"}) {
            ConfException e = fx.fail("http {\n  " + directive + ";\n}\n");
            assertEquals(fx.at("value must be between 0 and 2147483647", 2), e.getMessage(), directive);
        }
        HttpCoreSrvConf cscf = fx.http("client_header_buffer_size 2147483647;\nserver {\n listen 80;\n}")
            .core().servers.get(0);
        assertEquals(Integer.MAX_VALUE, cscf.clientHeaderBufferSize);
        ConfException e = fx.fail("http {\n  client_header_buffer_size 4g;\n}\n");
        assertEquals(fx.at("\"client_header_buffer_size\" directive invalid value", 2), e.getMessage());
    }

    /**
     * Issue #36, ConfFuzzTest's finding: a file name with a NUL byte (nginx's C strings end it there) is refused at
     * the directive's line, never a Java exception's text.
     */
    @Test
    void fileNamesTheFileSystemRefusesAreInvalidValues() throws Exception {
        for (String directive : new String[] {"client_body_temp_path", "error_log"}) {
            ConfException e = fx.fail("http {\n  " + directive + " \"logs/a\0b\";\n}\n");
            assertEquals(fx.at("\"" + directive + "\" directive invalid value", 2), e.getMessage(), directive);
        }
    }

    @Test
    void mergeErrorsStandAtTheEndOfTheBlock() throws Exception {
        ConfException e = fx.fail("http {\n  connection_pool_size 16k;\n  server {\n    listen 80;\n  }\n}\n");
        assertEquals(fx.at("the \"large_client_header_buffers\" size must be equal to or greater than "
                           + "\"connection_pool_size\"", 6), e.getMessage());
    }

    @Test
    void nonameLocationsAreMergedButNotInTheTree() throws Exception {
        KernelCycle cycle = fx.build("""
            http {
                error_log stderr warn;
                sendfile on;
                server {
                    listen 8080;
                    test_if { }
                    location /x {
                        limit_rate 1k;
                        test_if { root /if; }
                    }
                }
            }
            """);
        HttpBlockConf block = HttpConfFixture.block(cycle);
        assertEquals(2, fx.ifBlocks.size());
        HttpCoreLocConf serverIf = fx.ifBlocks.get(0);
        HttpCoreLocConf locationIf = fx.ifBlocks.get(1);
        assertTrue(serverIf.noname);
        assertEquals("", serverIf.name);
        assertEquals("/x", locationIf.name);
        assertEquals(1, locationIf.sendfile);
        assertEquals(1024, locationIf.limitRate);
        assertEquals("/if", locationIf.root);
        assertTrue(locationIf.errorLog != null);
        assertTrue(block.allLocConfs().contains(locationIf));
        LocationMatch m = new LocationMatch();
        Locations.find(block.core().servers.get(0).locConf(), "/x", m);
        assertEquals("/x", m.loc.name);
        assertFalse(m.loc.noname);
    }

    @Test
    void includedFilesAreParsedInTheCurrentBlock() throws Exception {
        fx.write("conf/servers/a.conf", "server { listen 8080; server_name a; }\n");
        fx.write("conf/servers/b.conf", "server { listen 8080; server_name b; }\n");
        HttpBlockConf block = fx.http("include servers/*.conf;");
        assertEquals(2, block.core().servers.size());
        assertEquals("a", block.core().servers.get(0).serverName);
    }
}
