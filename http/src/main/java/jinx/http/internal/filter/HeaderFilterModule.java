package jinx.http.internal.filter;

import java.util.List;

import jinx.http.HeadersOut;
import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.core.HttpCoreSrvConf;
import jinx.http.internal.request.BufferPool;
import jinx.http.internal.request.CoreRequest;
import jinx.http.internal.variables.RequestFacts;
import jinx.http.internal.variables.TimeFormats;
import jinx.http.spi.BodyFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.kernel.Buf;
import jinx.kernel.ConfException;
import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.Cycle;
import jinx.kernel.LoadedModule;
import jinx.kernel.LoopLocal;
import jinx.kernel.Rc;
import jinx.kernel.os.SockAddr;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_header_filter} module, nginx's {@code ngx_http_header_filter_module.c}: the last header filter.
 * It writes the status line and the headers, in nginx's order — {@code Server}, {@code Date},
 * {@code Content-Type}, {@code Content-Length}, {@code Last-Modified}, {@code Location} (made absolute),
 * {@code Transfer-Encoding}, {@code Connection}, {@code Keep-Alive}, then every other header in the order it was
 * added — into one buffer and hands it straight to the write filter. An HTTP/0.9 response has no header; a HEAD
 * request, a 204 and a 304 are header only.
 */
