package jinx.bench.micro;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Arrays;

import jinx.kernel.Embedded;
import jinx.kernel.MemoryConnection;

/**
 * The HTTP core's CPU time per request without the kernel: keep-alive requests over one in-memory connection
 * whose loop this thread turns, timed with the thread's CPU clock. wrk's figures on this machine swing by 10-30 %
 * with the host; this one repeats within about 1 %, so it tells whether a change to the request path made it
 * cheaper. It includes the in-memory connection's copies and one {@code epoll_wait} per turn, the same for every
 * build. Usage: {@code MicroBench [uri] [rounds] [requests per round] [header line...]}, e.g. an
 * {@code If-Modified-Since} line for the 304.
 */
public final class MicroBench {

    private MicroBench() {
    }

    /**
     * Runs the rounds and prints ns per request for each, then the median of the second half.
     *
     * @param args uri, rounds, requests per round, header lines to send with each request
     * @throws Exception when the server cannot start
     */
    public static void main(String[] args) throws Exception {
        String uri = args.length > 0 ? args[0] : "/hello";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 12;
        int perRound = args.length > 2 ? Integer.parseInt(args[2]) : 300_000;
        Path prefix = Files.createTempDirectory("jinx-micro");
        for (String d : new String[] {"conf", "logs", "html"}) {
            Files.createDirectories(prefix.resolve(d));
        }
        Files.write(prefix.resolve("html/1k.bin"), new byte[1024]);
        // a fixed modification time, so that "If-Modified-Since: Thu, 01 Jan 2026 00:00:00 GMT" gets the 304
        Files.setLastModifiedTime(prefix.resolve("html/1k.bin"), FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
        Files.writeString(prefix.resolve("conf/jinx.conf"), "daemon off;\nmaster_process off;\n"
            + "error_log logs/error.log notice;\nevents { worker_connections 64; }\n"
            + "http { default_type text/plain; access_log off; sendfile off; keepalive_requests 1000000000;\n"
            + "  server { listen 127.0.0.1:8080; server_name localhost; root " + prefix.resolve("html") + ";\n"
            + "    location = /hello { return 200 \"hello\\n\"; }\n    location / { }\n  }\n}\n");
        Embedded server = Embedded.builder(prefix).inMemory().build();
        server.start();
        try {
            String[] headers = args.length > 3 ? Arrays.copyOfRange(args, 3, args.length) : new String[0];
            run(server, uri, rounds, perRound, headers);
        } finally {
            server.close();
        }
    }

    private static void run(Embedded server, String uri, int rounds, int perRound, String[] headers)
            throws IOException {
        StringBuilder text = new StringBuilder("GET " + uri + " HTTP/1.1\r\nHost: 127.0.0.1:18080\r\n");
        for (String h : headers) {
            text.append(h).append("\r\n");
        }
        byte[] request = text.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
        MemoryConnection mc = MemoryConnection.accept(server.loop(), server.cycle().listening().get(0), "unix:");
        ByteBuffer response = ByteBuffer.allocate(1 << 16);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double[] ns = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            long start = threads.getCurrentThreadCpuTime();
            long bytes = 0;
            for (int i = 0; i < perRound; i++) {
                mc.write(request);
                server.turn(0);
                response.clear();
                bytes += mc.read(response);
            }
            ns[round] = (threads.getCurrentThreadCpuTime() - start) / (double) perRound;
            if (bytes < 50L * perRound) {
                throw new IllegalStateException("short responses: " + bytes / perRound + " bytes each");
            }
            System.out.printf("round %d: %.1f ns/request (%d bytes each)%n", round, ns[round], bytes / perRound);
        }
        double[] late = Arrays.copyOfRange(ns, rounds / 2, rounds);
        Arrays.sort(late);
        System.out.printf("%s: %.1f ns/request (median of the last %d rounds)%n", uri, late[late.length / 2],
            late.length);
    }
}
