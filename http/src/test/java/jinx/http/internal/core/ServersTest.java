package jinx.http.internal.core;

import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.Listening;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.os.SockAddr;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Choosing the server by host name, as nginx's {@code server_name} documentation describes: exact names, leading
 * and trailing wildcards (the longest first), regexes in order with their captures, the default server and the
 * empty name.
 */
class ServersTest {

    @RegisterExtension
    final HttpConfFixture fx = HttpConfFixture.inTempDir();

    private static final String SERVERS = """
        server { listen 127.0.0.1:8080; server_name first; }
        server { listen 127.0.0.1:8080; server_name example.com www.example.com; }
        server { listen 127.0.0.1:8080; server_name *.example.com; }
        server { listen 127.0.0.1:8080; server_name *.sub.example.com; }
        server { listen 127.0.0.1:8080; server_name .example.org; }
        server { listen 127.0.0.1:8080; server_name www.example.*; }
        server { listen 127.0.0.1:8080; server_name www.*; }
        server { listen 127.0.0.1:8080; server_name ~^(?<user>[a-z]+)\\.users\\.net$ ~^(\\w+)\\.regex\\.; }
        server { listen 127.0.0.1:8080 default_server; server_name default; }
        server { listen 127.0.0.1:8080; server_name ""; }
        """;

    private ListeningServers only(KernelCycle cycle) {
        List<Listening> ls = cycle.listening();
        assertEquals(1, ls.size());
        return (ListeningServers) ls.get(0).servers;
    }

    @ParameterizedTest
    @CsvSource({
        "first, first",
        "example.com, example.com",
        "www.example.com, example.com",
        "a.example.com, *.example.com",
        "a.b.example.com, *.example.com",
        "x.sub.example.com, *.sub.example.com",
        "sub.example.com, *.example.com",
        "example.org, example.org",
        "a.b.example.org, example.org",
        "www.example.net, www.example.*",
        "www.example.co.uk, www.example.*",
        "www.other.net, www.*",
        "bob.users.net, ~^(?<user>[a-z]+)\\.users\\.net$",
        "a.regex.x, ~^(?<user>[a-z]+)\\.users\\.net$",
        "nothing.net, default",
        "'', ''"})
    void hostChoosesTheServer(String host, String expected) throws Exception {
        ListeningServers ls = only(fx.build("http {\n" + SERVERS + "}\n"));
        HttpCoreSrvConf s = Servers.find(ls, null, host, new Captures());
        assertEquals(expected, s.serverName);
    }

    @Test
    void regexCapturesGoToTheRequest() throws Exception {
        ListeningServers ls = only(fx.build("http {\n" + SERVERS + "}\n"));
        Captures c = new Captures();
        HttpCoreSrvConf s = Servers.find(ls, null, "bob.users.net", c);
        assertTrue(s.captures);
        assertEquals("bob", c.group(1));
        assertEquals("bob", c.group("user"));
        s = Servers.find(ls, null, "q.regex.x", c);
        assertEquals("q", c.group(1));
        assertNull(c.group("user"));
    }

    @Test
    void withoutHostTheEmptyNameOrTheDefault() throws Exception {
        ListeningServers ls = only(fx.build("http {\n" + SERVERS + "}\n"));
        assertEquals("", Servers.find(ls, null, null, null).serverName);
        KernelCycle c2 = fx.build("http { server { listen 8080; server_name a; } server { listen 8080; "
                                  + "server_name b; } }");
        assertEquals("a", Servers.find(only(c2), null, null, null).serverName);
    }

    @Test
    void theFirstServerIsTheDefaultUnlessOneSaysSo() throws Exception {
        KernelCycle c = fx.build("http { server { listen 8080; server_name a; } server { listen 8080; "
                                 + "server_name b; } }");
        assertEquals("a", Servers.find(only(c), null, "zzz", null).serverName);
        c = fx.build("http { server { listen 8080; server_name a; } server { listen 8080 default_server; "
                     + "server_name b; } }");
        assertEquals("b", Servers.find(only(c), null, "zzz", null).serverName);
    }

