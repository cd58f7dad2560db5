package jinx.http.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.Responses.Response;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code listen}: addresses and ports, UNIX-domain sockets, IPv6, {@code default_server} and the socket options,
 * each shown by a request answered on the socket.
 */
@Tag("slow")
class ListenIT {

    @Test
    @Timeout(30)
    void severalPortsAndDefaultServers() throws Exception {
        int a = Site.freePort();
        int b = Site.freePort();
        try (Site site = Site.create();
             JinxServer s = JinxServer.start(site, """
                 server {
                     listen 127.0.0.1:%A%;
                     listen 127.0.0.1:%B%;
                     server_name one;
                     return 200 "one $server_port\\n";
                 }
                 server {
                     listen 127.0.0.1:%B% default_server;
                     server_name two;
                     return 200 "two $server_port\\n";
                 }
                 """.replace("%A%", Integer.toString(a)).replace("%B%", Integer.toString(b)))) {
            assertEquals("one " + a + "\n", ItSupport.get(a, "unknown", "/").body());
            assertEquals("one " + b + "\n", ItSupport.get(b, "one", "/").body());
            assertEquals("two " + b + "\n", ItSupport.get(b, "two", "/").body());
            // the default server of port B is the one that says so, not the first
            assertEquals("two " + b + "\n", ItSupport.get(b, "unknown", "/").body());
            s.assertNoAlerts();
        }
    }

    @Test
    @Timeout(30)
    void socketOptionsAreAccepted() throws Exception {
        try (Site site = Site.create();
             JinxServer s = JinxServer.start(site, """
                 server {
                     listen 127.0.0.1:0 backlog=16 rcvbuf=64k sndbuf=64k reuseport so_keepalive=30m:10:3 deferred bind;
                     return 200 "options\\n";
                 }
                 """)) {
            assertEquals("options\n", ItSupport.get(s.port(), "x", "/").body());
            s.assertNoAlerts();
        }
    }

    @Test
    @Timeout(30)
    void unixDomainSocket() throws Exception {
        try (Site site = Site.create()) {
            Path sock = site.root().resolve("logs/jinx.sock");
            try (JinxServer s = JinxServer.start(site, "server {\n listen unix:" + sock + ";\n"
                     + " return 200 \"unix $remote_addr $server_addr\\n\";\n}\n");
                 RawClient c = RawClient.unix(sock)) {
                assertEquals("unix:" + sock, s.listening().get(0).addrText());
                String raw = c.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").readAll();
                assertTrue(raw.startsWith("HTTP/1.1 200 OK\r\n"), raw);
                assertTrue(raw.endsWith("\r\n\r\nunix unix: unix:" + sock + "\n"), raw);
                s.assertNoAlerts();
            }
        }
    }

    @Test
    @Timeout(30)
    void ipv6Loopback() throws Exception {
        assumeTrue(ipv6LoopbackWorks(), "no IPv6 loopback here");
        try (Site site = Site.create();
             JinxServer s = JinxServer.start(site, "server {\n listen [::1]:0;\n"
                 + " return 200 \"v6 $remote_addr $server_addr\\n\";\n}\n")) {
            assertTrue(s.listening().get(0).addrText().startsWith("[::1]:"), s.listening().get(0).addrText());
            try (RawClient c = RawClient.connect(new InetSocketAddress(InetAddress.getByName("::1"), s.port()))) {
                Response r = c.send("GET / HTTP/1.1\r\nHost: [::1]\r\n\r\n").response();
                assertEquals("v6 ::1 ::1\n", r.body());
            }
            s.assertNoAlerts();
        }
    }

    private static boolean ipv6LoopbackWorks() {
        try (ServerSocket ss = new ServerSocket()) {
            ss.bind(new InetSocketAddress(InetAddress.getByName("::1"), 0));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
