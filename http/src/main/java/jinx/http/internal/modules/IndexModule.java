package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.filter.CoreConfs;
import jinx.http.internal.variables.Variables;
import jinx.http.spi.ComplexValue;
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
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_index} module, nginx's {@code ngx_http_index_module.c}: for a URI ending in a slash, the first
 * file of {@code index} (default {@code index.html}; names may hold variables) that exists in the directory becomes
 * the URI, by an internal redirect; an absolute name is redirected to without a test. With none found the handler
 * declines, and the core answers 403 ({@code directory index of "..." is forbidden}). A directory that does not
 * exist is 404 ({@code "/path/index.html" is not found}); an unreadable index is 403.
 */
public final class IndexModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_index";

    /** nginx's {@code NGX_HTTP_DEFAULT_INDEX}. */
    static final String DEFAULT_INDEX = "index.html";

    private static final int NOT_FOUND = 404;
    private static final int FORBIDDEN = 403;

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("index", Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC), Arity.ONE_MORE,
            IndexLocConf.class, IndexModule::index).multi()
            .syntax("file ...").defaults("index.html").describe("Defines files that will be used as an index."));

    private int ctxIndex = -1;

    /**
     * One name of {@code index}.
     *
     * @param name the name as written
     * @param value the name compiled, when it has variables; else null
     */
    record Index(String name, ComplexValue value) {
    }

    /**
     * The location conf: nginx's {@code ngx_http_index_loc_conf_t}.
     */
    static final class IndexLocConf {
        /** The names in order; null while unset. */
        List<Index> indices;
    }

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public IndexModule() {
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
        return new IndexLocConf();
    }

    /** nginx's {@code ngx_http_index_merge_loc_conf()}: inherited whole; {@code index.html} by default. */
    @Override
    public void mergeLocConf(Object parent, Object child) {
        IndexLocConf prev = (IndexLocConf) parent;
        IndexLocConf conf = (IndexLocConf) child;
        if (conf.indices == null) {
            conf.indices = prev.indices;
        }
        if (conf.indices == null) {
            conf.indices = List.of(new Index(DEFAULT_INDEX, null));
        }
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addPhaseHandler(Phase.CONTENT, this::handler);
    }

    /** nginx's {@code ngx_http_index_set_index()}. */
    private static void index(ConfContext cf, IndexLocConf conf) throws ConfException {
        List<Index> list = conf.indices == null ? new ArrayList<>() : new ArrayList<>(conf.indices);
        List<String> args = cf.args();
        for (int i = 1; i < args.size(); i++) {
            String v = args.get(i);
            if (!v.isEmpty() && v.charAt(0) == '/' && i != args.size() - 1) {
                cf.log(LogLevel.WARN, "only the last index in \"index\" directive should be absolute");
            }
            if (v.isEmpty()) {
                throw new ConfException("index \"" + v + "\" in \"index\" directive is invalid");
            }
            ComplexValue cv = v.indexOf('$') < 0 ? null : Variables.of(cf).compile(cf, v);
            list.add(new Index(v, cv));
        }
        conf.indices = List.copyOf(list);
    }

    /**
     * The CONTENT handler: nginx's {@code ngx_http_index_handler()}. The first index is tried before the directory
     * is tested, because valid requests should prevail over invalid ones (nginx).
     *
     * @param r the request
     * @return {@link Rc#DECLINED}, {@link Rc#DONE} after a redirect, or an HTTP status
     */
    int handler(HttpRequest r) {
        if (r.uri.isEmpty() || r.uri.charAt(r.uri.length() - 1) != '/') {
            return Rc.DECLINED;
        }
        if ((r.method & (HttpRequest.GET | HttpRequest.HEAD | HttpRequest.POST)) == 0) {
            return Rc.DECLINED;
        }
        IndexLocConf ilcf = (IndexLocConf) r.locConf(ctxIndex);
        HttpCoreLocConf clcf = CoreConfs.loc(r);
        boolean dirTested = false;
        for (Index index : ilcf.indices) {
            String name = index.value() == null ? index.name() : index.value().evaluate(r);
            if (!name.isEmpty() && name.charAt(0) == '/') {
                return r.internalRedirect(name, r.args);
            }
            String dir = r.mapUriToPath();
            if (dir == null) {
                return CoreOutput.INTERNAL_SERVER_ERROR;
            }
            String path = dir + name;
            OpenFile of = OpenFile.test(r, path);
            if (of.ok()) {
                return r.internalRedirect(r.uri + name, r.args);
            }
            int err = of.err();
            if (err == 0) {
                return CoreOutput.INTERNAL_SERVER_ERROR;
            }
            if (err == Errors.ELOOP) {
                return FORBIDDEN;
            }
            if (err == Errors.ENOTDIR || err == Errors.ENAMETOOLONG || err == Errors.EACCES) {
                return error(r, clcf, path, err);
            }
            if (!dirTested) {
                int rc = testDir(r, clcf, dir, path);
                if (rc != Rc.OK) {
                    return rc;
                }
                dirTested = true;
            }
            if (err == Errors.ENOENT) {
                continue;
            }
            CoreOutput.log(r, LogLevel.CRIT, err, of.failed() + " \"" + path + "\" failed");
            return CoreOutput.INTERNAL_SERVER_ERROR;
        }
        return Rc.DECLINED;
    }

    /**
     * nginx's {@code ngx_http_index_test_dir()}: the directory the URI names, without its trailing slash (with it,
     * for an {@code alias} without one). nginx's messages print the index's full path, since it restores the
     * byte it cut before logging; so do these.
     */
    private static int testDir(HttpRequest r, HttpCoreLocConf clcf, String dir, String path) {
        String name = dir.length() > 1 && dir.endsWith("/") ? dir.substring(0, dir.length() - 1) : dir;
        OpenFile of = OpenFile.test(r, name);
        if (!of.ok()) {
            int err = of.err();
            if (err == 0) {
                return CoreOutput.INTERNAL_SERVER_ERROR;
            }
            if (err == Errors.ELOOP) {
                return FORBIDDEN;
            }
            if (err == Errors.ENOENT) {
                return error(r, clcf, path, Errors.ENOENT);
            }
            if (err == Errors.EACCES) {
                // called after the first index failed otherwise than with EACCES: searching the directory is
                // allowed (nginx)
                return Rc.OK;
            }
            CoreOutput.log(r, LogLevel.CRIT, err, "stat() \"" + name + "\" failed");
            return CoreOutput.INTERNAL_SERVER_ERROR;
        }
        if (of.isDir()) {
            return Rc.OK;
        }
        CoreOutput.log(r, LogLevel.ALERT, 0, "\"" + path + "\" is not a directory");
        return CoreOutput.INTERNAL_SERVER_ERROR;
    }

    /** nginx's {@code ngx_http_index_error()}. */
    private static int error(HttpRequest r, HttpCoreLocConf clcf, String file, int err) {
        if (err == Errors.EACCES) {
            CoreOutput.log(r, LogLevel.ERROR, err, "\"" + file + "\" is forbidden");
            return FORBIDDEN;
        }
        if (clcf.logNotFound == 1) {
            CoreOutput.log(r, LogLevel.ERROR, err, "\"" + file + "\" is not found");
        }
        return NOT_FOUND;
    }
}
