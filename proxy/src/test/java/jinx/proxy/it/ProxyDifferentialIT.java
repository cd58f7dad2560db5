package jinx.proxy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.testkit.DifferentialSite;
import jinx.kernel.testsuite.FakeDns;
import jinx.testkit.FakeUpstream;
import jinx.testkit.Received;

/**
 * The same proxy configuration in Debian's nginx and in Jinx, in front of the same {@link FakeUpstream}: for every
 * case the client's bytes (status line, header lines in order, body; chunk boundaries and the values that cannot
 * be equal masked) and what reached the backend (request line and header lines in order, body) must be equal.
 * The cases cover every directive the proxy has and the backend's misbehaviours: garbage, an invalid or too big
 * header, resets and early closes before and after the header, a bad chunk, a wrong length, a timeout, a dead peer
 * and a retry on the next one. The report is written to {@code target/proxy-differential.txt}.
 */
@Tag("slow")
class ProxyDifferentialIT {

    /** The configuration; {@code %PORT%} is the proxy's port, {@code %UP%} the backend's, {@code %DEAD%} a closed one. */
    static final String HTTP = """
        upstream up { server 127.0.0.1:%UP%; }
        upstream upka { server 127.0.0.1:%UP%; keepalive 4; }
        upstream dead { server 127.0.0.1:%DEAD%; }
        upstream two { server 127.0.0.1:%DEAD%; server 127.0.0.1:%UP%; }
        upstream lc { least_conn; server 127.0.0.1:%UP% weight=2; server 127.0.0.1:%UP% down; }
        upstream rnd { random two least_conn; server 127.0.0.1:%UP%; server 127.0.0.1:%DEAD% down; }
        server {
            listen 127.0.0.1:%PORT%;
            server_name localhost;
            add_header X-Up-Status $upstream_status always;
            location / { proxy_pass http://up; }
            location /direct/ { proxy_pass http://127.0.0.1:%UP%/; }
            location /pre/ { proxy_pass http://up/echo/; }
            location = /exact { proxy_pass http://up/echo; }
            location ~ ^/rx/ { proxy_pass http://up; }
            location /rw/ { rewrite ^/rw/(.*)$ /echo/$1 break; proxy_pass http://up; }
            location /set/ {
                proxy_pass http://up/;
                proxy_set_header Host example.com;
                proxy_set_header X-Real-IP $remote_addr;
                proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                proxy_set_header X-Proxy "$proxy_host $proxy_port";
                proxy_set_header User-Agent "";
            }
            location /noheaders/ { proxy_pass http://up/; proxy_pass_request_headers off; }
            location /nobody/ {
                proxy_pass http://up/;
                proxy_pass_request_body off;
                proxy_set_header Content-Length "";
                proxy_method GET;
            }
            location /v11/ { proxy_pass http://up/; proxy_http_version 1.1; }
            location /show/ {
                proxy_pass http://up/;
                proxy_hide_header X-Lower-Case;
                proxy_pass_header Server;
                proxy_pass_header X-Pad;
            }
            location /vars/ {
                proxy_pass http://up/;
                add_header X-Addr $upstream_addr;
                add_header X-Hdr "$upstream_http_x_lower_case";
            }
            location /noredirect/ { proxy_pass http://127.0.0.1:%UP%/; proxy_redirect off; }
            location /myredirect/ {
                proxy_pass http://127.0.0.1:%UP%/;
                proxy_redirect http://127.0.0.1:%UP%/ http://front.example/;
            }
            location /slow-header/ { proxy_pass http://up; proxy_read_timeout 300ms; }
            location /dead { proxy_pass http://dead; }
            location /two/ { proxy_pass http://two/; add_header X-Addr $upstream_addr; }
            location /lc/ { proxy_pass http://lc/; }
            location /rnd/ { proxy_pass http://rnd/; }
            location /unbuffered/ { proxy_pass http://up/; proxy_buffering off; }
            location /small/ { proxy_pass http://up/; proxy_buffers 4 1k; proxy_buffer_size 1k; }
            location /ka/ { proxy_pass http://upka/; proxy_http_version 1.1; proxy_set_header Connection ""; }
            location /intercept/ {
                proxy_pass http://up/;
                proxy_intercept_errors on;
                error_page 404 = /fallback;
                error_page 401 /fallback;
                error_page 503 @down;
            }
            location /nointercept/ { proxy_pass http://up/; error_page 404 = /fallback; }
            location = /fallback { return 200 "fallback $uri $status\n"; }
            location @down { return 503 "down\n"; }
            location /accel/ { proxy_pass http://up/; }
            location /noaccel/ { proxy_pass http://up/; proxy_ignore_headers X-Accel-Redirect X-Accel-Limit-Rate; }
            location /files/ { internal; return 200 "internal $uri $args $request_method\n"; }
            location @named { return 200 "named $uri\n"; }
            location /cookies/ {
                proxy_pass http://up/;
                proxy_cookie_domain backend.example front.example;
                proxy_cookie_path /app/ /;
                proxy_cookie_path ~*^/OTHER(.*)$ /moved$1;
                proxy_cookie_flags one secure httponly samesite=lax;
                proxy_cookie_flags ~^t nosecure nosamesite;
            }
            location /cookies-off/ { proxy_pass http://up/; proxy_cookie_path off; }
            location /var/ { set $backend up; proxy_pass http://$backend; }
            location /varuri/ { proxy_pass http://127.0.0.1:%UP%/echo/fixed$is_args$args; }
            location /varaddr/ { set $b "127.0.0.1:%UP%"; proxy_pass http://$b; add_header X-Addr $upstream_addr; }
            location /noresolve/ { proxy_pass http://$host.invalid; }
            location /resolve/ {
                resolver 127.0.0.1:%DNS% ipv6=off;
                resolver_timeout 700ms;
                proxy_pass http://$arg_h:%UP%;
                add_header X-Addr $upstream_addr always;
            }
            location /resolve6/ {
                resolver 127.0.0.1:%DNS% valid=1s;
                proxy_pass http://$arg_h:%UP%;
                add_header X-Addr $upstream_addr always;
            }
            location /badprefix/ { proxy_pass $scheme.x://up; }
            location /setbody/ { proxy_pass http://up/; proxy_set_body "name=$arg_n&fixed=1"; }
            location /bind/ { proxy_pass http://up/; proxy_bind 127.0.0.1; }
            location /bindvar/ { proxy_pass http://up/; proxy_bind $arg_addr; }
            location /badbind/ { proxy_pass http://up/; proxy_bind 192.0.2.1; }
            location /morevars/ {
                proxy_pass http://up/;
                add_header X-Len "$upstream_response_length";
                add_header X-Sent "$upstream_bytes_sent";
                add_header X-Cookie "$upstream_cookie_one|$upstream_cookie_TWO|$upstream_cookie_none";
            }
            location /morevars-dead/ {
                proxy_pass http://two/;
                add_header X-Len "$upstream_response_length";
                add_header X-Sent "$upstream_bytes_sent";
            }
            location /stream/ { proxy_pass http://up/; proxy_request_buffering off; }
            location /stream11/ { proxy_pass http://up/; proxy_request_buffering off; proxy_http_version 1.1; }
            location /rated/ { proxy_pass http://up/; proxy_limit_rate 1m; proxy_busy_buffers_size 16k; }
            location /tempfile/ {
                proxy_pass http://up/;
                proxy_buffers 4 1k;
                proxy_buffer_size 1k;
                proxy_busy_buffers_size 2k;
                proxy_temp_file_write_size 3k;
                proxy_max_temp_file_size 1m;
                proxy_temp_path ptemp 1 2;
            }
            location /trailervars/ {
                proxy_pass http://up/;
                proxy_http_version 1.1;
                add_header X-Trailer "[$upstream_trailer_x_checksum|$upstream_http_trailer]";
            }
            location /notempfile/ { proxy_pass http://up/; proxy_buffers 4 1k; proxy_buffer_size 1k; proxy_max_temp_file_size 0; }
        }
        """;

