package jinx.stream.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.testkit.DifferentialSite;

/**
 * TCP health checks in a stream server: a {@code match} that sends a line and expects it back from two echo
 * backends; the one stopped is found unhealthy within the interval and gets no session, and serves again once it
 * is back and has passed. {@code $upstream_addr} in the access log says where each session went.
 */
class StreamHealthCheckIT {

    private static final String STREAM = """
        upstream echo { zone echo 64k; server 127.0.0.1:%A%; server 127.0.0.1:%B%; }
        match pong { send "ping\\n"; expect "ping"; }
        log_format up $upstream_addr;
        server {
            listen 127.0.0.1:%P0%;
            proxy_pass echo;
            proxy_half_close on;
            access_log %LOG% up;
            health_check interval=300ms passes=2 match=pong;
            health_check_timeout 1s;
        }
        """;

    private static void await(BooleanSupplier what, String why) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!what.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, why);
            Thread.sleep(20);
        }
    }

    private static String errorLog(DifferentialSite site) {
        try {
            return site.errorLog();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long sessionsTo(DifferentialSite site, int port) throws IOException {
        return site.accessLog().lines().filter(l -> l.equals("127.0.0.1:" + port)).count();
    }

    private static void sessions(DifferentialSite site, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            String r = site.exchange(0, "hi".getBytes(StandardCharsets.ISO_8859_1), true, 3000);
            assertEquals("hi[closed]", r);
        }
    }

    @Test
    @Timeout(120)
    void aStoppedBackendGetsNoSessionUntilItPassesAgain() throws Exception {
        try (Backend a = new Backend(Backend.Mode.ECHO)) {
            Backend b = new Backend(Backend.Mode.ECHO);
            int bPort = b.port();
            String conf = STREAM.replace("%A%", Integer.toString(a.port())).replace("%B%", Integer.toString(bPort));
            try (DifferentialSite site = DifferentialSite.jinxStream(conf, 1)) {
                // the site's own check that it listens made a session too (to a peer, logged)
                sessions(site, 4);
                await(() -> sessionsToQuietly(site, bPort) >= 2, "both serve");
                b.close();
                await(() -> errorLog(site).contains("peer is unhealthy while checking response by match \"pong\", "
                    + "health check of peer 127.0.0.1:" + bPort + " in upstream \"echo\"")
                    || errorLog(site).contains("peer is unhealthy while connecting, health check of peer 127.0.0.1:"
                    + bPort), "b found unhealthy: " + errorLog(site));
                long onA = sessionsTo(site, a.port());
                long onB = sessionsTo(site, bPort);
                sessions(site, 6);
                await(() -> sessionsToQuietly(site, a.port()) == onA + 6, "the six went to a");
                assertEquals(onB, sessionsTo(site, bPort), accessLog(site));
                try (Backend b2 = new Backend(Backend.Mode.ECHO, bPort)) {
                    await(() -> errorLog(site).contains("peer is healthy while checking response by match \"pong\", "
                        + "health check of peer 127.0.0.1:" + bPort), "b healthy again: " + errorLog(site));
                    sessions(site, 4);
                    await(() -> sessionsToQuietly(site, bPort) >= onB + 2, "b serves again");
                }
            }
        }
    }

    private static String accessLog(DifferentialSite site) {
        try {
            return site.accessLog();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long sessionsToQuietly(DifferentialSite site, int port) {
        try {
            return sessionsTo(site, port);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
