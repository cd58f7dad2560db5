package jinx.http.internal.request;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.http.ClientConnection;
import jinx.http.spi.ConnectionTakeover;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.ConfException;
import jinx.kernel.Embedded;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The seam a module takes a connection over with before its first request ({@code ConnectionTakeover},
 * {@code ClientConnection}, as the TLS module uses it): the listen parameter is accepted only when registered, the
 * takeover runs for that address alone, a connection handed back secured has {@code $https} and {@code $scheme},
 * one handed back plain gets nginx's 497, a name chooses the connection's server, and
 * the default server of the address is checked once the configuration is read.
 */
@Timeout(30)
class ConnectionTakeoverTest {

    @TempDir
    Path prefix;

    /** A module registering the listen parameter {@code probe} with a takeover the test gives. */
    static final class TakeoverModule implements JinxModule, HttpModule {
        static Consumer<ClientConnection> takeover = c -> c.readRequest(true);
        static List<String> checked = new ArrayList<>();

        @Override
        public String name() {
            return "http_takeover_probe";
        }

        @Override
        public ModuleType type() {
            return HttpCtx.HTTP;
        }

        @Override
        public ApiVersion builtFor() {
            return ApiVersion.CURRENT;
        }

        @Override
        public List<Directive<?>> directives() {
            return List.of();
        }

        @Override
        public Object context() {
            return this;
        }

        @Override
        public void preconfiguration(HttpConfig cf) throws ConfException {
            cf.addListenParameter("probe", new ConnectionTakeover() {
                @Override
                public void takeOver(ClientConnection c) {
                    takeover.accept(c);
                }

                @Override
                public void checkDefaultServer(Object[] srvConfs, String file, int line) {
                    checked.add(file.substring(file.lastIndexOf('/') + 1) + ":" + line);
                }
            });
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private Embedded start(String servers, boolean withModule) throws Exception {
        Files.createDirectories(prefix.resolve("logs"));
        Path conf = prefix.resolve("jinx.conf");
        Files.writeString(conf, "master_process off;\nerror_log stderr info;\nevents { worker_connections 64; }\n"
            + "http {\naccess_log off;\n" + servers + "\n}\n");
        Embedded.Builder b = Embedded.builder(prefix).confFile(conf)
            .stderr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.ISO_8859_1));
        if (withModule) {
            b.module(TakeoverModule::new);
        }
        Embedded e = b.build();
        e.start();
        return e;
    }

    private static String exchange(int port, String request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static String servers(int port, int plain) {
        return "server { listen 127.0.0.1:" + port + " probe; server_name a.example;\n"
            + "location / { return 200 \"a $https|$scheme\"; } }\n"
            + "server { listen 127.0.0.1:" + port + "; server_name b.example;\n"
            + "location / { return 200 \"b $https|$scheme\"; } }\n"
            + "server { listen 127.0.0.1:" + plain + "; location / { return 200 \"plain $https|$scheme\"; } }\n";
    }

    @Test
    void aSecuredConnectionHasHttpsAndOtherAddressesAreUntouched() throws Exception {
        int port = freePort();
        int plain = freePort();
        TakeoverModule.takeover = c -> c.readRequest(true);
        TakeoverModule.checked.clear();
        try (Embedded e = start(servers(port, plain), true)) {
            assertEquals(List.of("jinx.conf:6"), TakeoverModule.checked);
            String r = exchange(port, "GET / HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n");
            assertTrue(r.startsWith("HTTP/1.1 200 OK\r\n") && r.endsWith("\r\n\r\na on|https"), r);
            r = exchange(plain, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertTrue(r.endsWith("\r\n\r\nplain |http"), r);
        }
    }

    @Test
    void aConnectionHandedBackPlainGets497() throws Exception {
        int port = freePort();
        TakeoverModule.takeover = c -> c.readRequest(false);
        try (Embedded e = start(servers(port, freePort()), true)) {
            String r = exchange(port, "GET / HTTP/1.1\r\nHost: a.example\r\n\r\n");
            assertTrue(r.startsWith("HTTP/1.1 400 Bad Request\r\n"), r);
            assertTrue(r.contains("Connection: close\r\n"), r);
            assertTrue(r.contains("<center>The plain HTTP request was sent to HTTPS port</center>"), r);
        }
    }

    @Test
    void theNameChoosesTheConnectionsServer() throws Exception {
        int port = freePort();
        List<String> seen = new ArrayList<>();
        TakeoverModule.takeover = c -> {
            seen.add(c.selectServer("B.EXAMPLE.") + " " + c.clientHeaderTimeout());
            seen.add(c.selectServer("none.example") + " " + c.clientHeaderTimeout());
            seen.add(c.selectServer("bad/name") + " " + c.clientHeaderTimeout());
            c.readRequest(true);
        };
        String b = servers(port, freePort()).replace("server_name b.example;", "server_name b.example; "
            + "client_header_timeout 7s;");
        try (Embedded e = start(b, true)) {
            // a request without Host goes to the address's default server, as nginx's ngx_http_set_virtual_server()
            // does on a connection with a server name
            assertTrue(exchange(port, "GET / HTTP/1.0\r\n\r\n").endsWith("\r\n\r\na on|https"));
        }
        // an unknown name chooses the default server (nginx's DECLINED keeps it), an invalid one nothing
        assertEquals(List.of("true 7000", "true 60000", "false 60000"), seen);
    }

    @Test
    void theParameterNeedsItsModule() {
        ConfException e = assertThrows(ConfException.class, () -> start("server { listen 127.0.0.1:1 probe; }",
                                                                           false));
        assertTrue(e.getMessage().startsWith("invalid parameter \"probe\" in "), e.getMessage());
        e = assertThrows(ConfException.class, () -> start("server { listen 127.0.0.1:1 ssl; }", false));
        assertTrue(e.getMessage().startsWith("the \"ssl\" parameter requires ngx_http_ssl_module in "),
                   e.getMessage());
    }
}