    /** The behaviours these cases add to the fake backend. */
    static void behaviours(FakeUpstream up) {
        List<String> text = List.of("Content-Type: text/plain");
        up.on("/xar", (r, ex) -> {
            String to = switch (r.path()) {
                case "/xar/named" -> "@named";
                case "/xar/unsafe" -> "/files/../secret";
                default -> "/files/doc.txt?x=1";
            };
            ex.respond(200, List.of("Content-Type: text/x-accel", "X-Accel-Redirect: " + to, "Set-Cookie: s=1",
                "Cache-Control: no-store", "X-Other: dropped"), "upstream body\n".getBytes(StandardCharsets.UTF_8));
        });
        up.on("/auth", (r, ex) -> ex.respond(401, List.of("Content-Type: text/plain",
            "WWW-Authenticate: Basic realm=\"x\""), "denied\n".getBytes(StandardCharsets.UTF_8)));
        up.on("/rate", (r, ex) -> ex.respond(200, List.of("Content-Type: text/plain", "X-Accel-Limit-Rate: 1000000",
            "X-Accel-Buffering: no"), "rated\n".getBytes(StandardCharsets.UTF_8)));
        up.on("/setcookies", (r, ex) -> ex.respond(200, List.of("Content-Type: text/plain",
            "Set-Cookie: a=1; Domain=.backend.example; Path=/app/x",
            "Set-Cookie: one=2; path=/other;Secure",
            "Set-Cookie: two=3;  domain=other.example ;path=/OTHER/deep",
            "Set-Cookie: tlong=4; Secure; SameSite=None; HttpOnly",
            "Set-Cookie: bare",
            "Set-Cookie: b=5; Domain=BACKEND.example"), "cookies\n".getBytes(StandardCharsets.UTF_8)));
        up.on("/plain", (r, ex) -> ex.respond(200, text, "plain\n".getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * A request; {@code broken} when the upstream fails after its header: then only the end counts (the client's
     * connection closed, the response incomplete), since how much of a broken body reaches the client before the
     * close differs by design: nginx holds what sits in a partly filled buffer (it may send nothing, not even the
     * header), Jinx passes on what it read.
     */
    private record Case(String name, String request, boolean broken) {
        Case(String name, String request) {
            this(name, request, false);
        }
    }

    private static Case get(String name, String uri) {
        return new Case(name, "GET " + uri + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    }

    private static Case broken(String name, String uri) {
        return new Case(name, get(name, uri).request(), true);
    }

    static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        c.add(get("hello", "/hello"));
        c.add(new Case("echo with headers", "GET /echo?x=1&y=%41 HTTP/1.1\r\nHost: localhost\r\nX-Custom: one\r\n"
            + "User-Agent: test/1.0\r\nCookie: a=1\r\nCookie: b=2\r\nX-Forwarded-For: 10.0.0.1\r\n"
            + "Keep-Alive: 300\r\nTE: trailers\r\nUpgrade: h2c\r\nConnection: close\r\n\r\n"));
        c.add(new Case("post with length", "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 11\r\n"
            + "Content-Type: text/plain\r\nConnection: close\r\n\r\nhello world"));
        c.add(new Case("post chunked", "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n"
            + "Connection: close\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"));
        c.add(new Case("head", "HEAD /size/1000 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"));
        c.add(new Case("http/1.0 client", "GET /close/5000 HTTP/1.0\r\nHost: localhost\r\n\r\n"));
        c.add(get("size 200000", "/size/200000"));
        c.add(get("chunked 70000", "/chunked/70000"));
        c.add(get("trailers", "/trailers"));
        c.add(get("upstream trailer variable", "/trailervars/trailers"));
        c.add(get("temp file size 300000", "/tempfile/size/300000"));
        c.add(get("temp file chunked 70000", "/tempfile/chunked/70000"));
        c.add(get("no temp file size 300000", "/notempfile/size/300000"));
        c.add(get("close-delimited", "/close/5000"));
        c.add(get("http10 upstream", "/http10"));
        for (String s : List.of("404", "500", "204", "304", "302")) {
            c.add(get("status " + s, "/status/" + s));
        }
        c.add(get("headers", "/headers"));
        c.add(get("redirect default", "/direct/redirect/y"));
        c.add(get("redirect off", "/noredirect/redirect/y"));
        c.add(get("redirect rule", "/myredirect/redirect/y"));
        c.add(get("refresh and location default", "/direct/headers"));
        c.add(get("garbage", "/garbage"));
        c.add(get("bad header", "/bad-header"));
        c.add(get("big header", "/big-header"));
        c.add(get("reset before header", "/reset-header"));
        c.add(broken("wrong length", "/wrong-length"));
        c.add(broken("close early", "/close-early"));
        c.add(broken("bad chunk", "/bad-chunk"));
        c.add(broken("reset in body", "/reset-body"));
        c.add(get("read timeout", "/slow-header/1500"));
        c.add(get("dead peer", "/dead"));
        c.add(get("next upstream", "/two/echo"));
        c.add(get("least_conn", "/lc/hello"));
        c.add(get("random two", "/rnd/hello"));
        c.add(get("uri part", "/pre/a%20b/c?q=1"));
        c.add(get("exact location", "/exact?z=9"));
        c.add(get("regex location", "/rx/echo?r=1"));
        c.add(get("rewrite break", "/rw/a%20b?q=2"));
        c.add(get("set header", "/set/echo"));
        c.add(get("no request headers", "/noheaders/echo"));
        c.add(new Case("no request body", "POST /nobody/echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n"
            + "Connection: close\r\n\r\nabcde"));
        c.add(get("http 1.1 upstream", "/v11/echo"));
        c.add(get("hide and pass headers", "/show/headers"));
        c.add(get("variables", "/vars/headers"));
        c.add(get("unbuffered", "/unbuffered/chunked/30000"));
        c.add(get("small buffers", "/small/size/100000"));
        c.add(new Case("keepalive three", "GET /ka/hello HTTP/1.1\r\nHost: localhost\r\n\r\n"
            + "GET /ka/echo HTTP/1.1\r\nHost: localhost\r\n\r\n"
            + "GET /ka/size/10 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"));
        c.add(get("intercept 404 to error_page", "/intercept/status/404"));
        c.add(get("intercept 401 keeps WWW-Authenticate", "/intercept/auth"));
        c.add(get("intercept 503 to named", "/intercept/status/503"));
        c.add(get("intercept without a page", "/intercept/status/500"));
        c.add(get("intercept off", "/nointercept/status/404"));
        c.add(get("x-accel-redirect", "/accel/xar/files"));
        c.add(new Case("x-accel-redirect post becomes get", "POST /accel/xar/files HTTP/1.1\r\nHost: localhost\r\n"
            + "Content-Length: 3\r\nConnection: close\r\n\r\nabc"));
        c.add(get("x-accel-redirect named", "/accel/xar/named"));
        c.add(get("x-accel-redirect unsafe", "/accel/xar/unsafe"));
        c.add(get("x-accel-redirect ignored", "/noaccel/xar/files"));
        c.add(get("x-accel-limit-rate and buffering", "/accel/rate"));
        c.add(get("x-accel-limit-rate ignored", "/noaccel/rate"));
        c.add(get("cookie rewriting", "/cookies/setcookies"));
        c.add(get("cookie rewriting off", "/cookies-off/setcookies"));
        c.add(get("variables naming an upstream", "/var/echo?a=1"));
        c.add(get("variables with a uri", "/varuri/x?q=2"));
        c.add(get("variables with an address", "/varaddr/plain"));
        c.add(get("variables without a resolver", "/noresolve/x"));
        c.add(get("resolver: a name", "/resolve/echo?h=backend.test"));
        c.add(get("resolver: the name again, cached", "/resolve/echo?h=backend.test"));
        c.add(get("resolver: a cname", "/resolve/echo?h=alias.test"));
        c.add(get("resolver: host not found", "/resolve/echo?h=nx.test"));
        c.add(get("resolver: server failure", "/resolve/echo?h=fail.test"));
        c.add(get("resolver: timed out", "/resolve/echo?h=slow.test"));
        c.add(get("resolver: a and aaaa", "/resolve6/echo?h=backend.test"));
        c.add(get("resolver: an unaskable name", "/resolve/echo?h=a..b"));
        c.add(get("variables with a bad prefix", "/badprefix/x"));
        c.add(new Case("set body", "POST /setbody/echo?n=x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n"
            + "Connection: close\r\n\r\nhello"));
        c.add(get("bind", "/bind/echo"));
        c.add(get("bind from a variable", "/bindvar/echo?addr=127.0.0.1"));
        c.add(get("bind from an empty variable", "/bindvar/echo"));
        c.add(get("bind from a bad variable", "/bindvar/echo?addr=nowhere"));
        c.add(get("bind that fails", "/badbind/echo"));
        c.add(get("limit rate", "/rated/size/50000"));
        c.add(new Case("streamed body with length", "POST /stream/echo HTTP/1.1\r\nHost: localhost\r\n"
            + "Content-Length: 11\r\nConnection: close\r\n\r\nhello world"));
        c.add(new Case("streamed chunked to http/1.0 is buffered", "POST /stream/echo HTTP/1.1\r\nHost: localhost\r\n"
            + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"));
        c.add(new Case("streamed chunked to http/1.1", "POST /stream11/echo HTTP/1.1\r\nHost: localhost\r\n"
            + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"));
        c.add(get("streamed without a body", "/stream/hello"));
        c.add(get("upstream length, sent and cookies", "/morevars/setcookies"));
        c.add(get("upstream length and sent over two tries", "/morevars-dead/hello"));
        c.add(new Case("expect", "POST /echo HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\n"
            + "Content-Length: 4\r\nConnection: close\r\n\r\nbody"));
        return c;
    }

    @Test
    @Timeout(300)
    void jinxProxiesAsNginxDoes() throws Exception {
        assumeTrue(Files.isExecutable(DifferentialSite.NGINX), "nginx is not installed (.ci/run installs it)");
        List<Case> cases = cases();
        List<String> fromNginx = new ArrayList<>();
        List<String> fromJinx = new ArrayList<>();
        int nginxConnections;
        int jinxConnections;
        try (FakeUpstream up = FakeUpstream.start(); FakeDns dns = FakeDns.start(ProxyDifferentialIT::dns)) {
            behaviours(up);
            String http = HTTP.replace("%UP%", Integer.toString(up.port()))
                .replace("%DEAD%", Integer.toString(DifferentialSite.freePort()))
                .replace("%DNS%", Integer.toString(dns.port()));
            try (DifferentialSite nginx = DifferentialSite.nginx("proxy", http)) {
                nginxConnections = run(nginx, up, cases, fromNginx);
                resolverLines(nginx.errorLog());
            }
            try (DifferentialSite jinx = DifferentialSite.jinx("proxy", http)) {
                jinxConnections = run(jinx, up, cases, fromJinx);
                resolverLines(jinx.errorLog());
                // the one crit line expected: the bind that fails, which nginx logs at crit too
                String log = jinx.errorLog().replaceAll("(?m)^.*\\[crit\\].*bind\\(192\\.0\\.2\\.1\\) failed.*$", "");
                assertTrue(!log.contains("[alert]") && !log.contains("[crit]") && !log.contains("Exception"), log);
            }
        }
        List<String> differences = new ArrayList<>();
        StringBuilder report = new StringBuilder();
        for (int i = 0; i < cases.size(); i++) {
            String expected = fromNginx.get(i);
            String actual = fromJinx.get(i);
            boolean same = expected.equals(actual);
            report.append("=== ").append(cases.get(i).name()).append(same ? "" : "  DIFFERS").append('\n')
                .append("--- nginx\n").append(expected).append("\n--- jinx\n").append(actual).append('\n');
            if (!same) {
                differences.add(cases.get(i).name());
            }
        }
        Path out = Path.of("target", "proxy-differential.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report, StandardCharsets.ISO_8859_1);
        assertTrue(differences.isEmpty(), differences.size() + " of " + cases.size() + " cases differ: "
            + differences + "; see " + out.toAbsolutePath());
        assertEquals(nginxConnections, jinxConnections, "connections the backend accepted");
    }

    /** The fake name server's zone: {@code backend.test} is the backend, the other names fail each their way. */
    static byte[] dns(FakeDns.Query q) {
        return switch (q.name()) {
            case "backend.test" -> q.type() == FakeDns.A
                ? FakeDns.response(q, 0, false, FakeDns.Record.address("127.0.0.1", 60))
                : FakeDns.response(q, 0, false);
            case "alias.test" -> FakeDns.response(q, 0, false, FakeDns.Record.cname("backend.test", 60));
            case "fail.test" -> FakeDns.response(q, 2, false);
            case "slow.test" -> null;
            default -> FakeDns.response(q, 3, false);
        };
    }

    /** Both servers log the failed lookups in the same words. */
    private static void resolverLines(String log) {
        for (String line : List.of("nx.test could not be resolved (3: Host not found)",
            "fail.test could not be resolved (2: Server failure)",
            "slow.test could not be resolved (110: Operation timed out)",
            "a..b could not be resolved (3: Host not found)")) {
            assertTrue(log.contains(line), line + " in " + log);
        }
    }

    /** Runs every case; returns the connections the backend accepted in all. */
    private static int run(DifferentialSite site, FakeUpstream up, List<Case> cases, List<String> out) throws Exception {
        int before = up.connections();
        for (Case c : cases) {
            up.clear();
            String got = site.exchange(c.request(), 3000);
            StringBuilder sb = new StringBuilder(c.broken() ? brokenEnd(got)
                : normalize(got, site.port(), c.request().startsWith("HEAD")));
            sb.append("\n--- backend received:\n");
            for (Received r : up.requests()) {
                sb.append(r.rawText().replace(":" + site.port(), ":PORT")).append("\n---\n");
            }
            out.add(sb.toString());
        }
        return up.connections() - before;
    }

    /** A broken response: only how the connection ended, and that no response arrived whole. */
    static String brokenEnd(String raw) {
        String end = raw.substring(raw.lastIndexOf('['));
        return "[broken response, client connection " + (end.equals("[open]") ? "left open" : "closed") + "]";
    }

    private static final Pattern MASKED = Pattern.compile("(?m)^(Date|Server): .*$");
    private static final Pattern VERSION = Pattern.compile("(?:nginx|jinx)/[0-9][0-9A-Za-z.\\-]*");

    /** Masks what cannot be equal, and takes chunked bodies apart so that chunk boundaries do not count. */
    static String normalize(String raw, int port, boolean head) {
        String s = raw.replace(":" + port, ":PORT");
        StringBuilder sb = new StringBuilder();
        int at = 0;
        while (s.startsWith("HTTP/", at)) {
            int end = s.indexOf("\r\n\r\n", at);
            if (end < 0) {
                break;
            }
            String h = s.substring(at, end + 4);
            at = end + 4;
            String hl = h.toLowerCase();
            String body;
            boolean versioned;
            if (head || h.startsWith("HTTP/1.1 100") || h.matches("(?s)HTTP/1\\.[01] (204|304) .*")) {
                body = "";
            } else if (hl.contains("\r\ntransfer-encoding: chunked\r\n")) {
                int[] used = new int[1];
                body = "[dechunked]" + dechunk(s, at, used);
                at = used[0];
            } else if (hl.contains("\r\ncontent-length: ")) {
                int i = hl.indexOf("\r\ncontent-length: ") + 18;
                long n = Long.parseLong(hl.substring(i, hl.indexOf("\r\n", i)).trim());
                int e = (int) Math.min(s.length(), at + n);
                body = s.substring(at, e);
                at = e;
            } else {
                body = s.substring(at);
                at = s.length();
            }
            versioned = VERSION.matcher(body).find();
            h = MASKED.matcher(h).replaceAll("$1: X");
            if (versioned) {
                body = VERSION.matcher(body).replaceAll("jinx/V");
                h = h.replaceAll("(?m)^Content-Length: \\d+", "Content-Length: N");
            }
            sb.append(h).append(body);
        }
        return sb.append(s.substring(at)).toString();
    }

    /** The data of a chunked body from {@code at}; {@code used[0]} is where it ended (or the text's end). */
    private static String dechunk(String s, int at, int[] used) {
        StringBuilder data = new StringBuilder();
        int p = at;
        for (;;) {
            int eol = s.indexOf("\r\n", p);
            if (eol < 0) {
                used[0] = s.length() - 8 < p ? s.length() : p;
                data.append("[truncated]");
                used[0] = p;
                return data.toString();
            }
            int size;
            try {
                size = Integer.parseInt(s.substring(p, eol).split(";")[0].trim(), 16);
            } catch (NumberFormatException e) {
                data.append("[bad chunk]");
                used[0] = p;
                return data.toString();
            }
            p = eol + 2;
            if (size == 0) {
                int end = s.indexOf("\r\n\r\n", p - 2);
                used[0] = end < 0 ? s.length() : end + 4;
                data.append("[last chunk]");
                return data.toString();
            }
            if (p + size > s.length()) {
                data.append(s, p, s.length()).append("[truncated]");
                used[0] = s.length();
                return data.toString();
            }
            data.append(s, p, p + size);
            p += size + 2;
        }
    }
}
