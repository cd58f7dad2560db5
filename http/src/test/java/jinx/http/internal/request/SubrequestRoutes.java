package jinx.http.internal.request;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import jinx.http.HttpRequest;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Rc;

/**
 * The {@code /sub/} content of {@link EngineFixture}'s test module: handlers that start subrequests through the SPI,
 * as a third-party module would.
 * <ul>
 * <li>{@code /sub/order}: {@code A}, a subrequest to {@code /echo/1}, {@code B}, one to {@code /echo/2}, {@code C}:
 * the postponed output must come in that order;</li>
 * <li>{@code /sub/nest/N}: {@code N;} (flushed) and a subrequest to {@code /sub/nest/N+1}, without end: the core's limit
 * stops it;</li>
 * <li>{@code /sub/mem/N}: an in-memory, waited subrequest to {@code /big/N}; the parent answers with what it
 * collected, or with its status when it failed.</li>
 * </ul>
 */
final class SubrequestRoutes {

    private SubrequestRoutes() {
    }

    static int handle(HttpRequest r) {
        String uri = r.uri;
        if (uri.equals("/sub/order")) {
            return order(r);
        }
        if (uri.startsWith("/sub/nest/")) {
            return nest(r, Integer.parseInt(uri.substring("/sub/nest/".length())));
        }
        if (uri.startsWith("/sub/mem/")) {
            return memory(r, uri.substring("/sub/mem/".length()));
        }
        return Rc.DECLINED;
    }

    private static int order(HttpRequest r) {
        r.headersOut.status = 200;
        r.headersOut.contentType = "text/plain";
        int rc = r.sendHeader();
        if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) {
            return rc;
        }
        if (send(r, "A\n", false) == Rc.ERROR || r.subrequest("/echo/1", "x=1", 0, null) == null
            || send(r, "B\n", false) == Rc.ERROR || r.subrequest("/echo/2", null, 0, null) == null) {
            return Rc.ERROR;
        }
        return send(r, "C\n", true);
    }

    private static int nest(HttpRequest r, int n) {
        if (r.main() == r) {
            r.headersOut.status = 200;
            r.headersOut.contentType = "text/plain";
            int rc = r.sendHeader();
            if (rc == Rc.ERROR || rc > Rc.OK) {
                return rc;
            }
        }
        if (send(r, n + ";", false, true) == Rc.ERROR
            || r.subrequest("/sub/nest/" + (n + 1), null, 0, null) == null) {
            return Rc.ERROR;
        }
        return send(r, "", true);
    }

    private static int memory(HttpRequest r, String size) {
        String[] got = new String[1];
        HttpRequest sr = r.subrequest("/big/" + size, null, HttpRequest.SUBREQUEST_IN_MEMORY
            | HttpRequest.SUBREQUEST_WAITED, (s, rc) -> {
                Buf out = s.subrequestOutput();
                got[0] = rc + " " + s.headersOut.status + " ["
                    + (out == null ? "" : StandardCharsets.ISO_8859_1.decode(out.mem.duplicate())) + "]";
                return rc;
            });
        if (sr == null) {
            return Rc.ERROR;
        }
        r.retain();
        r.writeEventHandler(p -> {
            p.writeEventHandler(null);
            p.finalizeRequest(TestContentModule.respond(p, "mem " + got[0] + "\n"));
        });
        return Rc.DONE;
    }

    private static int send(HttpRequest r, String text, boolean last) {
        return send(r, text, last, false);
    }

    private static int send(HttpRequest r, String text, boolean last, boolean flush) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        Buf b;
        if (bytes.length == 0) {
            b = new Buf();
        } else {
            ByteBuffer m = ByteBuffer.allocateDirect(bytes.length);
            m.put(bytes).flip();
            b = Buf.of(m);
        }
        b.last = last && r.main() == r;
        b.lastInChain = last;
        b.sync = last && r.main() != r;
        b.flush = flush;
        return r.outputFilter(BufChain.of(b));
    }
}
