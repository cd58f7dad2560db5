package jinx.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.event.epoll.EpollEventActions;
import jinx.kernel.ConfException;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.testsuite.FakeDns;
import jinx.kernel.testsuite.FakeDns.Record;

/**
 * The resolver on a real loop (epoll) against the test kit's name server on 127.0.0.1: answers, the cache, errors
 * with nginx's texts, timeouts, CNAMEs, TCP after truncation, several servers, malformed answers dropped.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 20, threadMode = ThreadMode.SEPARATE_THREAD)
class ResolverTest {

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private EventLoop loop;
    private final List<FakeDns> servers = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        ErrorLog log = ErrorLog.open(List.of(new ErrorLog.Target(null, LogLevel.INFO)),
            new PrintStream(logBytes, true, StandardCharsets.ISO_8859_1));
        loop = new EventLoop(null, new EpollEventActions(64), 64, 0, EventLoop.AcceptSettings.SINGLE, log);
    }

    @AfterEach
    void tearDown() {
        loop.done();
        servers.forEach(FakeDns::close);
    }

    private String log() {
        synchronized (logBytes) {
            return logBytes.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private FakeDns dns(FakeDns.Answerer a) throws IOException {
        FakeDns d = FakeDns.start(a);
        servers.add(d);
        return d;
    }

    private static Resolver resolver(String... params) throws ConfException {
        return Resolver.create(List.of(params));
    }

    private void turnUntil(BooleanSupplier done) throws IOException {
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out; log: " + log());
            loop.processEventsAndTimers();
        }
    }

    /** Runs one lookup to its end. */
    private Resolution lookup(Resolver r, String name, long timeout) throws IOException {
        Resolution[] got = {null};
        // the loop's cached time, as a turn of the loop would have left it
        loop.updateTime();
        Resolution ctx = r.resolve(loop, name, timeout, x -> got[0] = x);
        turnUntil(() -> got[0] != null);
        ctx.cancel();
        return got[0];
    }

    private static FakeDns.Answerer answering(Record... records) {
        return q -> {
            List<Record> of = new ArrayList<>();
            for (Record r : records) {
                if (r.type() == q.type()) {
                    of.add(r);
                }
            }
            return FakeDns.response(q, 0, false, of.toArray(new Record[0]));
        };
    }

    @Test
    void answersAreCachedForTheirTtl() throws Exception {
        FakeDns d = dns(answering(Record.address("10.0.0.1", 300), Record.address("10.0.0.2", 300),
            Record.address("::1", 300)));
        Resolver r = resolver("127.0.0.1:" + d.port());
        Resolution res = lookup(r, "backend.test", 10_000);
        assertEquals(0, res.state());
        Set<InetAddress> got = new HashSet<>(res.addresses());
        assertEquals(Set.of(InetAddress.getByName("10.0.0.1"), InetAddress.getByName("10.0.0.2"),
            InetAddress.getByName("::1")), got);
        assertEquals(3, res.addresses().size());
        assertEquals(16, res.addresses().get(2).getAddress().length, "IPv4 first, then IPv6");
        Set<Integer> types = new HashSet<>();
        d.queries().forEach(q -> types.add(q.type()));
        assertEquals(Set.of(FakeDns.A, FakeDns.AAAA), types);
        assertEquals(2, d.queries().size());
        assertEquals(0, lookup(r, "BACKEND.test", 10_000).state());
        assertEquals(2, d.queries().size(), "the second lookup is answered from the cache");
        assertEquals(64, loop.freeConnectionCount(), "no socket is kept once nothing is in flight");
    }

    @Test
    void zeroTtlIsNotCachedAndValidOverrides() throws Exception {
        FakeDns d = dns(answering(Record.address("10.0.0.1", 0)));
        Resolver r = resolver("127.0.0.1:" + d.port(), "ipv6=off");
        assertEquals(0, lookup(r, "a.test", 10_000).state());
        assertEquals(0, lookup(r, "a.test", 10_000).state());
        assertEquals(2, d.queries().size());
        assertTrue(d.queries().stream().allMatch(q -> q.type() == FakeDns.A), "ipv6=off asks A only");
        Resolver valid = resolver("127.0.0.1:" + d.port(), "ipv6=off", "valid=30s");
        lookup(valid, "a.test", 10_000);
        lookup(valid, "a.test", 10_000);
        assertEquals(3, d.queries().size(), "valid= caches what the TTL would not");
    }

    @Test
    void errorsInNginxsWords() throws Exception {
        FakeDns d = dns(q -> FakeDns.response(q, q.name().startsWith("gone") ? 3 : 2, false));
        Resolver r = resolver("127.0.0.1:" + d.port());
        Resolution nx = lookup(r, "gone.test", 10_000);
        assertEquals(Resolver.NXDOMAIN, nx.state());
        assertEquals("gone.test could not be resolved (3: Host not found)", nx.failure());
        assertEquals("x.test could not be resolved (2: Server failure)", lookup(r, "x.test", 10_000).failure());
        int before = d.queries().size();
        lookup(r, "gone.test", 10_000);
        assertTrue(d.queries().size() > before, "errors are not cached");
        Resolution empty = lookup(resolver("127.0.0.1:" + dns(answering()).port()), "none.test", 10_000);
        assertEquals("none.test could not be resolved (3: Host not found)", empty.failure());
    }

    @Test
    void silenceTimesOut() throws Exception {
        FakeDns d = dns(q -> null);
        Resolution res = lookup(resolver("127.0.0.1:" + d.port()), "slow.test", 300);
        assertEquals(Resolver.TIMEDOUT, res.state());
        assertEquals("slow.test could not be resolved (110: Operation timed out)", res.failure());
        assertEquals(64, loop.freeConnectionCount(), "the socket is closed with the last query");
    }

    @Test
    void cnameIsFollowed() throws Exception {
        FakeDns d = dns(q -> q.name().equals("www.test")
            ? FakeDns.response(q, 0, false, Record.cname("edge.test", 60))
            : FakeDns.response(q, 0, false, q.type() == FakeDns.A
                ? new Record[] {Record.address("10.1.1.1", 60)} : new Record[0]));
        Resolution res = lookup(resolver("127.0.0.1:" + d.port()), "www.test", 10_000);
        assertEquals(0, res.state(), log());
        assertEquals(List.of(InetAddress.getByName("10.1.1.1")), res.addresses());
        assertEquals("www.test", res.name());
        assertTrue(d.queries().stream().anyMatch(q -> q.name().equals("edge.test")));
    }

    @Test
    void cnameLoopEndsAsHostNotFound() throws Exception {
        FakeDns d = dns(q -> FakeDns.response(q, 0, false, Record.cname(q.name(), 60)));
        Resolution res = lookup(resolver("127.0.0.1:" + d.port(), "ipv6=off"), "loop.test", 10_000);
        assertEquals(Resolver.NXDOMAIN, res.state());
    }

    @Test
    void truncatedAnswerIsAskedAgainOverTcp() throws Exception {
        FakeDns d = dns(q -> q.tcp()
            ? FakeDns.response(q, 0, false, Record.address("10.2.2.2", 60))
            : FakeDns.response(q, 0, true));
        Resolution res = lookup(resolver("127.0.0.1:" + d.port(), "ipv6=off"), "big.test", 10_000);
        assertEquals(0, res.state(), log());
        assertEquals(List.of(InetAddress.getByName("10.2.2.2")), res.addresses());
        assertTrue(d.queries().stream().anyMatch(FakeDns.Query::tcp));
        assertEquals(64, loop.freeConnectionCount());
    }

    @Test
    void serversTakeTurns() throws Exception {
        AtomicInteger first = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        FakeDns a = dns(q -> {
            first.incrementAndGet();
            return FakeDns.response(q, 0, false, Record.address("10.0.0.1", 0));
        });
        FakeDns b = dns(q -> {
            second.incrementAndGet();
            return FakeDns.response(q, 0, false, Record.address("10.0.0.2", 0));
        });
        Resolver r = resolver("127.0.0.1:" + a.port(), "127.0.0.1:" + b.port(), "ipv6=off");
        for (int i = 0; i < 4; i++) {
            assertEquals(0, lookup(r, "n" + i + ".test", 10_000).state());
        }
        assertEquals(2, first.get());
        assertEquals(2, second.get());
    }

    @Test
    void forgedAndMalformedAnswersAreDropped() throws Exception {
        AtomicInteger n = new AtomicInteger();
        FakeDns d = dns(q -> {
            byte[] good = FakeDns.response(q, 0, false, Record.address("10.3.3.3", 60));
            if (n.incrementAndGet() == 1) {
                byte[] forged = good.clone();
                forged[1] ^= 1;
                return forged;
            }
            return good;
        });
        // the forged answer is logged and ignored; the query is sent again 5 s later and answered
        Resolution res = lookup(resolver("127.0.0.1:" + d.port(), "ipv6=off"), "f.test", 10_000);
        assertEquals(0, res.state(), log());
        assertTrue(log().contains("wrong ident "), log());
        assertTrue(log().contains(" response for f.test, expect "), log());
    }

    @Test
    void literalAddressNeedsNoQuery() throws Exception {
        FakeDns d = dns(q -> null);
        Resolution res = lookup(resolver("127.0.0.1:" + d.port()), "192.168.1.7", 1000);
        assertEquals(List.of(InetAddress.getByName("192.168.1.7")), res.addresses());
        assertEquals(0, d.queries().size());
    }

    @Test
    void cancelDropsTheQuery() throws Exception {
        FakeDns d = dns(q -> null);
        Resolver r = resolver("127.0.0.1:" + d.port());
        boolean[] called = {false};
        loop.updateTime();
        Resolution ctx = r.resolve(loop, "c.test", 60_000, x -> called[0] = true);
        turnUntil(() -> d.queries().size() >= 2);
        ctx.cancel();
        assertEquals(64, loop.freeConnectionCount());
        assertEquals(0, loop.timerCount(), "no timer is left");
        assertTrue(!called[0]);
    }

    @Test
    void directiveErrors() {
        assertEquals("invalid parameter: valid=x", assertThrows(ConfException.class,
            () -> resolver("127.0.0.1", "valid=x")).getMessage());
        assertEquals("invalid parameter: ipv6=maybe", assertThrows(ConfException.class,
            () -> resolver("127.0.0.1", "ipv6=maybe")).getMessage());
        assertEquals("\"ipv4\" and \"ipv6\" cannot both be \"off\"", assertThrows(ConfException.class,
            () -> resolver("127.0.0.1", "ipv4=off", "ipv6=off")).getMessage());
        assertEquals("no name servers defined", assertThrows(ConfException.class,
            () -> resolver("valid=5s")).getMessage());
        assertEquals("invalid port in resolver \"127.0.0.1:99999\"", assertThrows(ConfException.class,
            () -> resolver("127.0.0.1:99999")).getMessage());
        assertEquals("host not found in resolver \"no-such-host.invalid\"", assertThrows(ConfException.class,
            () -> resolver("no-such-host.invalid")).getMessage());
    }
}
