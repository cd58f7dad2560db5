package jinx.stream.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.Connection;
import jinx.kernel.EventConnect;
import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Directive;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamConfig;

/**
 * nginx's {@code ngx_stream_return_module}: {@code return value;} sends the value (with variables) to the client
 * and closes the connection; an empty value closes it at once.
 */
public final class StreamReturnModule extends StreamModuleBase {

    /** The module's name. */
    public static final String NAME = "stream_return";

    /** nginx's write handler waits 5 s for the client to take the text. */
    private static final long SEND_TIMEOUT = 5000;

    /** A server's {@code return}. */
    static final class SrvConf {
        StreamValue text;
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("return", Set.of(SRV), Arity.TAKE1, SrvConf.class, StreamReturnModule::returnDirective)
            .syntax("value").describe("Specifies a value to send to the client."));

    /**
     * The module; the kernel makes one per cycle.
     */
    public StreamReturnModule() {
        super(NAME, DIRECTIVES);
    }

    @Override
    public Object createSrvConf() {
        return new SrvConf();
    }

    private static void returnDirective(ConfContext cf, SrvConf conf) throws ConfException {
        StreamValue text = StreamValue.compile(StreamConfig.of(cf), cf.arg(1));
        conf.text = text;
        StreamConfig.contentHandler(cf, s -> handler(s, text));
    }

    /** nginx's {@code ngx_stream_return_handler()}. */
    private static void handler(StreamSession s, StreamValue value) {
        String text = value.evaluate(s);
        if (text.isEmpty()) {
            s.finalizeSession(StreamSession.STATUS_OK);
            return;
        }
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer out = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        Connection c = s.connection();
        c.write.handler = ev -> write(s, out);
        write(s, out);
    }

    private static void write(StreamSession s, ByteBuffer out) {
        Connection c = s.connection();
        EventLoop loop = c.loop();
        if (c.write.timedout) {
            s.log(LogLevel.INFO, EventConnect.ETIMEDOUT, "connection timed out");
            s.finalizeSession(StreamSession.STATUS_OK);
            return;
        }
        while (out.hasRemaining()) {
            int n = c.io().send(c, out);
            if (n == Rc.ERROR) {
                s.finalizeSession(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
                return;
            }
            if (n == Rc.AGAIN) {
                break;
            }
        }
        if (!out.hasRemaining()) {
            s.finalizeSession(StreamSession.STATUS_OK);
            return;
        }
        if (loop.handleWriteEvent(c.write) != Rc.OK) {
            s.finalizeSession(StreamSession.STATUS_INTERNAL_SERVER_ERROR);
            return;
        }
        loop.addTimer(c.write, SEND_TIMEOUT);
    }
}
