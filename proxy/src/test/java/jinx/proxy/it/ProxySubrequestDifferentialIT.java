package jinx.proxy.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.testkit.DifferentialSite;
import jinx.testkit.FakeUpstream;
import jinx.testkit.Received;

/**
 * Subrequests served by the proxy, in Debian's nginx and in Jinx in front of the same {@link FakeUpstream}:
 * {@code auth_request} to a proxied location (its answer deciding, {@code auth_request_set} taking the backend's
 * headers, {@code WWW-Authenticate} passed on with 401, a dead or odd backend making 500) and {@code mirror} to a
 * proxied location (with and without the body, several mirrors); SSI's {@code include} of proxied locations, into a
 * variable ({@code set}, which nginx fills from the upstream's buffer), waited for, and with a stub. The client's
 * bytes and what reached the backend (sorted: a mirror and its main request reach it in either order) must be
 * equal. The report is written to {@code target/proxy-subrequest-differential.txt}.
 *
 * <p>One difference is current nginx's: since 1.23.0 repeated header lines are linked, and {@code auth_request}
 * passes every {@code WWW-Authenticate} line of a 401; Debian's 1.22 passes the first. Jinx follows current nginx, so
 * the expectation of that case is 1.22's answer with the second line added ({@link #current}).
 */
@Tag("slow")
class ProxySubrequestDifferentialIT {

    /** The configuration; {@code %PORT%} is the proxy's port, {@code %UP%} the backend's, {@code %DEAD%} a closed one. */
    static final String HTTP = """
        upstream up { server 127.0.0.1:%UP%; }
        upstream dead { server 127.0.0.1:%DEAD%; }
        server {
            listen 127.0.0.1:%PORT%;
            server_name localhost;
            location /ar/ {
                auth_request /_auth;
                auth_request_set $user $upstream_http_x_user;
                auth_request_set $astatus $upstream_status;
                proxy_pass http://up/;
                proxy_set_header X-User $user;
                add_header X-Auth "$astatus $user";
            }
            location /ar-dead/ { auth_request /_auth_dead; proxy_pass http://up/; }
            location /ar-static/ { auth_request /_auth; return 200 "allowed $uri\\n"; }
            location = /_auth {
                internal;
                proxy_pass http://up/check;
                proxy_pass_request_body off;
                proxy_set_header Content-Length "";
                proxy_set_header X-Original-URI $request_uri;
            }
            location = /_auth_dead { internal; proxy_pass http://dead/check; }
            location /mirrored/ { mirror /_mirror; proxy_pass http://up/; }
            location /mirrored-twice/ { mirror /_mirror; mirror /_mirror2; proxy_pass http://up/; }
            location /mirrored-nobody/ { mirror /_mirror; mirror_request_body off; proxy_pass http://up/; }
            location /mirrored-off/ { mirror off; proxy_pass http://up/; }
            location = /_mirror { internal; proxy_pass http://up/mirror$request_uri; }
            location = /_mirror2 { internal; proxy_pass http://up/mirror2$request_uri; }
            location /_up/ { proxy_pass http://up/; }
            location /_dead/ { proxy_pass http://dead/; }
            location /ssi/ {
                ssi on;
                default_type text/html;
                location = /ssi/set {
                    return 200 '<!--#include virtual="/_up/hello" set="v" -->[<!--#echo var="v" -->]\n';
                }
                location = /ssi/virtual {
                    return 200 '[<!--#include virtual="/_up/hello" -->]
                        [<!--#include virtual="/_up/echo?$args" wait="yes" -->]\n';
                }
                location = /ssi/stub {
                    return 200 '<!--#block name="s" -->fallback<!--#endblock -->
                        [<!--#include virtual="/_dead/x" stub="s" -->]\n';
                }
            }
        }
        """;

    /** The auth backend: the original URI decides. */
    static void behaviours(FakeUpstream up) {
        up.on("/check", (r, ex) -> {
            String uri = String.valueOf(r.header("X-Original-URI"));
            byte[] body = "auth body\n".getBytes(StandardCharsets.UTF_8);
            if (uri.contains("deny")) {
                ex.respond(403, List.of("Content-Type: text/plain"), body);
            } else if (uri.contains("login")) {
                ex.respond(401, List.of("Content-Type: text/plain", "WWW-Authenticate: Basic realm=\"up\"",
                    "WWW-Authenticate: Bearer"), body);
            } else if (uri.contains("odd")) {
                ex.respond(302, List.of("Location: http://elsewhere/"), body);
            } else {
                ex.respond(200, List.of("Content-Type: text/plain", "X-User: alice"), body);
            }
        });
        up.on("/mirror", (r, ex) -> ex.respond(200, List.of("Content-Type: text/plain"),
            "mirror\n".getBytes(StandardCharsets.UTF_8)));
    }

    /** A request and how many requests the backend gets for it. */
    private record Case(String name, String request, int backend) {
    }

