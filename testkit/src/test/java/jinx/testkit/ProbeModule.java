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
 * handler, everything else declines. {@code failIn} makes {@code initModule} or {@code initProcess} throw.
 */
final class ProbeModule implements JinxModule, HttpModule {

    private final String failIn;

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
        cf.addPhaseHandler(Phase.CONTENT, ProbeModule::handle);
    }

    private static int handle(HttpRequest r) {
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