    @Test
    void aLoneServerHasNoNamesToChooseFrom() throws Exception {
        KernelCycle c = fx.build("http { server { listen 8080; server_name www.*.com; } }");
        AddrConf a = Servers.addr(only(c), null);
        assertNull(a.virtualNames());
        assertSame(a.defaultServer(), Servers.find(a, "anything", null));
    }

    @Test
    void conflictingNamesAreWarnedAndTheFirstKeepsThem() throws Exception {
        KernelCycle c = fx.build("http {\n server { listen 8080; server_name a; }\n server { listen 8080; "
                                 + "server_name b a; }\n}\n");
        assertTrue(fx.stderrText().contains("conflicting server name \"a\" on 0.0.0.0:8080, ignored"),
            fx.stderrText());
        assertEquals("a", Servers.find(only(c), null, "a", null).serverName);
        fx.build("http {\n server { listen 8080; }\n server { listen 8080; }\n}\n");
        assertTrue(fx.stderrText().contains("conflicting server name \"\" on 0.0.0.0:8080, ignored"));
    }

    @Test
    void serverNameErrors() throws Exception {
        ConfException e = fx.fail("http {\n server {\n  server_name *;\n }\n}\n");
        assertEquals(fx.at("server name \"*\" is invalid", 3), e.getMessage());
        e = fx.fail("http {\n server {\n  server_name .;\n }\n}\n");
        assertEquals(fx.at("server name \".\" is invalid", 3), e.getMessage());
        e = fx.fail("http {\n server {\n  server_name ~;\n }\n}\n");
        assertEquals(fx.at("empty regex in server name \"~\"", 3), e.getMessage());
        e = fx.fail("http {\n server {\n  listen 80;\n  server_name www.*.com;\n }\n server {\n  listen 80;\n }\n}\n");
        assertEquals(fx.at("invalid server name or wildcard \"www.*.com\" on 0.0.0.0:80", 4), e.getMessage());
        fx.build("http {\n server {\n  server_name a/b;\n }\n}\n");
        assertTrue(fx.stderrText().contains("server name \"a/b\" has suspicious symbols in " + fx.confFile()
                                            + ":3"), fx.stderrText());
    }

    @Test
    void namesAreLowerCasedAndTheFirstIsTheServerName() throws Exception {
        HttpBlockConf b = fx.http("server { server_name .Example.COM www.x; }\n"
                                  + "server { server_name ~^A(b)$; }");
        assertEquals("example.com", b.core().servers.get(0).serverName);
        assertEquals(".example.com", b.core().servers.get(0).serverNames.get(0).name());
        assertEquals("~^A(b)$", b.core().servers.get(1).serverName);
        assertTrue(b.core().servers.get(1).serverNames.get(0).regex().caseless());
    }

    @Test
    void specificAddressesServedThroughTheWildcardSocket() throws Exception {
        KernelCycle c = fx.build("""
            http {
                server { listen 8080; server_name wild; }
                server { listen 127.0.0.1:8080; server_name local; }
                server { listen 127.0.0.2:8080 bind; server_name bound; }
            }
            """);
        List<Listening> ls = c.listening();
        assertEquals(2, ls.size());
        assertEquals("127.0.0.2:8080", ls.get(0).addrText());
        assertEquals("0.0.0.0:8080", ls.get(1).addrText());
        ListeningServers wild = (ListeningServers) ls.get(1).servers;
        assertTrue(wild.needsLocalAddress());
        assertEquals("local", Servers.find(wild, SockAddr.parse("127.0.0.1:8080"), "x", null).serverName);
        assertEquals("wild", Servers.find(wild, SockAddr.parse("10.0.0.1:8080"), "x", null).serverName);
        ListeningServers bound = (ListeningServers) ls.get(0).servers;
        assertEquals("bound", Servers.find(bound, null, "x", null).serverName);
    }
}