    private static Case get(String name, String uri, int backend) {
        return new Case(name, "GET " + uri + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", backend);
    }

    private static Case post(String name, String uri, int backend) {
        return new Case(name, "POST " + uri + " HTTP/1.1\r\nHost: localhost\r\nContent-Length: 11\r\n"
            + "Content-Type: text/plain\r\nConnection: close\r\n\r\nhello world", backend);
    }

    static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        c.add(get("auth allowed", "/ar/echo?a=1", 2));
        c.add(get("auth forbidden", "/ar/deny", 1));
        c.add(get("auth 401 with WWW-Authenticate", "/ar/login", 1));
        c.add(get("auth unexpected status", "/ar/odd", 1));
        c.add(get("auth backend dead", "/ar-dead/echo", 0));
        c.add(get("auth then return", "/ar-static/x", 1));
        c.add(post("auth with a body", "/ar/echo", 2));
        c.add(new Case("auth keep-alive", "GET /ar/hello HTTP/1.1\r\nHost: localhost\r\n\r\n"
            + "GET /ar/deny HTTP/1.1\r\nHost: localhost\r\n\r\n"
            + "GET /ar/echo?b=2 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 5));
        c.add(get("mirror", "/mirrored/echo?m=1", 2));
        c.add(get("mirror twice", "/mirrored-twice/hello", 3));
        c.add(post("mirror with the body", "/mirrored/echo", 2));
        c.add(post("mirror without the body", "/mirrored-nobody/echo", 2));
        c.add(get("mirror off", "/mirrored-off/hello", 1));
        c.add(get("mirror of a missing page", "/mirrored/status/404", 2));
        c.add(get("ssi include set from the proxy", "/ssi/set", 1));
        c.add(get("ssi include virtual and waited", "/ssi/virtual?q=1", 2));
        c.add(get("ssi include stub when the upstream is dead", "/ssi/stub", 0));
        return c;
    }

    @Test
    @Timeout(300)
    void subrequestsThroughTheProxyAsNginx() throws Exception {
        assumeTrue(Files.isExecutable(DifferentialSite.NGINX), "nginx is not installed (.ci/run installs it)");
        List<Case> cases = cases();
        List<String> fromNginx = new ArrayList<>();
        List<String> fromJinx = new ArrayList<>();
        try (FakeUpstream up = FakeUpstream.start()) {
            behaviours(up);
            String http = HTTP.replace("%UP%", Integer.toString(up.port()))
                .replace("%DEAD%", Integer.toString(DifferentialSite.freePort()));
            try (DifferentialSite nginx = DifferentialSite.nginx("subrequest", http)) {
                run(nginx, up, cases, fromNginx);
            }
            try (DifferentialSite jinx = DifferentialSite.jinx("subrequest", http)) {
                run(jinx, up, cases, fromJinx);
                String log = jinx.errorLog();
                assertTrue(!log.contains("[alert]") && !log.contains("Exception"), log);
                assertTrue(log.contains("auth request unexpected status: 302"), log);
            }
        }
        List<String> differences = new ArrayList<>();
        StringBuilder report = new StringBuilder();
        for (int i = 0; i < cases.size(); i++) {
            fromNginx.set(i, current(cases.get(i), fromNginx.get(i)));
            boolean same = fromNginx.get(i).equals(fromJinx.get(i));
            report.append("=== ").append(cases.get(i).name()).append(same ? "" : "  DIFFERS").append('\n')
                .append("--- nginx\n").append(fromNginx.get(i)).append("\n--- jinx\n").append(fromJinx.get(i))
                .append('\n');
            if (!same) {
                differences.add(cases.get(i).name());
            }
        }
        Path out = Path.of("target", "proxy-subrequest-differential.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report, StandardCharsets.ISO_8859_1);
        assertTrue(differences.isEmpty(), differences.size() + " of " + cases.size() + " cases differ: "
            + differences + "; see " + out.toAbsolutePath());
    }

    /** Current nginx's answer where 1.22's differs: every {@code WWW-Authenticate} line of the 401 passed on. */
    private static String current(Case c, String nginx122) {
        if (!c.name().startsWith("auth 401")) {
            return nginx122;
        }
        String first = "WWW-Authenticate: Basic realm=\"up\"\r\n";
        return nginx122.replaceFirst(java.util.regex.Pattern.quote(first),
            java.util.regex.Matcher.quoteReplacement(first + "WWW-Authenticate: Bearer\r\n"));
    }

    private static void run(DifferentialSite site, FakeUpstream up, List<Case> cases, List<String> out)
        throws Exception {
        for (Case c : cases) {
            up.clear();
            String got = site.exchange(c.request(), 3000);
            StringBuilder sb = new StringBuilder(ProxyDifferentialIT.normalize(got, site.port(), false));
            List<Received> received;
            try {
                received = c.backend() == 0 ? up.requests() : up.awaitRequests(c.backend());
            } catch (IllegalStateException e) {
                // fewer than expected: the report shows what came
                received = up.requests();
            }
            List<String> texts = new ArrayList<>();
            for (Received r : received) {
                texts.add(r.rawText().replace(":" + site.port(), ":PORT"));
            }
            texts.sort(null);
            sb.append("\n--- backend received ").append(texts.size()).append(":\n");
            for (String t : texts) {
                sb.append(t).append("\n---\n");
            }
            out.add(sb.toString());
        }
    }
}
