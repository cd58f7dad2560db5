package jinx.http.internal.modules;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jinx.http.HttpRequest;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.variables.Variables;
import jinx.http.spi.BodyFilter;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;

/**
 * One request's SSI processing, nginx's {@code ngx_http_ssi_ctx_t} and the loop of
 * {@code ngx_http_ssi_body_filter()}: input buffers wait in order, the {@link SsiParser} turns them into text and
 * commands, and the text and what commands produce go down in new memory buffers. An {@code include} that waits
 * for its subrequest stops the loop with the rest of the input held here (the request's {@code buffered} bit set)
 * until the subrequest is done and the writer pushes again. File data is read into memory first ({@link FileCopy}).
 */
final class SsiFilter implements SsiParser.Sink, BodyFilter.Next, Runnable {

    /** What the main request's SSI and its subrequests' share: nginx keeps it in the main request's context. */
    static final class Shared {
        /** {@code set} and {@code include set} variables, and named captures. */
        final Map<String, String> variables = new HashMap<>();
        /** {@code block}s, in order. */
        final List<Block> blocks = new ArrayList<>();
        /** The captures of the last regex {@code if} that matched, for {@code $0} to {@code $9}. */
        String[] captures = new String[0];
    }

    /** A {@code block}: its content, commands written again as text. */
    static final class Block {
        final String name;
        final SsiBytes content = new SsiBytes();

        Block(String name) {
            this.name = name;
        }
    }

    /** nginx's {@code NGX_HTTP_SSI_COND_IF}. */
    static final int COND_IF = 1;
    /** nginx's {@code NGX_HTTP_SSI_COND_ELSE}. */
    static final int COND_ELSE = 2;
    /** The {@code echo} encodings. */
    static final int NO_ENCODING = 0;
    static final int URL_ENCODING = 1;
    static final int ENTITY_ENCODING = 2;
    /** A handler's result for an SSI error: the error message goes out in the command's place. */
    static final int SSI_ERROR = 1;

    final SsiFilterModule.SsiConf conf;
    /** The cycle's variables, for names a document gives at run time. */
    final Variables variables;
    final Shared shared;
    final SsiParser parser;
    private final FileCopy copy = new FileCopy();
    private final ArrayDeque<Buf> in = new ArrayDeque<>();
    private Buf cur;
    /** Text waiting to go down. */
    private final SsiBytes text = new SsiBytes();
    private BufChain out;
    private BufChain outTail;
    private BodyFilter.Next next;
    private boolean cleanup;

    boolean output = true;
    boolean outputChosen;
    boolean block;
    int conditional;
    int encoding = ENTITY_ENCODING;
    String timefmt = SsiTime.DEFAULT_FORMAT;
    String errmsg = "[an error occurred while processing the directive]";
    /** The subrequest the document waits for, or null (nginx's {@code ctx->wait}). */
    HttpRequest wait;
    HttpRequest request;

    SsiFilter(SsiFilterModule.SsiConf conf, Shared shared, Variables variables) {
        this.conf = conf;
        this.variables = variables;
        this.shared = shared;
        this.parser = new SsiParser((int) Math.min(conf.valueLen, Integer.MAX_VALUE - 8));
    }

    @Override
    public void run() {
        copy.release();
    }

    /** The body filter: file data is read into memory first. */
    int filter(HttpRequest r, BufChain chain, BodyFilter.Next next) {
        this.next = next;
        this.request = r;
        if (!cleanup) {
            cleanup = true;
            r.addCleanup(this);
        }
        if (copy.busy() || chain != null && FileCopy.hasFile(chain)) {
            return copy.filter(r, chain, this);
        }
        return filter(r, chain);
    }

    @Override
    public int filter(HttpRequest r, BufChain chain) {
        if (chain == null && cur == null && in.isEmpty()) {
            return next.filter(r, null);
        }
        for (BufChain cl = chain; cl != null; cl = cl.next) {
            in.add(cl.buf);
        }
        if (wait != null) {
            if (!(r instanceof CoreRequest cr) || !cr.active()) {
                return Rc.AGAIN;
            }
            if (!(wait instanceof CoreRequest w) || !w.isDone()) {
                return next.filter(r, null);
            }
            wait = null;
        }
        while (cur != null || !in.isEmpty()) {
            if (cur == null) {
                cur = in.poll();
            }
            ByteBuffer mem = cur.inMemory() ? cur.mem : null;
            while (mem != null && mem.hasRemaining()) {
                int rc = parser.parse(mem, this);
                if (rc == SsiParser.AGAIN) {
                    break;
                }
                if (rc == SsiParser.COMMAND) {
                    rc = SsiCommands.run(r, this);
                    if (rc == Rc.OK) {
                        continue;
                    }
                    if (rc != SSI_ERROR) {
                        buffered(r);
                        return rc;
                    }
                }
                if (conf.silentErrors == 0) {
                    emit(errmsg);
                }
            }
            if (cur.last || cur.lastInChain || cur.flush) {
                flushText();
                Buf b = new Buf();
                b.last = cur.last;
                b.lastInChain = cur.lastInChain;
                b.flush = cur.flush;
                append(b);
            }
            cur = null;
        }
        return output(r);
    }

    /** Passes what waits down (nginx's {@code ngx_http_ssi_output()}). */
    int output(HttpRequest r) {
        flushText();
        BufChain o = out;
        out = null;
        outTail = null;
        int rc = o == null ? Rc.OK : next.filter(r, o);
        buffered(r);
        return rc;
    }

    /** Tells whether output waits to go down. */
    boolean hasOutput() {
        return out != null || text.size() > 0;
    }

    @Override
    public void text(byte[] b, int off, int len) {
        if (output) {
            text.write(b, off, len);
        } else if (block && !shared.blocks.isEmpty()) {
            shared.blocks.get(shared.blocks.size() - 1).content.write(b, off, len);
        }
    }

    /** Text a command produced, one char per byte. */
    void emit(String s) {
        text.write(s);
    }

    @Override
    public void error(String message) {
        log(message);
    }

    void log(String message) {
        request.log(LogLevel.ERROR, 0, message);
    }

    private void flushText() {
        if (text.size() == 0) {
            return;
        }
        append(text.toBuf());
        text.reset();
    }

    private void append(Buf b) {
        BufChain link = new BufChain(b, null);
        if (outTail == null) {
            out = link;
        } else {
            outTail.next = link;
        }
        outTail = link;
    }

    private void buffered(HttpRequest r) {
        if (r instanceof CoreRequest cr) {
            boolean held = cur != null || !in.isEmpty();
            cr.buffered = held ? cr.buffered | SsiFilterModule.SSI_BUFFERED
                : cr.buffered & ~SsiFilterModule.SSI_BUFFERED;
        }
    }
}
