package jinx.stream.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.testkit.DifferentialSite;
import jinx.testkit.UdpBackend;

/**
 * A UDP request/response run through Jinx with loss-free counting: clients on distinct source ports each send
 * numbered datagrams in lock step (the next once the answer to the last came), so no queue on the loopback overflows
 * and every datagram must be answered, by its own number. The datagrams the backend received, the answers the
 * clients counted and the sessions the access log wrote must all match what was sent: one session per client
 * ({@code proxy_requests 0}) ends at {@code proxy_timeout} with its figures, a session per datagram
 * ({@code proxy_requests 1}, {@code proxy_responses 1}) ends at each answer.
 */
@Tag("slow")
class StreamUdpCountIT {

    private static final int CLIENTS = 8;
    private static final int PER_CLIENT = 500;

    private static final String CONF = """
        log_format counts '$protocol $status $bytes_received $bytes_sent';
        access_log %LOG% counts;
        server { listen 127.0.0.1:%P0%; return ok; }
        server { listen 127.0.0.1:%P1% udp; proxy_pass 127.0.0.1:%UECHO%; proxy_timeout 1s; }
        server { listen 127.0.0.1:%P2% udp; proxy_pass 127.0.0.1:%UECHO%; proxy_requests 1; proxy_responses 1; }
        """;

    @Test
    @Timeout(120)
    void everyDatagramIsAnsweredAndCounted() throws Exception {
        try (UdpBackend echo = new UdpBackend(UdpBackend.Mode.ECHO);
             DifferentialSite site = DifferentialSite.jinxStream(CONF.replace("%UECHO%",
                 Integer.toString(echo.port())), 3)) {
            long answered = run(site.port(1));
            assertEquals((long) CLIENTS * PER_CLIENT, answered, "answers, one session per client");
            answered = run(site.port(2));
            assertEquals((long) CLIENTS * PER_CLIENT, answered, "answers, one session per datagram");
            assertEquals(2L * CLIENTS * PER_CLIENT, echo.received(), "datagrams at the backend");
            long deadline = System.nanoTime() + 10_000_000_000L;
            long[] sums;
            do {
                Thread.sleep(200);
                sums = sums(site.accessLog());
            } while (sums[0] < CLIENTS + (long) CLIENTS * PER_CLIENT && System.nanoTime() < deadline);
            assertEquals(CLIENTS + (long) CLIENTS * PER_CLIENT, sums[0], "sessions logged");
            long bytes = 2L * CLIENTS * PER_CLIENT * 8;
            assertEquals(bytes, sums[1], "bytes received, over the sessions");
            assertEquals(bytes, sums[2], "bytes sent, over the sessions");
        }
    }

    /** The clients in parallel; the answers counted. */
    private static long run(int port) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<Long>> done = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                int client = i;
                done.add(pool.submit(() -> client(port, client)));
            }
            long total = 0;
            for (Future<Long> f : done) {
                total += f.get();
            }
            return total;
        } finally {
            pool.shutdownNow();
        }
    }

    /** One client: each datagram its number, answered by the same number before the next goes. */
    private static long client(int port, int client) throws Exception {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            s.setSoTimeout(5000);
            InetSocketAddress to = new InetSocketAddress("127.0.0.1", port);
            byte[] in = new byte[64];
            long answered = 0;
            for (int i = 0; i < PER_CLIENT; i++) {
                long n = (long) client << 32 | i;
                byte[] out = ByteBuffer.allocate(8).putLong(n).array();
                s.send(new DatagramPacket(out, out.length, to));
                DatagramPacket p = new DatagramPacket(in, in.length);
                try {
                    s.receive(p);
                } catch (SocketTimeoutException e) {
                    continue;
                }
                if (p.getLength() == 8 && ByteBuffer.wrap(in, 0, 8).getLong() == n) {
                    answered++;
                }
            }
            return answered;
        }
    }

    private static final Pattern LINE = Pattern.compile("(?m)^UDP 200 (\\d+) (\\d+)$");

    /** Sessions, bytes received and bytes sent over the access log's UDP lines with status 200. */
    private static long[] sums(String log) {
        long[] s = new long[3];
        Matcher m = LINE.matcher(log);
        while (m.find()) {
            s[0]++;
            s[1] += Long.parseLong(m.group(1));
            s[2] += Long.parseLong(m.group(2));
        }
        return s;
    }
}
