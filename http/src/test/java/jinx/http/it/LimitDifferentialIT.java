package jinx.http.it;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.Responses.Response;
import jinx.http.it.NginxDifferentialIT.Case;
import jinx.kernel.os.Syscalls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code limit_req} and {@code limit_conn} beside Debian's nginx: the same sequences of requests (a burst with
 * {@code nodelay} turning into 503s, {@code limit_req_status 429}, a dry run, {@code delay=} delaying the third
 * request, keys from a variable, two limits on one location) get the same status lines, headers and bodies, with
 * {@code $limit_req_status} and {@code $limit_conn_status} in a header; a second request while the first holds the
 * only connection {@code limit_conn} allows is refused by both; and with two worker processes one zone is shared:
 * of twenty requests on new connections, spread over both workers, one passes.
 */
@Tag("slow")
class LimitDifferentialIT {

    static final String HTTP = """
        default_type text/plain;
        limit_req_zone $binary_remote_addr zone=one:1m rate=1r/m;
        limit_req_zone $arg_k zone=bykey:64k rate=1r/m;
        limit_req_zone $arg_k zone=second:64k rate=1r/s;
        limit_req_zone $arg_k zone=tworate:64k rate=30r/m;
        limit_conn_zone $binary_remote_addr zone=addr:1m;
        server {
            listen 127.0.0.1:%PORT%;
            server_name localhost;
            root html;
            add_header X-Req "$limit_req_status" always;
            add_header X-Conn "$limit_conn_status" always;
            location /nodelay/ { limit_req zone=one burst=2 nodelay; }
            location /s429/ { limit_req zone=bykey; limit_req_status 429; }
            location /dry/ { limit_req zone=bykey burst=1; limit_req_dry_run on; }
            location /delay/ { limit_req zone=second burst=3 delay=1; }
            location /two/ { limit_req zone=bykey burst=5 nodelay; limit_req zone=tworate nodelay; }
            location /conn/ { limit_conn addr 1; limit_rate 2k; limit_rate_after 1k; }
            location /conn-dry/ { limit_conn addr 1; limit_conn_dry_run on; limit_rate 2k; limit_rate_after 1k; }
            location /nokey/ { limit_req zone=bykey; }
        }
        """;

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        String h = " HTTP/1.1\r\nHost: localhost\r\n\r\n";
        for (int i = 1; i <= 5; i++) {
            cases.add(Case.get("burst 2 nodelay #" + i, "GET /nodelay/f.txt" + h));
        }
        cases.add(Case.get("429 first", "GET /s429/f.txt?k=a" + h));
        cases.add(Case.get("429 second", "GET /s429/f.txt?k=a" + h));
        cases.add(Case.get("429 other key", "GET /s429/f.txt?k=b" + h));
        for (int i = 1; i <= 3; i++) {
            cases.add(Case.get("dry run #" + i, "GET /dry/f.txt?k=c" + h));
        }
        for (int i = 1; i <= 3; i++) {
            cases.add(Case.get("delay=1 #" + i, "GET /delay/f.txt?k=d" + h));
        }
        for (int i = 1; i <= 3; i++) {
            cases.add(Case.get("two limits #" + i, "GET /two/f.txt?k=e" + h));
        }
        cases.add(Case.get("no key: not limited #1", "GET /nokey/f.txt" + h));
        cases.add(Case.get("no key: not limited #2", "GET /nokey/f.txt" + h));
        cases.add(Case.get("limit_conn alone", "GET /conn/f.txt" + h));
        return cases;
    }

    static void populate(Site site) {
        for (String dir : new String[] {"nodelay", "s429", "dry", "delay", "two", "conn", "conn-dry", "nokey"}) {
            site.write("html/" + dir + "/f.txt", "file in " + dir + "\n");
            site.write("html/" + dir + "/big.txt", "x".repeat(8 * 1024));
        }
    }

    @Test
    @Timeout(120)
    void sequencesAsNginx() throws Exception {
        assumeTrue(NginxServer.installed(), "nginx is not installed (.ci/run installs it)");
        try (Site site = Site.create()) {
            populate(site);
            NginxDifferentialIT.compare(site, HTTP, cases(), NginxDifferentialIT::normalize, Map.of(),
                "limit-differential.txt");
        }
    }

    @Test
    @Timeout(120)
    void aSecondConnectionIsRefusedAsNginxRefusesIt() throws Exception {
        assumeTrue(NginxServer.installed(), "nginx is not installed (.ci/run installs it)");
        Map<String, String> answers = new HashMap<>();
        try (Site site = Site.create()) {
            populate(site);
            int port;
            try (NginxServer nginx = NginxServer.start(site, HTTP)) {
                port = nginx.port();
                answers.put("nginx", whileHeld(port, "/conn/") + whileHeld(port, "/conn-dry/"));
            }
            try (JinxServer jinx = JinxServer.start(site, HTTP.replace("%PORT%", Integer.toString(port)))) {
                answers.put("jinx", whileHeld(port, "/conn/") + whileHeld(port, "/conn-dry/"));
                for (Case c : cases()) {
                    if (c.name().startsWith("burst") || c.name().startsWith("delay") || c.name().startsWith("dry")) {
                        RawClient.exchange(port, c.request().replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n"));
                    }
                }
                jinx.awaitLog("error", "limiting connections by zone \"addr\"", "client: 127.0.0.1");
                jinx.awaitLog("error", "limiting connections, dry run, by zone \"addr\"");
                jinx.awaitLog("error", "limiting requests, excess: ", " by zone \"one\", client: 127.0.0.1");
                jinx.awaitLog("warn", "delaying request, excess: ", ", by zone \"second\"");
                jinx.awaitLog("error", "limiting requests, dry run, excess: ", " by zone \"bykey\"");
                jinx.assertNoAlerts();
            }
        }
        assertTrue(answers.get("nginx").contains("HTTP/1.1 503"), answers.get("nginx"));
        assertEquals(answers.get("nginx"), answers.get("jinx"));
    }

    /** A slow download holds the connection while a second request comes: the second's normalized answer. */
    private static String whileHeld(int port, String dir) throws IOException {
        try (RawClient first = RawClient.connect(port)) {
            first.send("GET " + dir + "big.txt HTTP/1.1\r\nHost: localhost\r\n\r\n");
            // the first request has taken its count once the server has read it; its body trickles for seconds
            try {
                first.awaitRead();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try (RawClient second = RawClient.connect(port)) {
                second.send("GET " + dir + "f.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
                second.readAll();
                return NginxDifferentialIT.normalize(second.received(), Case.get(dir, ""));
            }
        }
    }

    @Test
    @Timeout(180)
    void twoWorkersShareTheZone() throws Exception {
        assumeTrue(java.nio.file.Files.isRegularFile(Site.distribution().resolve("http/target/jinx-http.jar")),
            "the jars are not built");
        try (Site site = Site.create()) {
            site.write("html/f.txt", "f\n");
            int port = Site.freePort();
            String user = Syscalls.geteuid() == 0 ? "user root;\n" : "";
            site.write("conf/jinx.conf", "master_process on;\ndaemon off;\nworker_processes 2;\n" + user
                + "error_log logs/error.log notice;\npid logs/jinx.pid;\nevents { worker_connections 256; }\n"
                + "http { access_log off; limit_req_zone $binary_remote_addr zone=one:1m rate=1r/m;\n"
                + "server { listen 127.0.0.1:" + port + " reuseport; root html;\n"
                + "location = /ping { return 200 \"$pid\"; }\n"
                + "location / { limit_req zone=one; add_header X-Pid $pid always; } } }\n");
            Process p = WorkerProcs.start(site, Map.of());
            try {
                WorkerProcs.workers(p, site, 2);
                WorkerProcs.waitForBody(port, "/ping");
                Masters.waitForLog(site, log -> log.split("start worker process", -1).length == 3);
                int passed = 0;
                Set<String> pids = new HashSet<>();
                Set<String> refusedBy = new HashSet<>();
                for (int i = 0; i < 20; i++) {
                    Response r;
                    try (RawClient c = RawClient.connect(port)) {
                        r = c.send("GET /f.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").responses(1)
                            .get(0);
                    }
                    pids.add(r.header("X-Pid"));
                    if (r.status() == 200) {
                        passed++;
                    } else {
                        assertEquals(503, r.status());
                        refusedBy.add(r.header("X-Pid"));
                    }
                }
                assertEquals(1, passed, "one request in a minute at 1r/m, whichever worker serves it");
                assertEquals(2, pids.size(), "both workers served: " + pids);
                assertEquals(2, refusedBy.size(), "both workers refused: " + refusedBy);
                Masters.stopMaster(p, site);
            } finally {
                Masters.kill(p);
            }
        }
    }
}