public final class HeaderFilterModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_header_filter";

    private static final String CRLF = "\r\n";
    private static final byte[] CRLF_BYTES = HeaderBytes.bytes(CRLF);
    private static final byte[] SERVER = HeaderBytes.bytes("Server: jinx" + CRLF);
    private static final byte[] HTTP_11 = HeaderBytes.bytes("HTTP/1.1 ");
    private static final byte[] DATE = HeaderBytes.bytes("Date: ");
    private static final byte[] CONTENT_TYPE = HeaderBytes.bytes("Content-Type: ");
    private static final byte[] CHARSET = HeaderBytes.bytes("; charset=");
    private static final byte[] CONTENT_LENGTH = HeaderBytes.bytes("Content-Length: ");
    private static final byte[] LAST_MODIFIED = HeaderBytes.bytes("Last-Modified: ");
    private static final byte[] LOCATION = HeaderBytes.bytes("Location: ");
    private static final byte[] CHUNKED = HeaderBytes.bytes("Transfer-Encoding: chunked" + CRLF);
    private static final byte[] CONNECTION_UPGRADE = HeaderBytes.bytes("Connection: upgrade" + CRLF);
    private static final byte[] CONNECTION_KEEP_ALIVE = HeaderBytes.bytes("Connection: keep-alive" + CRLF);
    private static final byte[] KEEP_ALIVE = HeaderBytes.bytes("Keep-Alive: timeout=");
    private static final byte[] CONNECTION_CLOSE = HeaderBytes.bytes("Connection: close" + CRLF);
    private static final byte[] VARY = HeaderBytes.bytes("Vary: Accept-Encoding" + CRLF);
    private static final byte[] COLON = HeaderBytes.bytes(": ");

    private byte[] serverFull;
    private byte[] serverBuild;
    private WriteFilterModule output;
    private BodyFilter.Next writer;
    /** {@link #writer} is the write filter itself, which copies the links it is given. */
    private boolean ownWriter;

    /**
     * The module, as {@code ServiceLoader} makes it; {@link #postconfiguration} completes it.
     */
    public HeaderFilterModule() {
        version("unknown");
    }

    /**
     * A header filter sending with {@code writer} (tests).
     *
     * @param version the version {@code server_tokens on} sends
     * @param output the write filter, which keeps the request's output state
     * @param writer where the header's buffer goes
     */
    HeaderFilterModule(String version, WriteFilterModule output, BodyFilter.Next writer) {
        version(version);
        this.output = output;
        this.writer = writer;
    }

    private void version(String version) {
        this.serverFull = HeaderBytes.bytes("Server: jinx/" + version + CRLF);
        this.serverBuild = serverFull;
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
        return ApiVersion.CURRENT;
    }

    @Override
    public Object context() {
        return this;
    }

    /**
     * Registers the filter; as in nginx it sends through the write filter directly, which must be loaded.
     *
     * @param cf the configuration
     * @throws ConfException when {@code http_write_filter} is missing
     */
    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        version(version(cf.cycle()));
        LoadedModule w = cf.cycle() == null ? null : cf.cycle().module(WriteFilterModule.NAME);
        if (w == null || !(w.module() instanceof WriteFilterModule write)) {
            throw new ConfException("module \"" + NAME + "\" needs module \"" + WriteFilterModule.NAME + "\"");
        }
        output = write;
        writer = write::write;
        ownWriter = true;
        cf.addHeaderFilter((r, next) -> filter(r));
    }

    /** The server's version: the kernel's, as {@code $jinx_version} has it. */
    private static String version(Cycle cycle) {
        LoadedModule core = cycle == null ? null : cycle.module("core");
        if (core != null && core.version() != null && !"-".equals(core.version())) {
            return core.version();
        }
        String impl = HeaderFilterModule.class.getPackage().getImplementationVersion();
        return impl != null ? impl : "unknown";
    }

    /** Each loop's header bytes, reused: the header is copied into output memory before the filter returns. */
    private static final LoopLocal<HeaderBytes> BUILDER = new LoopLocal<>(HeaderBytes::new);

    /**
     * The header filter: nginx's {@code ngx_http_header_filter()}.
     *
     * @param r the request
     * @return what the write filter answers, {@link Rc#OK} when no header is sent
     */
    public int filter(HttpRequest r) {
        if (r.headerSent) {
            return Rc.OK;
        }
        r.headerSent = true;
        if (r.main() != r) {
            // a subrequest's header is never sent (nginx)
            return Rc.OK;
        }
        if (r.httpVersion < HttpRequest.VERSION_10) {
            return Rc.OK;
        }
        if (r.method == HttpRequest.HEAD) {
            r.headerOnly = true;
        }
        HeadersOut h = r.headersOut;
        if (h.lastModifiedTime != -1 && h.status != 200 && h.status != 206 && h.status != 304) {
            h.lastModifiedTime = -1;
        }
        HeaderBytes sb = BUILDER.get();
        sb.reset();
        sb.append(HTTP_11).append(statusLine(r)).append(CRLF_BYTES);
        HttpCoreLocConf clcf = CoreConfs.loc(r);
        headers(r, h, clcf, sb);
        sb.append(CRLF_BYTES);

        Buf b = OutBufs.temp(sb.length());
        sb.copyTo(b.mem);
        b.mem.flip();
        if (r.headerOnly) {
            b.last = true;
        }
        output.output(r).headerSize = sb.length();
        if (r instanceof CoreRequest cr) {
            cr.headerSize = sb.length();
        }
        if (!ownWriter) {
            return writer.filter(r, BufChain.of(b));
        }
        // the write filter copies the links it is given: this one goes back to the loop's pool at once
        BufferPool pool = BufferPool.current();
        BufChain cl = pool.link(b);
        int rc = writer.filter(r, cl);
        pool.free(cl);
        return rc;
    }

    /** The status line without the protocol; a 204 or 304 makes the response header only, as in nginx. */
    private static String statusLine(HttpRequest r) {
        HeadersOut h = r.headersOut;
        if (h.statusLine != null && !h.statusLine.isEmpty()) {
            return h.statusLine;
        }
        int status = h.status;
        if (status == 204) {
            r.headerOnly = true;
            h.contentType = null;
            h.lastModifiedTime = -1;
            h.contentLengthN = -1;
        } else if (status == 304) {
            r.headerOnly = true;
        }
        return StatusLines.line(status);
    }

    private void headers(HttpRequest r, HeadersOut h, HttpCoreLocConf clcf, HeaderBytes sb) {
        if (h.server != null) {
            // a module's own Server line, or none (nginx's headers_out.server)
            if (!h.server.removed) {
                line(sb, h.server);
            }
        } else if (clcf.serverTokens == HttpCoreLocConf.SERVER_TOKENS_ON) {
            sb.append(serverFull);
        } else if (clcf.serverTokens == HttpCoreLocConf.SERVER_TOKENS_BUILD) {
            sb.append(serverBuild);
        } else {
            sb.append(SERVER);
        }
        sb.append(DATE).append(r.loop().httpTime()).append(CRLF_BYTES);
        if (h.contentType != null && !h.contentType.isEmpty()) {
            sb.append(CONTENT_TYPE).append(h.contentType);
            // nginx appends the charset when the type has no parameters of its own (content_type_len == len)
            if (h.charset != null && !h.charset.isEmpty() && h.contentType.indexOf(';') < 0) {
                sb.append(CHARSET).append(h.charset);
            }
            sb.append(CRLF_BYTES);
        }
        if (h.contentLengthN >= 0) {
            sb.append(CONTENT_LENGTH).append(h.contentLengthN).append(CRLF_BYTES);
        }
        if (h.lastModifiedTime != -1) {
            sb.append(LAST_MODIFIED).append(httpTime(h.lastModifiedTime)).append(CRLF_BYTES);
        }
        HttpHeaders.Entry absolute = absoluteLocation(r, h, clcf);
        if (absolute != null) {
            sb.append(LOCATION).append(absolute.value).append(CRLF_BYTES);
        }
        if (r.chunked) {
            sb.append(CHUNKED);
        }
        if (h.status == 101) {
            sb.append(CONNECTION_UPGRADE);
        } else if (r.keepalive) {
            sb.append(CONNECTION_KEEP_ALIVE);
            if (clcf.keepaliveHeader > 0) {
                sb.append(KEEP_ALIVE).append(clcf.keepaliveHeader).append(CRLF_BYTES);
            }
        } else {
            sb.append(CONNECTION_CLOSE);
        }
        if (r instanceof CoreRequest cr && cr.gzipVary && clcf.gzipVary == 1) {
            sb.append(VARY);
        }
        List<HttpHeaders.Entry> entries = h.headers.entries();
        HttpHeaders.Entry loc = h.location;
        if (loc != null && loc != absolute && !loc.removed && !contains(entries, loc)) {
            // a Location kept only in headersOut.location goes first among the others (nginx lists it there)
            line(sb, loc);
        }
        for (int i = 0, n = entries.size(); i < n; i++) {
            HttpHeaders.Entry e = entries.get(i);
            if (!e.removed && e != absolute) {
                line(sb, e);
            }
        }
    }

    /** A time and its HTTP text. */
    private record Time(long sec, String text) {
    }

    /** Last-Modified texts made lately, a direct-mapped table: a file served again gets the same string. */
    private static final Time[] TIMES = new Time[256];

    private static String httpTime(long sec) {
        int slot = (int) (sec & (TIMES.length - 1));
        Time t = TIMES[slot];
        if (t == null || t.sec != sec) {
            t = new Time(sec, TimeFormats.http(sec));
            TIMES[slot] = t;
        }
        return t.text;
    }

    private static void line(HeaderBytes sb, HttpHeaders.Entry e) {
        sb.append(e.name).append(COLON).append(e.value).append(CRLF_BYTES);
    }

    private static boolean contains(List<HttpHeaders.Entry> entries, HttpHeaders.Entry e) {
        for (int i = 0, n = entries.size(); i < n; i++) {
            if (entries.get(i) == e) {
                return true;
            }
        }
        return false;
    }

    /**
     * Makes a {@code Location} that starts with a slash absolute when {@code absolute_redirect} is on: the scheme,
     * the host ({@code server_name_in_redirect}'s server name, else the request's {@code Host}, else the local
     * address) and the port ({@code port_in_redirect}, unless 80). The header's value is replaced, for logging, as
     * nginx does.
     *
     * @return the Location entry when made absolute (it is then written in its place), else null
     */
    private static HttpHeaders.Entry absoluteLocation(HttpRequest r, HeadersOut h, HttpCoreLocConf clcf) {
        HttpHeaders.Entry loc = h.location;
        if (loc == null || loc.removed || loc.value == null || loc.value.isEmpty() || loc.value.charAt(0) != '/'
            || clcf.absoluteRedirect != 1) {
            return null;
        }
        RequestFacts facts = r instanceof RequestFacts f ? f : null;
        String host;
        if (clcf.serverNameInRedirect == 1) {
            HttpCoreSrvConf cscf = CoreConfs.srv(r);
            host = cscf.serverName == null ? "" : cscf.serverName;
        } else if (r.headersIn.server != null && !r.headersIn.server.isEmpty()) {
            host = r.headersIn.server;
        } else {
            host = facts != null ? facts.serverAddr() : localAddress(r.connection());
        }
        int port = facts != null ? facts.serverPort() : localPort(r.connection());
        boolean ssl = facts != null && facts.ssl();
        if (clcf.portInRedirect == 1) {
            port = port == (ssl ? 443 : 80) ? 0 : port;
        } else {
            port = 0;
        }
        StringBuilder v = new StringBuilder(16 + host.length() + loc.value.length());
        v.append(ssl ? "https://" : "http://").append(host);
        if (port != 0) {
            v.append(':').append(port);
        }
        loc.value = v.append(loc.value).toString();
        return loc;
    }

    private static String localAddress(Connection c) {
        if (c.listening == null) {
            return "";
        }
        SockAddr sa = c.listening.sockaddr();
        if (sa.isUnix()) {
            return "unix:" + sa.path();
        }
        return sa.inetAddress().getHostAddress();
    }

    private static int localPort(Connection c) {
        if (c.listening == null || c.listening.sockaddr().isUnix()) {
            return 0;
        }
        return c.listening.sockaddr().port();
    }
}
