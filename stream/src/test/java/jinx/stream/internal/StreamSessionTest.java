package jinx.stream.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import jinx.kernel.Embedded;
import jinx.kernel.Listening;
import jinx.kernel.MemoryConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sessions without sockets: an in-memory server built from a {@code stream {}} configuration, connections handed
 * to its listening sockets' handler ({@link MemoryConnection#accept}), the loop turned by the test. The phases
 * (access, preaccess's {@code set}, content's {@code return}, the log phase) and the log lines they write.
 */
@Timeout(30)
class StreamSessionTest {

    private Path dir;
    private Embedded server;
    private final ByteArrayOutputStream errors = new ByteArrayOutputStream();

    @BeforeEach
    void setUp() throws Exception {
        dir = Files.createTempDirectory("jinx-stream-session");
        Files.createDirectories(dir.resolve("logs"));
        Path conf = dir.resolve("jinx.conf");
        Files.writeString(conf, """
            master_process off;
            error_log stderr info;
            events { worker_connections 64; }
            stream {
                log_format s '$remote_addr:$remote_port $status $bytes_sent $bytes_received $server_port "$x"';
                access_log logs/access.log s;
                map $remote_addr $who { default other; 192.0.2.7 doc; }
                server { listen 127.0.0.1:1; set $x "$who-$connection"; return "$x $protocol\\n"; }
                server { listen 127.0.0.1:2; deny 192.0.2.0/24; return ok; }
                server { listen 127.0.0.1:3; allow all; return ""; }
            }
            """);
        server = Embedded.builder(dir).confFile(conf).inMemory()
            .stderr(new PrintStream(errors, true, StandardCharsets.ISO_8859_1)).build();
        server.start();
    }

    @AfterEach
    void tearDown() throws Exception {
        server.close();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private Listening listening(int port) {
        for (Listening ls : server.cycle().listening()) {
            if (ls.sockaddr().port() == port) {
                return ls;
            }
        }
        throw new AssertionError("no listening socket on port " + port);
    }

    /** Connects from {@code client}, turns the loop until the server closed, and returns what it sent. */
    private String session(int port, String client) throws Exception {
        MemoryConnection mc = MemoryConnection.accept(server.loop(), listening(port), client);
        for (int i = 0; i < 50 && !mc.closed(); i++) {
            server.turn(10);
        }
        assertTrue(mc.closed(), "the session ended");
        return new String(mc.read(), StandardCharsets.ISO_8859_1);
    }

    private String accessLog() throws Exception {
        return Files.readString(dir.resolve("logs/access.log"), StandardCharsets.ISO_8859_1);
    }

    @Test
    void setMapAndReturnRunInTheirPhases() throws Exception {
        assertEquals("doc-1 TCP\n", session(1, "192.0.2.7:40000"));
        assertEquals("other-2 TCP\n", session(1, "198.51.100.1:40001"));
        assertEquals("192.0.2.7:40000 200 10 0 1 \"doc-1\"\n198.51.100.1:40001 200 12 0 1 \"other-2\"\n",
            accessLog());
        String log = errors.toString(StandardCharsets.ISO_8859_1);
        assertTrue(log.contains("[info] ") && log.contains(": *1 client 192.0.2.7:40000 connected to 127.0.0.1:1"),
            log);
    }

    @Test
    void denyEndsTheSessionWith403() throws Exception {
        assertEquals("", session(2, "192.0.2.9:40000"));
        assertEquals("ok", session(2, "203.0.113.1:40000"));
        assertEquals("192.0.2.9:40000 403 0 0 2 \"-\"\n203.0.113.1:40000 200 2 0 2 \"-\"\n", accessLog());
        String log = errors.toString(StandardCharsets.ISO_8859_1);
        assertTrue(log.contains("[error] ") && log.contains("*1 access forbidden by rule while initializing "
            + "session, client: 192.0.2.9, server: 127.0.0.1:2"), log);
    }

    @Test
    void anEmptyReturnClosesAtOnce() throws Exception {
        assertEquals("", session(3, "unix:"));
        // a UNIX-domain client has no port: $remote_port is empty, as nginx's
        assertEquals("unix:: 200 0 0 3 \"-\"\n", accessLog());
    }
}
