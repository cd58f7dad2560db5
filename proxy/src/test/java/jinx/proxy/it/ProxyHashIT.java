package jinx.proxy.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.testkit.DifferentialSite;
import jinx.testkit.FakeUpstream;

/**
 * The hash balancers choose as nginx's do: {@code hash $arg_k}, {@code hash $arg_k consistent} (ketama) and
 * {@code ip_hash} send each of 60 keys to the same one of three weighted backends through Debian's nginx and
 * through Jinx ({@code $upstream_addr} of each answer, compared key by key).
 */
class ProxyHashIT {

    static final String HTTP = """
        upstream plain { hash $arg_k; server 127.0.0.1:%A%; server 127.0.0.1:%B% weight=2; server 127.0.0.1:%C%; }
        upstream ketama {
            hash $arg_k consistent;
            server 127.0.0.1:%A%; server 127.0.0.1:%B% weight=2; server 127.0.0.1:%C%;
        }
        upstream ip { ip_hash; server 127.0.0.1:%A%; server 127.0.0.1:%B%; server 127.0.0.1:%C%; }
        server {
            listen 127.0.0.1:%PORT%;
            server_name localhost;
            add_header X-Up $upstream_addr;
            location /plain/ { proxy_pass http://plain/; }
            location /ketama/ { proxy_pass http://ketama/; }
            location /ip/ { proxy_pass http://ip/; }
        }
        """;

    private static List<String> choices(DifferentialSite site) throws Exception {
        List<String> out = new ArrayList<>();
        for (String kind : List.of("plain", "ketama", "ip")) {
            for (int k = 0; k < 60; k++) {
                String got = site.exchange("GET /" + kind + "/hello?k=key" + k + " HTTP/1.1\r\nHost: localhost\r\n"
                    + "Connection: close\r\n\r\n", 3000);
                int i = got.indexOf("\r\nX-Up: ");
                out.add(kind + " key" + k + " -> " + (i < 0 ? got : got.substring(i + 8, got.indexOf("\r\n", i + 8))));
            }
        }
        return out;
    }

    @Test
    @Timeout(120)
    void keysGoWhereNginxSendsThem() throws Exception {
        assumeTrue(Files.isExecutable(DifferentialSite.NGINX), "nginx is not installed (.ci/run installs it)");
        try (FakeUpstream a = FakeUpstream.start(); FakeUpstream b = FakeUpstream.start();
             FakeUpstream c = FakeUpstream.start()) {
            String http = HTTP.replace("%A%", Integer.toString(a.port())).replace("%B%", Integer.toString(b.port()))
                .replace("%C%", Integer.toString(c.port()));
            List<String> nginx;
            List<String> jinx;
            try (DifferentialSite site = DifferentialSite.nginx("proxy", http)) {
                nginx = choices(site);
            }
            try (DifferentialSite site = DifferentialSite.jinx("proxy", http)) {
                jinx = choices(site);
            }
            assertEquals(nginx, jinx);
            // the keys spread over the three backends (the test would pass vacuously otherwise)
            assertEquals(3, new HashSet<>(nginx.subList(0, 60).stream().map(s -> s.substring(s.indexOf("->")))
                .toList()).size(), nginx::toString);
            assertTrue(new HashSet<>(nginx.subList(60, 120).stream().map(s -> s.substring(s.indexOf("->")))
                .toList()).size() >= 2, nginx::toString);
        }
    }
}
