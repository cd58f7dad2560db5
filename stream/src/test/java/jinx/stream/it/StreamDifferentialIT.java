package jinx.stream.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.testkit.DifferentialSite;
import jinx.testkit.UdpBackend;
import jinx.kernel.testsuite.FakeDns;

/**
 * The same {@code stream {}} configuration in Debian's nginx (its dynamic stream module) and in Jinx, in front of
 * the same TCP backends: for every case the bytes the client gets and how the connection ends, the access log line
 * (with the session's and the upstream's variables) and the error log's lines about the session (connected,
 * proxied, disconnected, refused, timed out, forbidden; numbers, times and ephemeral ports masked) must be equal.
 * The report is written to {@code target/stream-differential.txt}.
 */
@Tag("slow")
class StreamDifferentialIT {

    /** The free ports the configuration names, %P0% to %P20%. */
    static final int PORTS = 29;

    static final String STREAM = """
        log_format basic '$remote_addr $protocol $status $bytes_sent $bytes_received "$upstream_addr" '
                         '$upstream_bytes_sent $upstream_bytes_received $server_addr $server_port';
        access_log %LOG% basic;
        upstream echo { server 127.0.0.1:%ECHO%; }
        upstream retry { server 127.0.0.1:%DEAD%; server 127.0.0.1:%ECHO%; }
        upstream dead { server 127.0.0.1:%DEAD%; }
        server { listen 127.0.0.1:%P0%; proxy_pass echo; }
        server { listen 127.0.0.1:%P1%; proxy_pass 127.0.0.1:%ECHO%; proxy_buffer_size 1k;
                 proxy_half_close on; }
        server { listen 127.0.0.1:%P2%; return "hello $remote_addr $protocol $server_port\\n"; }
        server { listen 127.0.0.1:%P3%; deny 127.0.0.1; proxy_pass echo; }
        server { listen 127.0.0.1:%P4%; proxy_pass dead; }
        server { listen 127.0.0.1:%P5%; proxy_pass retry; }
        server { listen 127.0.0.1:%P6%; proxy_pass 127.0.0.1:%LATE%; }
        server { listen 127.0.0.1:%P7%; proxy_pass 127.0.0.1:%LATE%; proxy_half_close on; }
        server { listen 127.0.0.1:%P8%; proxy_pass 127.0.0.1:%SILENT%; proxy_timeout 500ms; }
        server { listen 127.0.0.1:%P9%; allow 127.0.0.1; deny all; return ""; }
        map $remote_addr $who { default remote; 127.0.0.1 local; ~^10\\. ten; }
        map $server_port $which { default other; %P10% ten; }
        server { listen 127.0.0.1:%P10%; set $x "v-$remote_addr"; return "$x $who $which\n"; }
        upstream hashed { hash $remote_addr; server 127.0.0.1:%ECHO%; server 127.0.0.1:%DEAD%; }
        server { listen 127.0.0.1:%P11%; proxy_pass hashed; }
        server { listen 127.0.0.1:%P12%; proxy_pass echo; proxy_protocol on; proxy_half_close on; }
        server { listen 127.0.0.1:%P13%; return $status-$bytes_received; }
        limit_conn_zone $remote_addr zone=addr:64k;
        server { listen 127.0.0.1:%P14%; limit_conn addr 1; proxy_pass 127.0.0.1:%SILENT%; proxy_timeout 5s; }
        map $server_port $target { %P15% echo; %P16% 127.0.0.1:%ECHO%; default localhost:%ECHO%; }
        server { listen 127.0.0.1:%P15%; proxy_pass $target; }
        server { listen 127.0.0.1:%P16%; proxy_pass $target; }
        server { listen 127.0.0.1:%P17%; proxy_pass $target; }
        geo $g1 { default other; 127.0.0.0/8 loopback; 127.0.0.1 exact; 10.0.0.0/8 ten; }
        geo $remote_port $g2 { default none; 127.0.0.0/8 lo; }
        geo $g3 { default none; 127.0.0.0/8 lo8; 127.0.0.0/16 lo16; delete 127.0.0.0/16; }
        split_clients "$remote_addr" $s1 { 50% a; * b; }
        split_clients "abc" $s2 { 33.33% a; 33.33% b; * c; }
        split_clients "client-42" $s3 { 10% a; 45.5% b; 44.5% c; }
        split_clients "x" $s4 { 0.01% a; 99.98% b; }
        server { listen 127.0.0.1:%P18%; return "$g1 $g2 $g3 $s1 $s2 $s3 $s4\n"; }
        server { listen 127.0.0.1:%P19%; proxy_pass echo; proxy_bind 127.0.0.1; }
        server { listen 127.0.0.1:%P20%; proxy_pass echo; proxy_bind $nothing; }
        map $server_port $nothing { default ""; }
        map $server_port $rname { %P21% backend.test; %P22% nx.test; default slow.test; }
        server { listen 127.0.0.1:%P21%; resolver 127.0.0.1:%DNS% ipv6=off; proxy_pass $rname:%ECHO%; }
        server { listen 127.0.0.1:%P22%; resolver 127.0.0.1:%DNS%; proxy_pass $rname:%ECHO%; }
        server { listen 127.0.0.1:%P23%; resolver 127.0.0.1:%DNS% ipv6=off; resolver_timeout 700ms;
                 proxy_pass $rname:%ECHO%; }
        server { listen 127.0.0.1:%P24% proxy_protocol; set $pp "$proxy_protocol_addr:$proxy_protocol_port";
                 return "$pp $proxy_protocol_server_addr:$proxy_protocol_server_port $remote_addr\\n"; }
        server { listen 127.0.0.1:%P25% proxy_protocol; proxy_pass echo; }
        server { listen 127.0.0.1:%P26% proxy_protocol; set_real_ip_from 127.0.0.1;
                 return "$remote_addr:$remote_port $realip_remote_addr:$realip_remote_port\\n"; }
        server { listen 127.0.0.1:%P27% proxy_protocol; set_real_ip_from 10.0.0.0/8;
                 return "$remote_addr $realip_remote_addr\\n"; }
        """;

