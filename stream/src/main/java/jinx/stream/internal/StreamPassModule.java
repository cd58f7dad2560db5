package jinx.stream.internal;

import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.Connection;
import jinx.kernel.Listening;
import jinx.kernel.LogLevel;
import jinx.kernel.os.SockAddr;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Directive;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamConfig;

/**
 * nginx's {@code ngx_stream_pass_module} (1.25.5): {@code pass address;} hands the accepted connection to the
 * listening socket of that address in this worker's cycle (an HTTP server's, or another stream server's), whose
 * handler takes it as if it had accepted it. No kernel seam is needed: the cycle's listening sockets and their
 * handlers are the kernel's exported API ({@code Cycle.listening()}, {@code Listening.handler},
 * {@code Connection.listening}). As in nginx the stream session ends without its log phase, and more than 10
 * passes of one connection are a cycle.
 */
public final class StreamPassModule extends StreamModuleBase {

    /** The module's name. */
    public static final String NAME = "stream_pass";

    /* nginx's NGX_STREAM_PASS_MAX_PASSES */
    private static final int MAX_PASSES = 10;

    /** A server's {@code pass}: an address, or a value with variables. */
    static final class SrvConf {
        SockAddr addr;
        StreamValue value;
    }

    /** What a passed connection carries to the next stream session (nginx's pool cleanup counting passes). */
    record Passes(int count) {
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("pass", Set.of(SRV), Arity.TAKE1, SrvConf.class, StreamPassModule::pass)
            .syntax("address")
            .describe("Passes the accepted connection to the listening socket of the address in this worker."));

    /** The module; the kernel makes one per cycle. */
    public StreamPassModule() {
        super(NAME, DIRECTIVES);
    }

    @Override
    public Object createSrvConf() {
        return new SrvConf();
    }

    /** nginx's {@code ngx_stream_pass()}. */
    private static void pass(ConfContext cf, SrvConf conf) throws ConfException {
        if (conf.addr != null || conf.value != null) {
            throw new ConfException("\"pass\" directive is duplicate");
        }
        StreamConfig.contentHandler(cf, s -> handler(s, conf));
        String url = cf.arg(1);
        if (url.indexOf('$') >= 0) {
            conf.value = StreamValue.compile(StreamConfig.of(cf), url);
            return;
        }
        try {
            conf.addr = parse(url);
        } catch (IllegalArgumentException e) {
            throw new ConfException(e.getMessage() + " in \"" + url + "\" of the \"pass\" directive");
        }
        if (conf.addr == null) {
            throw new ConfException("\"pass\" directive has no port");
        }
    }

    /** The address, or null without a port (nginx's {@code u.no_port}). */
    private static SockAddr parse(String url) {
        SockAddr a = SockAddr.resolve(url, 0).get(0);
        return !a.isUnix() && a.port() == 0 ? null : a;
    }

    /** nginx's {@code ngx_stream_pass_handler()}. */
    static void handler(StreamSession ss, SrvConf conf) {
        Session s = (Session) ss;
        Connection c = s.c;
        s.logAction("passing connection to port");
        if (s.preread != null && s.preread.position() > 0) {
            s.log(LogLevel.ERROR, 0, "cannot pass connection with preread data");
            s.finalizeSession(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
            return;
        }
        SockAddr addr = conf.addr;
        if (addr == null) {
            String url = conf.value.evaluate(s);
            try {
                addr = parse(url);
            } catch (IllegalArgumentException e) {
                s.log(LogLevel.ERROR, 0, e.getMessage() + " in pass \"" + url + "\"");
                s.finalizeSession(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
                return;
            }
            if (addr == null) {
                s.log(LogLevel.ERROR, 0, "no port in pass \"" + url + "\"");
                s.finalizeSession(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
                return;
            }
        }
        if (s.passes + 1 > MAX_PASSES) {
            s.log(LogLevel.ERROR, 0, "stream pass cycle");
            s.finalizeSession(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
            return;
        }
        for (Listening ls : s.block.cycle.listening()) {
            if (!match(ls.sockaddr(), addr)) {
                continue;
            }
            // the connection is the new listening socket's now: no log phase, no close here (nginx)
            c.listening = ls;
            c.data = new Passes(s.passes + 1);
            c.read.handler = ev -> { };
            c.write.handler = ev -> { };
            ls.handler.accept(c);
            return;
        }
        s.log(LogLevel.ERROR, 0, "port not found for \"" + addr + "\"");
        s.finalizeSession(StreamSession.STATUS_OK);
    }

    /** nginx's {@code ngx_stream_pass_match()}: the address, or a wildcard's family and port. */
    private static boolean match(SockAddr ls, SockAddr addr) {
        if (ls.isUnix() || addr.isUnix() || !ls.isWildcard()) {
            return ls.equals(addr);
        }
        return ls.family() == addr.family() && ls.port() == addr.port();
    }
}
