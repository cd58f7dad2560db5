package jinx.kernel.testsuite;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A tiny DNS server for tests of a {@code resolver}: it listens on 127.0.0.1 on a free port, UDP and TCP on the
 * same number (TCP for the answers a resolver asks again after a truncated one), and answers each query with what
 * the test's {@link Answerer} makes of it, built with {@link #response}. It records the queries it saw. Its two
 * threads end, and its sockets close, with {@link #close()}.
 */
public final class FakeDns implements AutoCloseable {

    /** {@code A}. */
    public static final int A = 1;
    /** {@code CNAME}. */
    public static final int CNAME = 5;
    /** {@code AAAA}. */
    public static final int AAAA = 28;

    /**
     * A query as it came.
     *
     * @param id its id
     * @param name the name asked, as sent
     * @param type the type asked
     * @param tcp whether it came over TCP
     * @param packet the whole packet
     */
    public record Query(int id, String name, int type, boolean tcp, byte[] packet) {
    }

    /** Makes the answer to a query. */
    @FunctionalInterface
    public interface Answerer {

        /**
         * Answers a query.
         *
         * @param q the query
         * @return the response's bytes, or null to send nothing
         */
        byte[] answer(Query q);
    }

    /**
     * A resource record of an answer, its owner the question's name.
     *
     * @param type the type
     * @param ttl the TTL in seconds
     * @param data the record's data
     */
    public record Record(int type, long ttl, byte[] data) {

        /**
         * An {@code A} or {@code AAAA} record.
         *
         * @param address the address, written as such
         * @param ttl the TTL
         * @return the record
         */
        public static Record address(String address, long ttl) {
            try {
                byte[] raw = InetAddress.getByName(address).getAddress();
                return new Record(raw.length == 4 ? A : AAAA, ttl, raw);
            } catch (IOException e) {
                throw new IllegalArgumentException(address, e);
            }
        }

        /**
         * A {@code CNAME} record.
         *
         * @param target the canonical name
         * @param ttl the TTL
         * @return the record
         */
        public static Record cname(String target, long ttl) {
            return new Record(CNAME, ttl, encodeName(target));
        }
    }

    private final DatagramSocket udp;
    private final ServerSocket tcp;
    private final Answerer answerer;
    private final List<Query> queries = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    private FakeDns(Answerer answerer) throws IOException {
        this.answerer = answerer;
        InetAddress lo = InetAddress.getLoopbackAddress();
        DatagramSocket u = null;
        ServerSocket t = null;
        // the same port for both protocols, as a name server has
        for (int attempt = 0; attempt < 20 && t == null; attempt++) {
            u = new DatagramSocket(0, lo);
            try {
                t = new ServerSocket(u.getLocalPort(), 8, lo);
            } catch (IOException e) {
                u.close();
            }
        }
        if (t == null) {
            throw new IOException("no free port for both UDP and TCP");
        }
        this.udp = u;
        this.tcp = t;
    }

    /**
     * Starts a server.
     *
     * @param answerer makes the answers
     * @return the running server
     * @throws IOException when it cannot listen
     */
    public static FakeDns start(Answerer answerer) throws IOException {
        FakeDns d = new FakeDns(answerer);
        d.spawn("fake-dns-udp", d::serveUdp);
        d.spawn("fake-dns-tcp", d::serveTcp);
        return d;
    }

    /**
     * The port, UDP and TCP.
     *
     * @return the port
     */
    public int port() {
        return udp.getLocalPort();
    }

    /**
     * The queries seen so far, in order.
     *
     * @return the queries
     */
    public List<Query> queries() {
        return List.copyOf(queries);
    }

    /**
     * A response to a query: the question echoed, the answers' owner a pointer to it.
     *
     * @param q the query
     * @param rcode the response code (0, 2 SERVFAIL, 3 NXDOMAIN, ...)
     * @param truncated whether to set TC
     * @param answers the records
     * @return the packet
     */
    public static byte[] response(Query q, int rcode, boolean truncated, Record... answers) {
        byte[] p = q.packet();
        int qend = 12;
        while (p[qend] != 0) {
            qend += 1 + (p[qend] & 0xff);
        }
        qend += 5;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(p, 0, 2);
        out.write(0x81 | (truncated ? 0x02 : 0));
        out.write(0x80 | rcode);
        out.writeBytes(new byte[] {0, 1, 0, (byte) answers.length, 0, 0, 0, 0});
        out.write(p, 12, qend - 12);
        for (Record r : answers) {
            out.writeBytes(new byte[] {(byte) 0xc0, 12, 0, (byte) r.type(), 0, 1});
            out.writeBytes(new byte[] {(byte) (r.ttl() >> 24), (byte) (r.ttl() >> 16), (byte) (r.ttl() >> 8),
                (byte) r.ttl()});
            out.write(r.data().length >> 8);
            out.write(r.data().length);
            out.writeBytes(r.data());
        }
        return out.toByteArray();
    }

    /**
     * A name in DNS labels, uncompressed.
     *
     * @param name the name
     * @return its bytes
     */
    public static byte[] encodeName(String name) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String label : name.split("\\.")) {
            byte[] b = label.getBytes(StandardCharsets.ISO_8859_1);
            out.write(b.length);
            out.writeBytes(b);
        }
        out.write(0);
        return out.toByteArray();
    }

    private void spawn(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    private void serveUdp() {
        byte[] buf = new byte[4096];
        while (!udp.isClosed()) {
            DatagramPacket in = new DatagramPacket(buf, buf.length);
            try {
                udp.receive(in);
                byte[] answer = answer(Arrays.copyOf(buf, in.getLength()), false);
                if (answer != null) {
                    udp.send(new DatagramPacket(answer, answer.length, in.getSocketAddress()));
                }
            } catch (SocketException e) {
                return;
            } catch (IOException | RuntimeException e) {
                // a malformed query is dropped
            }
        }
    }

    private void serveTcp() {
        while (!tcp.isClosed()) {
            try (Socket s = tcp.accept()) {
                s.setSoTimeout(10_000);
                DataInputStream in = new DataInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                for (;;) {
                    int len = in.readUnsignedShort();
                    byte[] answer = answer(in.readNBytes(len), true);
                    if (answer != null) {
                        out.write(new byte[] {(byte) (answer.length >> 8), (byte) answer.length});
                        out.write(answer);
                        out.flush();
                    }
                }
            } catch (IOException | RuntimeException e) {
                // the connection ended; take the next
            }
        }
    }

    private byte[] answer(byte[] packet, boolean overTcp) {
        StringBuilder name = new StringBuilder();
        int i = 12;
        while (packet[i] != 0) {
            int len = packet[i] & 0xff;
            if (name.length() > 0) {
                name.append('.');
            }
            name.append(new String(packet, i + 1, len, StandardCharsets.ISO_8859_1));
            i += 1 + len;
        }
        int type = (packet[i + 1] & 0xff) << 8 | packet[i + 2] & 0xff;
        int id = (packet[0] & 0xff) << 8 | packet[1] & 0xff;
        Query q = new Query(id, name.toString(), type, overTcp, packet);
        queries.add(q);
        return answerer.answer(q);
    }

    @Override
    public void close() {
        udp.close();
        try {
            tcp.close();
        } catch (IOException e) {
            // closing
        }
        for (Thread t : threads) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
