package jinx.http.internal.request;

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
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/** The engine tests' content module, {@code http_test_content}: what it answers is in {@link EngineFixture}. */
final class TestContentModule implements JinxModule, HttpModule {

    @Override
    public String name() {
        return "http_test_content";
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
    public List<String> after() {
        return List.of("http_core");
    }

    /** Before the standard content modules: http_static answers 404 itself, as nginx's does, and never declines. */
    @Override
    public List<String> before() {
        return List.of("http_rewrite");
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        cf.addPhaseHandler(Phase.REWRITE, TestContentModule::rewrite);
        cf.addPhaseHandler(Phase.ACCESS, r -> access(r, "deny1", "allow1"));
        cf.addPhaseHandler(Phase.ACCESS, r -> access(r, "deny2", "allow2"));
        cf.addPhaseHandler(Phase.CONTENT, TestContentModule::handle);
    }

    /** {@code /rw/X} becomes {@code /echo/X}; {@code /rwloop/} changes the URI to itself, for ever. */
    static int rewrite(HttpRequest r) {
        CoreRequest cr = (CoreRequest) r;
        if (r.uri.startsWith("/rw/")) {
            r.uri = "/echo/" + r.uri.substring("/rw/".length());
            cr.uriChanged = true;
        } else if (r.uri.startsWith("/rwloop/")) {
            cr.uriChanged = true;
        }
        return Rc.DECLINED;
    }

    /** Denies (403) when the URI holds {@code deny}, allows when it holds {@code allow}, else declines. */
    static int access(HttpRequest r, String deny, String allow) {
        if (r.uri.contains(deny)) {
            return 403;
        }
        return r.uri.contains(allow) ? Rc.OK : Rc.DECLINED;
    }

    static int handle(HttpRequest r) {
        String uri = r.uri;
        if (r instanceof CoreRequest cr && cr.clcf().named) {
            r.discardRequestBody();
            return respond(r, "named " + cr.clcf().name + " uri=" + uri + "\n");
        }
        if (uri.startsWith("/echo")) {
            int rc = r.discardRequestBody();
            if (rc != Rc.OK) {
                return rc;
            }
            return respond(r, "uri=" + r.uri + " args=" + r.args + "\n");
        }
        if (uri.startsWith("/big/")) {
            r.discardRequestBody();
            return respond(r, "x".repeat(Integer.parseInt(uri.substring("/big/".length()))));
        }
        if (uri.startsWith("/status/")) {
            return Integer.parseInt(uri.substring("/status/".length()));
        }
        if (uri.startsWith("/redirect/")) {
            return r.internalRedirect(uri.substring("/redirect".length()), null);
        }
        if (uri.startsWith("/named/")) {
            return r.namedLocation("@" + uri.substring("/named/".length()));
        }
        if (uri.startsWith("/sub/")) {
            return SubrequestRoutes.handle(r);
        }
        return Rc.DECLINED;
    }

    static int respond(HttpRequest r, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.ISO_8859_1);
        r.headersOut.status = 200;
        r.headersOut.contentType = "text/plain";
        r.headersOut.contentLengthN = bytes.length;
        int rc = r.sendHeader();
        if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) {
            return rc;
        }
        ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
        b.put(bytes).flip();
        Buf buf = Buf.of(b);
        buf.last = true;
        buf.lastInChain = true;
        return r.outputFilter(BufChain.of(buf));
    }
}
