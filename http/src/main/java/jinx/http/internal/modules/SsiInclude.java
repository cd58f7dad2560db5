package jinx.http.internal.modules;

import java.nio.ByteBuffer;

import jinx.http.HttpRequest;
import jinx.http.internal.parse.HttpParser;
import jinx.http.internal.parse.UriArgs;
import jinx.http.internal.request.CoreRequest;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Rc;

/**
 * SSI's {@code include}, nginx's {@code ngx_http_ssi_include()}, {@code ngx_http_ssi_stub_output()} and
 * {@code ngx_http_ssi_set_variable()}: a subrequest whose output takes the command's place. {@code file} is
 * waited for, as nginx does; {@code wait="yes"} waits for a {@code virtual} one; {@code set} keeps an in-memory
 * subrequest's body in a variable; {@code stub} outputs a block when the subrequest output nothing.
 */
final class SsiInclude {

    static final int VIRTUAL = 0;
    static final int FILE = 1;
    static final int WAIT = 2;
    static final int SET = 3;
    static final int STUB = 4;

    private SsiInclude() {
    }

    static int include(HttpRequest r, SsiFilter ctx, String[] params) {
        String uri = params[VIRTUAL];
        String file = params[FILE];
        String wait = params[WAIT];
        String set = params[SET];
        String stub = params[STUB];
        if (uri != null && file != null) {
            // sic: nginx's own spelling
            ctx.log("inlcusion may be either virtual=\"" + uri + "\" or file=\"" + file + "\"");
            return SsiFilter.SSI_ERROR;
        }
        if (uri == null && file == null) {
            ctx.log("no parameter in \"include\" SSI command");
            return SsiFilter.SSI_ERROR;
        }
        if (set != null && stub != null) {
            ctx.log("\"set\" and \"stub\" cannot be used together in \"include\" SSI command");
            return SsiFilter.SSI_ERROR;
        }
        boolean waited = false;
        if (wait != null) {
            if (uri == null) {
                ctx.log("\"wait\" cannot be used with file=\"" + file + "\"");
                return SsiFilter.SSI_ERROR;
            }
            if (wait.equalsIgnoreCase("yes")) {
                waited = true;
            } else if (!wait.equalsIgnoreCase("no")) {
                ctx.log("invalid value \"" + wait + "\" in the \"wait\" parameter");
                return SsiFilter.SSI_ERROR;
            }
        }
        if (uri == null) {
            uri = file;
            waited = true;
        }
        uri = SsiIf.evaluate(r, ctx, uri, true);
        if (uri == null) {
            return SsiFilter.SSI_ERROR;
        }
        UriArgs ua = HttpParser.parseUnsafeUri(uri);
        if (ua == null) {
            ctx.log("unsafe URI \"" + uri + "\" was detected");
            return SsiFilter.SSI_ERROR;
        }
        HttpRequest.PostSubrequest ps = null;
        if (stub != null) {
            SsiFilter.Block bl = block(ctx, stub);
            if (bl == null) {
                ctx.log("\"stub\"=\"" + stub + "\" for \"include\" not found");
                return SsiFilter.SSI_ERROR;
            }
            ps = (sr, rc) -> stubOutput(sr, rc, bl);
        }
        int flags = waited ? HttpRequest.SUBREQUEST_WAITED : 0;
        if (set != null) {
            String name = CoreOutput.lowerAscii(set);
            ctx.shared.variables.putIfAbsent(name, "");
            ps = (sr, rc) -> setVariable(ctx, name, sr, rc);
            flags |= HttpRequest.SUBREQUEST_IN_MEMORY | HttpRequest.SUBREQUEST_WAITED;
        }
        HttpRequest sr = r.subrequest(ua.uri(), ua.args(), flags, ps);
        if (sr == null) {
            return SsiFilter.SSI_ERROR;
        }
        if (!waited && set == null) {
            return Rc.OK;
        }
        if (ctx.wait == null) {
            ctx.wait = sr;
            return Rc.AGAIN;
        }
        ctx.log("can only wait for one subrequest at a time");
        return Rc.OK;
    }

    private static SsiFilter.Block block(SsiFilter ctx, String name) {
        for (SsiFilter.Block bl : ctx.shared.blocks) {
            if (bl.name.equals(name)) {
                return bl;
            }
        }
        return null;
    }

    /** nginx's {@code ngx_http_ssi_stub_output()}: the block, when the subrequest output nothing. */
    private static int stubOutput(HttpRequest sr, int rc, SsiFilter.Block bl) {
        if (rc == Rc.ERROR || sr.connection().error || sr instanceof CoreRequest c && c.requestOutput) {
            return rc;
        }
        if (!sr.headerSent) {
            sr.headersOut.contentType = sr.parent().headersOut.contentType;
            if (sr.sendHeader() == Rc.ERROR) {
                return Rc.ERROR;
            }
        }
        if (bl.content.size() == 0) {
            return sr.outputFilter(null);
        }
        return sr.outputFilter(BufChain.of(bl.content.toBuf()));
    }

    /**
     * nginx's {@code ngx_http_ssi_set_variable()}: the variable takes the subrequest's body (nginx takes only an
     * upstream's buffer; here any in-memory body).
     */
    private static int setVariable(SsiFilter ctx, String name, HttpRequest sr, int rc) {
        Buf b = sr.subrequestOutput();
        String value = "";
        if (b != null && b.mem != null) {
            ByteBuffer m = b.mem.duplicate();
            StringBuilder s = new StringBuilder(m.remaining());
            while (m.hasRemaining()) {
                s.append((char) (m.get() & 0xff));
            }
            value = s.toString();
        }
        ctx.shared.variables.put(name, value);
        return rc;
    }
}
