package jinx.http.internal.core;

import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.Listening;
import jinx.kernel.internal.cycle.KernelCycle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code listen}: address forms, parameters, the listening sockets they make, and nginx's errors.
 */
class ListenTest {

    @RegisterExtension
    final HttpConfFixture fx = HttpConfFixture.inTempDir();

    private List<Listening> listening(String listen) throws Exception {
        KernelCycle c = fx.build("http {\n server {\n  listen " + listen + ";\n }\n}\n");
        return c.listening();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "8080 | 0.0.0.0:8080",
        "*:8080 | 0.0.0.0:8080",
        "127.0.0.1:8080 | 127.0.0.1:8080",
        "127.0.0.1 | 127.0.0.1:80",
        "[::1]:8080 | [::1]:8080",
        "[::]:8080 | [::]:8080",
        "unix:/tmp/jinx-test.sock | unix:/tmp/jinx-test.sock"})
    void addressForms(String listen, String text) throws Exception {
        List<Listening> ls = listening(listen);
        assertEquals(1, ls.size());
        assertEquals(text, ls.get(0).addrText());
        assertNotNull(ls.get(0).handler);
        assertTrue(ls.get(0).servers instanceof ListeningServers);
    }

    @Test
    void parametersReachTheSocket() throws Exception {
        Listening ls = listening("127.0.0.1:8080 default_server backlog=100 rcvbuf=16k sndbuf=32k reuseport "
                                 + "deferred so_keepalive=on").get(0);
        assertEquals(100, ls.backlog);
        assertEquals(16384, ls.rcvbuf);
        assertEquals(32768, ls.sndbuf);
        assertTrue(ls.reuseport);
        assertTrue(ls.deferredAccept);
        assertEquals(1, ls.keepalive);
        Listening v6 = listening("[::]:8080 ipv6only=off so_keepalive=off").get(0);
        assertFalse(v6.ipv6only);
        assertEquals(0, v6.keepalive);
        Listening plain = listening("8080").get(0);
        assertEquals(511, plain.backlog);
        assertEquals(-1, plain.keepalive);
        assertEquals(-1, plain.rcvbuf);
        assertTrue(plain.ipv6only);
    }

    @Test
    void soKeepaliveTunables() throws Exception {
        KernelCycle c = fx.build("http { server { listen 8080 so_keepalive=30m::10; } }");
        HttpCoreSrvConf s = HttpConfFixture.block(c).core().servers.get(0);
        ListenOpt o = s.listens.get(0);
        assertEquals(1800, o.tcpKeepidle);
        assertEquals(0, o.tcpKeepintvl);
        assertEquals(10, o.tcpKeepcnt);
        assertEquals(1, o.soKeepalive);
    }

    @Test
    void aServerWithoutListenListensOnTheDefaultPort() throws Exception {
        KernelCycle c = fx.build("http { server { } }");
        String port = jinx.kernel.os.Syscalls.geteuid() == 0 ? "80" : "8000";
        assertEquals("0.0.0.0:" + port, c.listening().get(0).addrText());
    }

    @Test
    void serversOnOnePortShareASocket() throws Exception {
        KernelCycle c = fx.build("""
            http {
                server { listen 8080; server_name a; }
                server { listen 8080; server_name b; }
                server { listen 8081; server_name c; }
                server { listen [::]:8080; server_name d; }
            }
            """);
        List<Listening> ls = c.listening();
        assertEquals(List.of("0.0.0.0:8080", "0.0.0.0:8081", "[::]:8080"),
            ls.stream().map(Listening::addrText).toList());
        ListeningServers s = (ListeningServers) ls.get(0).servers;
        assertEquals(1, s.addrs().size());
        assertEquals("a", s.addrs().get(0).defaultServer().serverName);
    }

    @Test
    void listenErrors() throws Exception {
        ConfException e = fx.fail("http {\n server {\n  listen 8080;\n  listen 8080;\n }\n}\n");
        assertEquals(fx.at("a duplicate listen 0.0.0.0:8080", 4), e.getMessage());
        e = fx.fail("http {\n server {\n  listen 127.0.0.1:8080;\n  listen 127.0.0.1:8080;\n }\n}\n");
        assertEquals(fx.at("a duplicate listen 127.0.0.1:8080", 4), e.getMessage());
        e = fx.fail("http {\n server {\n  listen 8080 default_server;\n }\n server {\n  listen 8080 default;\n }\n}\n");
        assertEquals(fx.at("a duplicate default server for 0.0.0.0:8080", 6), e.getMessage());
        e = fx.fail("http {\n server {\n  listen 8080 backlog=5;\n }\n server {\n  listen 8080 rcvbuf=1k;\n }\n}\n");
        assertEquals(fx.at("duplicate listen options for 0.0.0.0:8080", 6), e.getMessage());
        e = fx.fail("http {\n server {\n  listen 8080 foo;\n }\n}\n");
        assertEquals(fx.at("invalid parameter \"foo\"", 3), e.getMessage());
        e = fx.fail("http {\n server {\n  listen 127.0.0.1:99999;\n }\n}\n");
        assertEquals(fx.at("invalid port in \"127.0.0.1:99999\" of the \"listen\" directive", 3), e.getMessage());
        e = fx.fail("http {\n server {\n  listen 8080 backlog=x;\n }\n}\n");
        assertEquals(fx.at("invalid backlog \"backlog=x\"", 3), e.getMessage());
        e = fx.fail("http {\n server {\n  listen 8080 rcvbuf=x;\n }\n}\n");
        assertEquals(fx.at("invalid rcvbuf \"rcvbuf=x\"", 3), e.getMessage());
        e = fx.fail("http {\n server {\n  listen 8080 ssl;\n }\n}\n");
        assertEquals(fx.at("the \"ssl\" parameter requires ngx_http_ssl_module", 3), e.getMessage());
        e = fx.fail("http {\n server {\n  listen [::]:8080 ipv6only=ox;\n }\n}\n");
        assertEquals(fx.at("invalid ipv6only flags \"ox\"", 3), e.getMessage());
        e = fx.fail("http {\n server {\n  listen 8080 so_keepalive=x;\n }\n}\n");
        assertEquals(fx.at("invalid so_keepalive value: \"x\"", 3), e.getMessage());
    }

    @Test
    void defaultServerMayComeAfterOtherServers() throws Exception {
        KernelCycle c = fx.build("http { server { listen 8080; server_name a; } server { listen 8080 "
                                 + "default_server backlog=10; server_name b; } }");
        Listening ls = c.listening().get(0);
        assertEquals(10, ls.backlog);
        assertEquals("b", ((ListeningServers) ls.servers).addrs().get(0).defaultServer().serverName);
    }
}
