package jinx.http.internal.modules;

import java.util.List;
import java.util.Map;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.filter.CoreConfs;
import jinx.http.internal.request.CoreRequest;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.Errors;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code http_gzip_static} module, nginx's {@code ngx_http_gzip_static_module.c}: a GET or HEAD of a file is
 * answered with the file beside it named {@code .gz}, {@code Content-Encoding: gzip}, when {@code gzip_static on}
 * and the client passes {@code ngx_http_gzip_ok()} ({@link GzipOk}), or always with {@code gzip_static always}.
 * Under {@code on} the response varies ({@code gzip_vary}) once the {@code .gz} file exists, whatever the client
 * accepts. It runs in CONTENT before {@code http_static}, as nginx's handler list has it.
 */
public final class GzipStaticModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_gzip_static";

    private static final int OFF = 0;
    private static final int ON = 1;
    private static final int ALWAYS = 2;

    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);
    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("gzip_static", MSL, Arity.TAKE1, StaticConf.class,
            Slots.oneOf(Map.of("off", OFF, "on", ON, "always", ALWAYS), (StaticConf c, Integer v) -> c.enable = v))
            .syntax("on | off | always").defaults("off").describe("Enables or disables checking the existence of "
                + "precompressed files."));

    /** The location conf. */
    static final class StaticConf {
        int enable = Conf.UNSET;
    }

    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public GzipStaticModule() {
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

    @Override
    public Object createLocConf() {
        return new StaticConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) {
        StaticConf conf = (StaticConf) child;
        conf.enable = Conf.merge(conf.enable, ((StaticConf) parent).enable, OFF);
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addPhaseHandler(Phase.CONTENT, this::handler);
    }

    /**
     * The CONTENT handler: nginx's {@code ngx_http_gzip_static_handler()}.
     *
     * @param r the request
     * @return {@link Rc#DECLINED} to leave the request to the static module, an HTTP status, or what sending answers
     */
    int handler(HttpRequest r) {
        if ((r.method & (HttpRequest.GET | HttpRequest.HEAD)) == 0 || r.uri.isEmpty()
            || r.uri.charAt(r.uri.length() - 1) == '/') {
            return Rc.DECLINED;
        }
        int enable = ((StaticConf) r.locConf(ctxIndex)).enable;
        if (enable == OFF) {
            return Rc.DECLINED;
        }
        boolean ok = enable == ALWAYS || GzipOk.test(r);
        HttpCoreLocConf clcf = CoreConfs.loc(r);
        if (clcf.gzipVary != 1 && !ok) {
            return Rc.DECLINED;
        }
        String uriPath = r.mapUriToPath();
        if (uriPath == null) {
            return CoreOutput.INTERNAL_SERVER_ERROR;
        }
        String path = uriPath + ".gz";
        OpenFile of = OpenFile.open(r, path);
        if (!of.ok()) {
            return openFailed(r, of, path);
        }
        if (enable == ON) {
            if (r instanceof CoreRequest cr) {
                cr.gzipVary = true;
            }
            if (!ok) {
                return Rc.DECLINED;
            }
        }
        if (of.isDir()) {
            return Rc.DECLINED;
        }
        if (!of.isFile()) {
            CoreOutput.log(r, LogLevel.CRIT, 0, "\"" + path + "\" is not a regular file");
            return 404;
        }
        int rc = r.discardRequestBody();
        if (rc != Rc.OK) {
            return rc;
        }
        if (r instanceof CoreRequest cr) {
            cr.logAction("sending response to client");
        }
        r.headersOut.status = 200;
        r.headersOut.contentLengthN = of.size();
        r.headersOut.lastModifiedTime = of.mtime();
        CoreOutput.setEtag(r);
        CoreOutput.setContentType(r);
        r.headersOut.contentEncoding = r.headersOut.headers.add("Content-Encoding", "gzip");
        return StaticModule.sendFile(r, of, path);
    }

    /** nginx's switch on {@code of.err}: a missing file declines quietly, others decline with a line. */
    private static int openFailed(HttpRequest r, OpenFile of, String path) {
        int err = of.err();
        if (err == 0) {
            return CoreOutput.INTERNAL_SERVER_ERROR;
        }
        if (err == Errors.ENOENT || err == Errors.ENOTDIR || err == Errors.ENAMETOOLONG) {
            return Rc.DECLINED;
        }
        LogLevel level = err == Errors.EACCES || err == Errors.ELOOP ? LogLevel.ERROR : LogLevel.CRIT;
        CoreOutput.log(r, level, err, of.failed() + " \"" + path + "\" failed");
        return Rc.DECLINED;
    }
}
