package jinx.http.internal.modules;

import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.filter.OutBufs;
import jinx.http.internal.request.BufferPool;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.http.spi.HttpModule;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_empty_gif} module, nginx's {@code ngx_http_empty_gif_module.c}: {@code empty_gif} in a location
 * answers GET and HEAD with nginx's 43-byte transparent GIF, {@code image/gif}, and nginx's fixed
 * {@code Last-Modified} (23349600, 1970-09-28); other methods get 405.
 */
public final class EmptyGifModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_empty_gif";

    /** The smallest transparent GIF, byte for byte nginx's {@code ngx_empty_gif}. */
    private static final String GIF = "GIF89a\u0001\u0000\u0001\u0000\u0080\u0001\u0000\u0000\u0000\u0000"
        + "\u00ff\u00ff\u00ff\u0021\u00f9\u0004\u0001\u0000\u0000\u0001\u0000\u002c\u0000\u0000\u0000\u0000"
        + "\u0001\u0000\u0001\u0000\u0000\u0002\u0002\u004c\u0001\u0000\u003b";
    private static final long LAST_MODIFIED = 23349600;
    private static final Buf BODY = CoreOutput.memory(GIF);

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("empty_gif", Set.of(HttpCtx.LOC), Arity.NOARGS,
            (cf, unused) -> HttpDirectives.contentHandler(cf, EmptyGifModule::handler))
            .syntax("").describe("Turns on module processing in a surrounding location."));

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public EmptyGifModule() {
    }

    @Override
    public String name() {
        return NAME;
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
    public List<Directive<?>> directives() {
        return DIRECTIVES;
    }

    @Override
    public Object context() {
        return this;
    }

    /** nginx's {@code ngx_http_empty_gif_handler()}. */
    static int handler(HttpRequest r) {
        if ((r.method & (HttpRequest.GET | HttpRequest.HEAD)) == 0) {
            return 405;
        }
        int rc = r.discardRequestBody();
        if (rc != Rc.OK) {
            return rc;
        }
        r.headersOut.contentType = "image/gif";
        r.headersOut.status = 200;
        r.headersOut.contentLengthN = GIF.length();
        r.headersOut.lastModifiedTime = LAST_MODIFIED;
        rc = r.sendHeader();
        if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) {
            return rc;
        }
        BufferPool pool = BufferPool.current();
        Buf b = OutBufs.descriptor(pool);
        b.mem = BODY.mem.duplicate();
        b.last = true;
        b.lastInChain = true;
        BufChain cl = pool.link(b);
        int result = r.outputFilter(cl);
        pool.free(cl);
        return result;
    }
}
