package jinx.http.internal.modules;

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.filter.CoreConfs;
import jinx.http.internal.filter.OutBufs;
import jinx.http.internal.request.BufferPool;
import jinx.http.internal.request.CoreRequest;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.Errors;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_static} module, nginx's {@code ngx_http_static_module.c}: a CONTENT handler that answers GET and
 * HEAD for a URI not ending in a slash with the file {@code root} or {@code alias} maps it to. A directory is
 * redirected to the URI with a slash (301); a missing file is 404 and an unreadable one 403, logged at error
 * ({@code log_not_found off} silences the 404s). The file is sent as one file buffer, with {@code Last-Modified},
 * {@code ETag} ({@code etag on}) and the type of its extension; ranges are allowed. Under {@code sendfile off} the
 * range module's copy step reads it into memory.
 *
 * <p>Other methods than GET, HEAD and POST are answered 405 at once, POST is 405 once the file is found, as nginx
 * does. Symbolic links are followed ({@code disable_symlinks} is not implemented).
 */
public final class StaticModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_static";

    private static final int NOT_ALLOWED = 405;
    private static final int NOT_FOUND = 404;
    private static final int FORBIDDEN = 403;
    private static final int MOVED_PERMANENTLY = 301;
    private static final int OK = 200;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public StaticModule() {
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
    public Object context() {
        return this;
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        cf.addPhaseHandler(Phase.CONTENT, StaticModule::handler);
    }

    /**
     * The CONTENT handler: nginx's {@code ngx_http_static_handler()}.
     *
     * @param r the request
     * @return {@link Rc#DECLINED} for a URI ending in a slash, an HTTP status, or what sending answers
     */
    static int handler(HttpRequest r) {
        if ((r.method & (HttpRequest.GET | HttpRequest.HEAD | HttpRequest.POST)) == 0) {
            return NOT_ALLOWED;
        }
        if (r.uri.isEmpty() || r.uri.charAt(r.uri.length() - 1) == '/') {
            return Rc.DECLINED;
        }
        String path = r.mapUriToPath();
        if (path == null) {
            return CoreOutput.INTERNAL_SERVER_ERROR;
        }
        HttpCoreLocConf clcf = CoreConfs.loc(r);
        OpenFile of = OpenFile.open(r, path);
        if (!of.ok()) {
            return openFailed(r, clcf, of, path);
        }
        if (of.isDir()) {
            return redirectDirectory(r);
        }
        if (!of.isFile()) {
            CoreOutput.log(r, LogLevel.CRIT, 0, "\"" + path + "\" is not a regular file");
            return NOT_FOUND;
        }
        if (r.method == HttpRequest.POST) {
            return NOT_ALLOWED;
        }
        int rc = r.discardRequestBody();
        if (rc != Rc.OK) {
            return rc;
        }
        if (r instanceof CoreRequest cr) {
            cr.logAction("sending response to client");
        }
        r.headersOut.status = OK;
        r.headersOut.contentLengthN = of.size();
        r.headersOut.lastModifiedTime = of.mtime();
        CoreOutput.setEtag(r);
        CoreOutput.setContentType(r);
        r.allowRanges = true;
        return sendFile(r, of, path);
    }

    /**
     * Sends the header, then the file as one buffer marked last: the end of nginx's static handler, which
     * {@code gzip_static} shares.
     *
     * @param r the request, its headers set
     * @param of the open file
     * @param path its path
     * @return what sending answers
     */
    static int sendFile(HttpRequest r, OpenFile of, String path) {
        int rc = r.sendHeader();
        if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) {
            return rc;
        }
        BufferPool pool = BufferPool.current();
        Buf b = OutBufs.descriptor(pool);
        b.fileFd = of.fd();
        b.fileName = path;
        b.filePos = 0;
        b.fileLast = of.size();
        b.inFile = of.size() > 0;
        b.last = true;
        b.lastInChain = true;
        BufChain cl = pool.link(b);
        int result = r.outputFilter(cl);
        pool.free(cl);
        return result;
    }

    /** The status and log line of a file that could not be opened, as nginx's switch on {@code of.err}. */
    private static int openFailed(HttpRequest r, HttpCoreLocConf clcf, OpenFile of, String path) {
        int err = of.err();
        if (err == 0) {
            return CoreOutput.INTERNAL_SERVER_ERROR;
        }
        LogLevel level;
        int rc;
        if (err == Errors.ENOENT || err == Errors.ENOTDIR || err == Errors.ENAMETOOLONG) {
            level = LogLevel.ERROR;
            rc = NOT_FOUND;
        } else if (err == Errors.EACCES || err == Errors.ELOOP) {
            // ELOOP is 403 where nginx has openat() (Linux), as a symlink loop it refuses to follow
            level = LogLevel.ERROR;
            rc = FORBIDDEN;
        } else {
            level = LogLevel.CRIT;
            rc = CoreOutput.INTERNAL_SERVER_ERROR;
        }
        if (rc != NOT_FOUND || clcf.logNotFound == 1) {
            CoreOutput.log(r, level, err, of.failed() + " \"" + path + "\" failed");
        }
        return rc;
    }

    /** A directory: 301 to the URI with a slash, its arguments kept. */
    private static int redirectDirectory(HttpRequest r) {
        String location = r.uri + "/";
        if (!r.args.isEmpty()) {
            location += "?" + r.args;
        }
        CoreOutput.setLocation(r, location);
        return MOVED_PERMANENTLY;
    }
}