    /**
     * One case: the port index, the bytes sent, whether the client ends its output, how long quiet means done. A
     * client that ends its output to an echoing upstream without {@code proxy_half_close} races the echo (on
     * either server), so those cases keep their output open and read until quiet.
     */
    record Case(String name, int port, byte[] data, boolean shut, int quietMs, boolean hold) {
        Case(String name, int port, byte[] data, boolean shut, int quietMs) {
            this(name, port, data, shut, quietMs, false);
        }
    }

    static List<Case> cases() {
        byte[] big = new byte[1 << 20];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) ('a' + i % 26);
        }
        return List.of(
            new Case("echo through a group", 0, bytes("ping\n"), false, 700),
            new Case("echo, 1 MB through 1k buffers, half-close", 1, big, true, 5000),
            new Case("return with variables", 2, bytes(""), false, 3000),
            new Case("deny", 3, bytes(""), false, 3000),
            new Case("refused upstream", 4, bytes(""), false, 3000),
            new Case("next upstream after a refusal", 5, bytes("again\n"), false, 700),
            new Case("client ends first, no half-close", 6, bytes("late\n"), true, 3000),
            new Case("client ends first, half-close", 7, bytes("late\n"), true, 3000),
            new Case("proxy_timeout", 8, bytes("quiet"), false, 3000),
            new Case("allow, then empty return", 9, bytes(""), false, 3000),
            new Case("set and map", 10, bytes(""), false, 3000),
            new Case("hash", 11, bytes("h\n"), false, 700),
            new Case("proxy_protocol on", 12, bytes("pp\n"), true, 3000),
            new Case("return of session variables", 13, bytes(""), false, 3000),
            new Case("limit_conn: a second session while one is open", 14, bytes(""), false, 3000, true),
            new Case("proxy_pass $var naming a group", 15, bytes("g\n"), false, 700),
            new Case("proxy_pass $var naming an address", 16, bytes("a\n"), false, 700),
            new Case("proxy_pass $var naming a host, no resolver", 17, bytes(""), false, 3000),
            new Case("geo and split_clients", 18, bytes(""), false, 3000),
            new Case("proxy_bind", 19, bytes("bound\n"), false, 700),
            new Case("proxy_bind to an empty value", 20, bytes("free\n"), false, 700),
            new Case("resolver: a host resolved", 21, bytes("named\n"), false, 700),
            new Case("resolver: host not found", 22, bytes(""), false, 3000),
            new Case("resolver: timed out", 23, bytes(""), false, 3000),
            new Case("PROXY v2: IPv4 with a TLV", 24, v2(0x21, 0x11, v2Inet4(), new byte[] {4, 0, 3, 'x', 'y', 'z'}),
                false, 3000),
            new Case("PROXY v2: IPv6", 24, v2(0x21, 0x21, v2Inet6(), new byte[0]), false, 3000),
            new Case("PROXY v2: LOCAL", 24, v2(0x20, 0x00, new byte[0], new byte[0]), false, 3000),
            new Case("PROXY v2, then data to an upstream", 25, concat(v2(0x21, 0x11, v2Inet4(), new byte[0]),
                bytes("after v2\n")), false, 700),
            new Case("PROXY v2: version 3", 25, v2(0x31, 0x11, v2Inet4(), new byte[0]), false, 3000),
            new Case("PROXY v2: too large", 25, tooLarge(), false, 3000),
            new Case("PROXY v1: broken", 25, bytes("PROXY TCP9 1.2.3.4 5.6.7.8 1 2\r\n"), false, 3000),
            new Case("realip: v1 from a trusted address", 26, bytes("PROXY TCP4 192.0.2.9 198.51.100.7 50001 443\r\n"),
                false, 3000),
            new Case("realip: v2 IPv6 from a trusted address", 26, v2(0x21, 0x21, v2Inet6(), new byte[0]), false,
                3000),
            new Case("realip: an untrusted address", 27, bytes("PROXY TCP4 192.0.2.9 198.51.100.7 50001 443\r\n"),
                false, 3000));
    }

    /** A PROXY protocol v2 header: the signature, version and command, family and transport, the length. */
    static byte[] v2(int versionCommand, int familyTransport, byte[] addrs, byte[] tlvs) {
        int len = addrs.length + tlvs.length;
        byte[] h = {13, 10, 13, 10, 0, 13, 10, 'Q', 'U', 'I', 'T', 10, (byte) versionCommand,
            (byte) familyTransport, (byte) (len >> 8), (byte) len};
        return concat(concat(h, addrs), tlvs);
    }

    /** 192.0.2.1:51000 to 198.51.100.7:443. */
    static byte[] v2Inet4() {
        return new byte[] {(byte) 192, 0, 2, 1, (byte) 198, 51, 100, 7, (byte) (51000 >> 8), (byte) 51000, 1,
            (byte) 187};
    }

    /** [2001:db8::1]:40000 to [::1]:8443. */
    static byte[] v2Inet6() {
        byte[] a = new byte[36];
        a[0] = 0x20;
        a[1] = 0x01;
        a[2] = 0x0d;
        a[3] = (byte) 0xb8;
        a[15] = 1;
        a[31] = 1;
        a[32] = (byte) (40000 >> 8);
        a[33] = (byte) 40000;
        a[34] = (byte) (8443 >> 8);
        a[35] = (byte) 8443;
        return a;
    }

    /** A v2 header that says 5,000 bytes follow, more than nginx reads of a header. */
    static byte[] tooLarge() {
        byte[] h = v2(0x21, 0x11, v2Inet4(), new byte[0]);
        h[14] = (byte) (5000 >> 8);
        h[15] = (byte) 5000;
        return h;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    @Timeout(180)
    void nginxAndJinxRelayAndLogTheSame() throws Exception {
        assumeTrue(DifferentialSite.nginxStreamAvailable(), "Debian's nginx with libnginx-mod-stream is not installed");
        try (Backend echo = new Backend(Backend.Mode.ECHO); Backend late = new Backend(Backend.Mode.LATE);
             Backend silent = new Backend(Backend.Mode.SILENT); FakeDns dns = FakeDns.start(StreamDifferentialIT::dns)) {
            int dead = DifferentialSite.freePort();
            String conf = STREAM.replace("%ECHO%", Integer.toString(echo.port()))
                .replace("%LATE%", Integer.toString(late.port()))
                .replace("%SILENT%", Integer.toString(silent.port()))
                .replace("%DEAD%", Integer.toString(dead))
                .replace("%DNS%", Integer.toString(dns.port()));
            List<String> nginx;
            try (DifferentialSite site = DifferentialSite.nginxStream(conf, PORTS)) {
                nginx = run(site);
            }
            List<String> jinx;
            try (DifferentialSite site = DifferentialSite.jinxStream(conf, PORTS)) {
                jinx = run(site);
            }
            StringBuilder report = new StringBuilder();
            int same = 0;
            for (int i = 0; i < nginx.size(); i++) {
                boolean eq = nginx.get(i).equals(jinx.get(i));
                same += eq ? 1 : 0;
                report.append(eq ? "SAME " : "DIFF ").append(nginx.get(i)).append('\n');
                if (!eq) {
                    report.append("     jinx: ").append(jinx.get(i)).append('\n');
                }
            }
            report.append(same).append(" of ").append(nginx.size()).append(" cases the same\n");
            Path out = Path.of("target/stream-differential.txt");
            Files.createDirectories(out.getParent());
            Files.writeString(out, report);
            System.out.print(report);
            assertEquals(cases().size(), nginx.size());
            // data a client sends before a session is refused would make the close a reset, on either side
            // depending on timing: the refused cases send nothing
            assertEquals(nginx.size(), same, report.toString());
        }
    }

    static final String UDP = """
        log_format basic '$remote_addr $protocol $status $bytes_sent $bytes_received "$upstream_addr" '
                         '$upstream_bytes_sent $upstream_bytes_received $server_port';
        access_log %LOG% basic;
        upstream uecho { server 127.0.0.1:%UECHO%; }
        server { listen 127.0.0.1:%P0%; return ok; }
        server { listen 127.0.0.1:%P1% udp; proxy_pass uecho; proxy_responses 1; }
        server { listen 127.0.0.1:%P2% udp; proxy_pass 127.0.0.1:%UECHO%; proxy_timeout 700ms; }
        server { listen 127.0.0.1:%P3% udp; proxy_pass 127.0.0.1:%USILENT%; proxy_responses 1;
                 proxy_timeout 500ms; }
        server { listen 127.0.0.1:%P4% udp; proxy_pass 127.0.0.1:%UECHO%; proxy_requests 2; proxy_responses 1; }
        server { listen 127.0.0.1:%P5% udp; return "udp $protocol $remote_addr $server_port\n"; }
        server { listen 127.0.0.1:%P6% udp; deny 127.0.0.1; proxy_pass uecho; }
        server { listen 127.0.0.1:%P7% udp; proxy_pass 127.0.0.1:%UDOUBLE%; proxy_responses 2; }
        server { listen 127.0.0.1:%P8% udp; proxy_pass uecho; proxy_protocol on; proxy_responses 1; }
        server { listen 127.0.0.1:%P9% udp reuseport; proxy_pass uecho; proxy_responses 1;
                 proxy_buffer_size 4; }
        """;

    /**
     * {@code error_log} in a server: the session's lines go to the server's file (here the site's "access log"
     * path), not to the main error log, on both servers.
     */
    @Test
    @Timeout(60)
    void serverErrorLogTakesTheSessionLines() throws Exception {
        assumeTrue(DifferentialSite.nginxStreamAvailable(), "Debian's nginx with libnginx-mod-stream is not installed");
        String conf = "server { listen 127.0.0.1:%P0%; return ok; }\n"
            + "server { listen 127.0.0.1:%P1%; error_log %LOG% info; deny 127.0.0.1; return x; }\n";
        List<String> lines = new ArrayList<>();
        for (boolean nginx : new boolean[] {true, false}) {
            try (DifferentialSite site = nginx ? DifferentialSite.nginxStream(conf, PORTS)
                : DifferentialSite.jinxStream(conf, PORTS)) {
                Thread.sleep(300);
                int before = site.errorLog().length();
                site.exchange(1, new byte[0], false, 1000);
                long deadline = System.nanoTime() + 5_000_000_000L;
                while (!site.accessLog().contains("forbidden") && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                String main = site.errorLog().substring(before);
                lines.add(sessionLines(site, site.accessLog()) + " | main log: " + sessionLines(site, main));
            }
        }
        assertEquals(lines.get(0), lines.get(1));
        assertTrue(lines.get(1).contains("access forbidden by rule"), lines.get(1));
    }

    /** One UDP case: the port index, the datagrams sent one by one from one socket. */
    record UdpCase(String name, int port, List<String> datagrams) {
    }

    static List<UdpCase> udpCases() {
        return List.of(
            new UdpCase("udp: one request, one response", 1, List.of("ping")),
            new UdpCase("udp: three datagrams, then proxy_timeout", 2, List.of("a", "bb", "ccc")),
            new UdpCase("udp: no response, 502", 3, List.of("hello?")),
            new UdpCase("udp: proxy_requests 2", 4, List.of("one", "two")),
            new UdpCase("udp: return", 5, List.of("x")),
            new UdpCase("udp: deny", 6, List.of("no")),
            new UdpCase("udp: two responses each", 7, List.of("twice")),
            new UdpCase("udp: proxy_protocol on", 8, List.of("pp")),
            new UdpCase("udp: reuseport, a datagram cut to proxy_buffer_size", 9, List.of("truncated")));
    }

    @Test
    @Timeout(120)
    void nginxAndJinxRelayDatagramsTheSame() throws Exception {
        assumeTrue(DifferentialSite.nginxStreamAvailable(), "Debian's nginx with libnginx-mod-stream is not installed");
        try (UdpBackend echo = new UdpBackend(UdpBackend.Mode.ECHO);
             UdpBackend silent = new UdpBackend(UdpBackend.Mode.SILENT);
             UdpBackend twice = new UdpBackend(UdpBackend.Mode.DOUBLE)) {
            String conf = UDP.replace("%UECHO%", Integer.toString(echo.port()))
                .replace("%USILENT%", Integer.toString(silent.port()))
                .replace("%UDOUBLE%", Integer.toString(twice.port()));
            List<String> nginx;
            try (DifferentialSite site = DifferentialSite.nginxStream(conf, PORTS)) {
                nginx = runUdp(site);
            }
            List<String> jinx;
            try (DifferentialSite site = DifferentialSite.jinxStream(conf, PORTS)) {
                jinx = runUdp(site);
            }
            String report = compare(nginx, jinx, "target/stream-udp-differential.txt");
            assertEquals(udpCases().size(), nginx.size());
            assertEquals(nginx, jinx, report);
        }
    }

    private static List<String> runUdp(DifferentialSite site) throws Exception {
        List<String> out = new ArrayList<>();
        Thread.sleep(500);
        for (UdpCase c : udpCases()) {
            int errBefore = site.errorLog().length();
            int accBefore = site.accessLog().length();
            List<String> got = site.datagrams(c.port(), c.datagrams(), 300);
            String access = awaitLine(site, accBefore);
            String errors = site.errorLog().substring(errBefore);
            out.add(c.name() + " | " + mask(site, String.join(" / ", got).replace("\n", "\\n")) + " | "
                + mask(site, access.strip()) + " | " + sessionLines(site, errors));
        }
        return out;
    }

    private static String compare(List<String> nginx, List<String> jinx, String file) throws Exception {
        StringBuilder report = new StringBuilder();
        int same = 0;
        for (int i = 0; i < nginx.size(); i++) {
            boolean eq = nginx.get(i).equals(jinx.get(i));
            same += eq ? 1 : 0;
            report.append(eq ? "SAME " : "DIFF ").append(nginx.get(i)).append('\n');
            if (!eq) {
                report.append("     jinx: ").append(jinx.get(i)).append('\n');
            }
        }
        report.append(same).append(" of ").append(nginx.size()).append(" cases the same\n");
        Path out = Path.of(file);
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.print(report);
        return report.toString();
    }

    /** The fake name server's zone: {@code backend.test} is the echo backend's host, the rest fail. */
    private static byte[] dns(FakeDns.Query q) {
        return switch (q.name()) {
            case "backend.test" -> q.type() == FakeDns.A
                ? FakeDns.response(q, 0, false, FakeDns.Record.address("127.0.0.1", 60))
                : FakeDns.response(q, 0, false);
            case "slow.test" -> null;
            default -> FakeDns.response(q, 3, false);
        };
    }

    private static List<String> run(DifferentialSite site) throws Exception {
        List<String> out = new ArrayList<>();
        // the probe that saw the port open is a session too: let its lines be written before the first case
        Thread.sleep(500);
        for (Case c : cases()) {
            int errBefore = site.errorLog().length();
            int accBefore = site.accessLog().length();
            java.net.Socket holder = null;
            if (c.hold()) {
                holder = new java.net.Socket("127.0.0.1", site.port(c.port()));
                Thread.sleep(300);
            }
            String got = site.exchange(c.port(), c.data(), c.shut(), c.quietMs());
            String access = awaitLine(site, accBefore);
            if (holder != null) {
                // the held session ends too, and its lines are this case's
                int before = site.accessLog().length();
                holder.close();
                access += awaitLine(site, before);
            }
            String errors = site.errorLog().substring(errBefore);
            out.add(c.name() + " | " + mask(site, summary(got)) + " | " + mask(site, access.strip()) + " | "
                + sessionLines(site, errors));
        }
        return out;
    }

    private static String awaitLine(DifferentialSite site, int from) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        for (;;) {
            String a = site.accessLog();
            if (a.length() > from && a.endsWith("\n")) {
                Thread.sleep(50);
                return site.accessLog().substring(from);
            }
            if (System.nanoTime() > deadline) {
                return "(no access log line)";
            }
            Thread.sleep(20);
        }
    }

    private static String summary(String got) {
        if (got.length() <= 200) {
            return got.replace("\n", "\\n");
        }
        return got.length() + " bytes, hash " + Integer.toHexString(got.hashCode());
    }

    private static final Pattern LINE = Pattern.compile("\\[(\\w+)\\] \\d+#\\d+: (.*)");
    private static final String[] MARKERS = {"connected to", "disconnected", "connect() failed", "timed out",
        "forbidden", "no live upstreams", "limiting", "resolve", "in upstream", "udp done", "PROXY", "too large",
        "broken header"};

    /** The error lines about the session, without the time, pid and numbers. */
    private static String sessionLines(DifferentialSite site, String errors) {
        List<String> lines = new ArrayList<>();
        for (String l : errors.split("\n")) {
            Matcher m = LINE.matcher(l);
            if (!m.find()) {
                continue;
            }
            String text = m.group(2);
            for (String marker : MARKERS) {
                if (text.contains(marker)) {
                    lines.add(m.group(1) + " " + mask(site, text));
                    break;
                }
            }
        }
        return String.join(" / ", lines);
    }

    /** The site's own ports by name, ephemeral ports and connection numbers masked. */
    private static String mask(DifferentialSite site, String text) {
        String t = text.replaceAll("\\*\\d+ ", "*N ");
        for (int i = 0; i < PORTS; i++) {
            t = t.replace(":" + site.port(i), ":P" + i).replace(" " + site.port(i), " P" + i);
        }
        t = t.replaceAll("(PROXY TCP4 \\S+ \\S+ )\\d+ ", "$1EPH ");
        return t.replaceAll("127\\.0\\.0\\.1:[3-6]\\d{4}\\b", "127.0.0.1:EPH");
    }
}
