package jinx.testkit;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import jinx.http.HttpRequest;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * A module for the kit's own tests: {@code /probe} answers {@code probe}, {@code /throw} throws from the CONTENT
 * handler, {@code /send} and {@code /send.html} answer with {@code sendResponse}, {@code /state} sets both kinds of
 * state and redirects to {@code /state-after}, which shows them; everything else declines. {@code failIn} makes {@code initModule} or {@code initProcess} throw.
 */
final class ProbeModule implements JinxModule, HttpModule {

    private final String failIn;
    private int ctxIndex;

    ProbeModule(String failIn) {
        this.failIn = failIn;
    }

    @Override
    public String name() {
        return "kit_probe";
    }

    @Override
    public ModuleType type() {
        return HttpCtx.HTTP;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public List<String> before() {
        return List.of("http_index");
    }

    @Override
    public void initModule(Cycle cycle) {
        if ("initModule".equals(failIn)) {
            throw new IllegalStateException("probe refuses initModule");
        }
    }

    @Override
    public void initProcess(Cycle cycle) {
        if ("initProcess".equals(failIn)) {
            throw new IllegalStateException("probe refuses initProcess");
        }
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addPhaseHandler(Phase.CONTENT, this::handle);
    }

    private int handle(HttpRequest r) {
        if (r.uri.equals("/state")) {
            r.ctx(ctxIndex, "set");
            r.keptCtx(ctxIndex, "kept " + r.args);
            return r.internalRedirect("/state-after", null);
        }
        if (r.uri.equals("/state-after")) {
            return r.sendResponse(200, "text/plain", "ctx=" + r.ctx(ctxIndex) + " kept=" + r.keptCtx(ctxIndex) + "\n");
        }
        if (r.uri.equals("/throw")) {
            throw new IllegalArgumentException("probe handler bug");
        }
        if (r.uri.equals("/send")) {
            return r.sendResponse(201, "text/x-probe", "sent é\n");
        }
        if (r.uri.equals("/send.html")) {
            // the type of the extension, a body larger than the pooled output memory
            return r.sendResponse(200, null, "x".repeat(5000).getBytes(StandardCharsets.ISO_8859_1));
        }
        if (!r.uri.equals("/probe")) {
            return Rc.DECLINED;
        }
        byte[] bytes = "probe\n".getBytes(StandardCharsets.ISO_8859_1);
        r.headersOut.status = 200;
        r.headersOut.contentLengthN = bytes.length;
        int rc = r.sendHeader();
        if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) {
            return rc;
        }
        ByteBuffer data = ByteBuffer.allocateDirect(bytes.length);
        data.put(bytes).flip();
        Buf b = Buf.of(data);
        b.last = true;
        b.lastInChain = true;
        return r.outputFilter(BufChain.of(b));
    }
}
