package jinx.http.it;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.io.HttpRequestBody;
import jinx.http.internal.io.RequestBody;
import jinx.http.internal.request.CoreRequest;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.ConfException;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The tests' own content module, loaded beside the real ones as a third-party module would be (nginx-tests use
 * the proxy or a Perl handler for the same): {@code it_echo body;} in a location reads the request body and
 * answers {@code len=N body=TEXT}; {@code it_echo chunked;} answers {@code first second} in two buffers without a
 * length, so HTTP/1.1 gets the chunked encoding and HTTP/1.0 a close. It runs in PRECONTENT, before the standard
 * content handlers, and only in locations that say so.
 */
final class ItModule implements JinxModule, HttpModule {

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("it_echo", Set.of(HttpCtx.LOC), Arity.TAKE1, LocConf.class, (cf, conf) -> {
            conf.mode = cf.arg(1);
        }));

    private int ctxIndex = -1;

    /** The location's mode: body, chunked, or null. */
    static final class LocConf {
        String mode;
    }

    @Override
    public String name() {
        return "http_it_echo";
    }

    @Override
    public ModuleType type() {
        return HttpCtx.HTTP;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.CURRENT;
    }

    @Override
    public List<String> after() {
        return List.of("http_core");
    }

    @Override
    public List<Directive<?>> directives() {
        return DIRECTIVES;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public Object createLocConf() {
        return new LocConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) {
        LocConf c = (LocConf) child;
        if (c.mode == null) {
            c.mode = ((LocConf) parent).mode;
        }
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addPhaseHandler(Phase.PRECONTENT, this::handle);
    }

    private int handle(HttpRequest r) {
        String mode = ((LocConf) r.locConf(ctxIndex)).mode;
        if ("body".equals(mode)) {
            CoreRequest cr = (CoreRequest) r;
            int rc = HttpRequestBody.readClientRequestBody(cr, () -> r.finalizeRequest(respond(r, bodyText(cr))));
            if (rc >= 300) {
                return rc;
            }
            // as ngx_http_mirror_module does in this phase: give back the reference the body reader took
            r.finalizeRequest(Rc.DONE);
            return Rc.DONE;
        }
        if ("chunked".equals(mode)) {
            r.finalizeRequest(chunked(r));
            return Rc.DONE;
        }
        return Rc.DECLINED;
    }

    private static String bodyText(CoreRequest r) {
        RequestBody rb = HttpRequestBody.of(r);
        if (rb == null) {
            return "none";
        }
        return "len=" + rb.size() + (rb.inFile() ? " in file" : " body=" + rb.text());
    }

    private static int chunked(HttpRequest r) {
        int rc = r.discardRequestBody();
        if (rc != Rc.OK) {
            return rc;
        }
        r.headersOut.status = 200;
        r.headersOut.contentType = "text/plain";
        rc = r.sendHeader();
        if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) {
            return rc;
        }
        Buf first = mem("first ");
        first.flush = true;
        r.outputFilter(BufChain.of(first));
        Buf second = mem("second");
        second.last = true;
        second.lastInChain = true;
        return r.outputFilter(BufChain.of(second));
    }

    private static int respond(HttpRequest r, String body) {
        r.headersOut.status = 200;
        r.headersOut.contentType = "text/plain";
        r.headersOut.contentLengthN = body.length();
        int rc = r.sendHeader();
        if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) {
            return rc;
        }
        Buf b = mem(body);
        b.last = true;
        b.lastInChain = true;
        return r.outputFilter(BufChain.of(b));
    }

    private static Buf mem(String s) {
        ByteBuffer b = ByteBuffer.allocateDirect(Math.max(1, s.length()));
        b.put(s.getBytes(StandardCharsets.ISO_8859_1)).flip();
        return Buf.of(b);
    }
}
