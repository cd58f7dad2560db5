package jinx.http.internal.modules;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;

import jinx.http.HttpRequest;
import jinx.http.internal.request.BufferPool;
import jinx.http.internal.variables.HeaderVariables;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code http_autoindex} module, nginx's {@code ngx_http_autoindex_module.c}: a request for a directory
 * ({@code /} at the end, GET or HEAD) that the index module left gets a listing of the directory, names starting
 * with a dot left out, directories first, in {@code autoindex_format} html, xml, json or jsonp (the callback from
 * the {@code callback} argument), with {@code autoindex_exact_size} and {@code autoindex_localtime}. Bodies as
 * {@link AutoindexPage} makes them; sent chunked, as nginx sends them without a length.
 */
public final class AutoindexModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_autoindex";

    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);
    private static final int HTML = 0;
    private static final int JSON = 1;
    private static final int JSONP = 2;
    private static final int XML = 3;
    /** The file system's name encoding: names are listed as the bytes on disk. */
    /** The charset of file names, whose bytes nginx takes as they are. */
    static final Charset NAMES = names();

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("autoindex", MSL, Arity.FLAG, AutoindexLocConf.class,
            Slots.flag((AutoindexLocConf c, boolean on) -> c.enable = on ? 1 : 0))
            .syntax("on | off").defaults("off").describe("Enables or disables the directory listing output."),
        Directive.of("autoindex_format", MSL, Arity.TAKE1, AutoindexLocConf.class,
            Slots.oneOf(Map.of("html", HTML, "json", JSON, "jsonp", JSONP, "xml", XML),
                (AutoindexLocConf c, Integer v) -> c.format = v))
            .syntax("html | xml | json | jsonp").defaults("html").describe("Sets the format of a directory "
                + "listing."),
        Directive.of("autoindex_exact_size", MSL, Arity.FLAG, AutoindexLocConf.class,
            Slots.flag((AutoindexLocConf c, boolean on) -> c.exactSize = on ? 1 : 0))
            .syntax("on | off").defaults("on").describe("For the HTML format, specifies whether exact file sizes "
                + "should be output in the directory listing, or rather rounded to kilobytes, megabytes, and "
                + "gigabytes."),
        Directive.of("autoindex_localtime", MSL, Arity.FLAG, AutoindexLocConf.class,
            Slots.flag((AutoindexLocConf c, boolean on) -> c.localtime = on ? 1 : 0))
            .syntax("on | off").defaults("off").describe("For the HTML format, specifies whether times in the "
                + "directory listing should be output in the local time zone or UTC."));

    /** The location conf: nginx's {@code ngx_http_autoindex_loc_conf_t}. */
    static final class AutoindexLocConf {
        int enable = Conf.UNSET;
        int format = Conf.UNSET;
        int localtime = Conf.UNSET;
        int exactSize = Conf.UNSET;
    }

    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public AutoindexModule() {
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
        return new AutoindexLocConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) {
        AutoindexLocConf prev = (AutoindexLocConf) parent;
        AutoindexLocConf conf = (AutoindexLocConf) child;
        conf.enable = Conf.merge(conf.enable, prev.enable, 0);
        conf.format = Conf.merge(conf.format, prev.format, HTML);
        conf.localtime = Conf.merge(conf.localtime, prev.localtime, 0);
        conf.exactSize = Conf.merge(conf.exactSize, prev.exactSize, 1);
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addPhaseHandler(Phase.CONTENT, this::handler);
    }

    private static Charset names() {
        try {
            return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        } catch (IllegalArgumentException e) {
            return StandardCharsets.UTF_8;
        }
    }

    /** nginx's {@code ngx_http_autoindex_handler()}. */
    private int handler(HttpRequest r) {
        if (r.uri.isEmpty() || r.uri.charAt(r.uri.length() - 1) != '/'
            || (r.method & (HttpRequest.GET | HttpRequest.HEAD)) == 0) {
            return Rc.DECLINED;
        }
        AutoindexLocConf alcf = (AutoindexLocConf) r.locConf(ctxIndex);
        if (alcf.enable != 1) {
            return Rc.DECLINED;
        }
        String path = r.mapUriToPath();
        if (path == null) {
            return CoreOutput.INTERNAL_SERVER_ERROR;
        }
        if (path.length() > 1) {
            path = path.substring(0, path.length() - 1);
        }
        int format = alcf.format;
        String callback = null;
        if (format == JSONP) {
            callback = HeaderVariables.argument(r, "arg_callback");
            if (callback != null && !validCallback(r, callback)) {
                return 400;
            }
            if (callback == null || callback.isEmpty()) {
                format = JSON;
            }
        }
        List<AutoindexPage.Entry> entries = new ArrayList<>();
        int rc = read(r, path, entries);
        if (rc != Rc.OK) {
            return rc;
        }
        r.headersOut.status = 200;
        r.headersOut.contentType = switch (format) {
            case JSON -> "application/json";
            case JSONP -> "application/javascript";
            case XML -> "text/xml";
            default -> "text/html";
        };
        if (format == XML) {
            r.headersOut.charset = "utf-8";
        }
        rc = r.sendHeader();
        if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) {
            return rc;
        }
        Collections.sort(entries);
        String body = switch (format) {
            case JSON, JSONP -> AutoindexPage.json(entries, callback);
            case XML -> AutoindexPage.xml(entries);
            default -> AutoindexPage.html(r.uri, entries, alcf.exactSize == 1,
                alcf.localtime == 1 ? TimeZone.getDefault().getOffset(System.currentTimeMillis()) / 1000 : 0);
        };
        Buf b = CoreOutput.text(body);
        b.last = true;
        b.lastInChain = true;
        BufferPool pool = BufferPool.current();
        BufChain cl = pool.link(b);
        rc = r.outputFilter(cl);
        pool.free(cl);
        return rc;
    }

    /** nginx's {@code ngx_http_autoindex_jsonp_callback()}. */
    private static boolean validCallback(HttpRequest r, String callback) {
        if (callback.length() > 128) {
            CoreOutput.log(r, LogLevel.INFO, 0, "client sent too long callback name: \"" + callback + "\"");
            return false;
        }
        for (int i = 0; i < callback.length(); i++) {
            char ch = callback.charAt(i);
            char c = (char) (ch | 0x20);
            if (c >= 'a' && c <= 'z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '.') {
                continue;
            }
            CoreOutput.log(r, LogLevel.INFO, 0, "client sent invalid callback name: \"" + callback + "\"");
            return false;
        }
        return true;
    }

    /** Reads the directory: {@code ngx_open_dir()}, {@code ngx_read_dir()}, {@code ngx_de_info()}. */
    private static int read(HttpRequest r, String path, List<AutoindexPage.Entry> entries) {
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Path.of(path))) {
            for (Path p : dir) {
                String name = new String(p.getFileName().toString().getBytes(NAMES), StandardCharsets.ISO_8859_1);
                if (name.startsWith(".")) {
                    continue;
                }
                BasicFileAttributes a = stat(r, p);
                if (a != null) {
                    entries.add(new AutoindexPage.Entry(name, a.isDirectory(), a.isRegularFile(),
                        a.lastModifiedTime().toMillis() / 1000, a.size()));
                }
            }
            return Rc.OK;
        } catch (IOException | RuntimeException e) {
            return openDirFailed(r, path, e);
        }
    }

    /**
     * nginx's answer to a directory that {@code opendir()} could not open, with its log line: 404 (error) for a
     * missing path or a file, 403 (error) for one denied, 500 (crit) otherwise.
     *
     * @param r the request
     * @param path the directory
     * @param e what opening it threw
     * @return the status
     */
    static int openDirFailed(HttpRequest r, String path, Exception e) {
        if (e instanceof NoSuchFileException || e instanceof NotDirectoryException) {
            String reason = e instanceof NotDirectoryException ? "20: Not a directory" : "2: No such file or directory";
            CoreOutput.log(r, LogLevel.ERROR, 0, "opendir() \"" + path + "\" failed (" + reason + ")");
            return 404;
        }
        if (e instanceof AccessDeniedException) {
            CoreOutput.log(r, LogLevel.ERROR, 0, "opendir() \"" + path + "\" failed (13: Permission denied)");
            return 403;
        }
        CoreOutput.log(r, LogLevel.CRIT, 0, "opendir() \"" + path + "\" failed (" + e.getMessage() + ")");
        return CoreOutput.INTERNAL_SERVER_ERROR;
    }

    /** {@code stat()}, and {@code lstat()} for a link whose target is gone; null for an entry to leave out. */
    private static BasicFileAttributes stat(HttpRequest r, Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return lstat(r, p);
        } catch (FileSystemException e) {
            if (e.getReason() != null && e.getReason().contains("symbolic links")) {
                // ELOOP: listed as the link itself (nginx)
                return lstat(r, p);
            }
            CoreOutput.log(r, LogLevel.CRIT, 0, "stat() \"" + p + "\" failed (" + e.getReason() + ")");
            return null;
        } catch (IOException e) {
            CoreOutput.log(r, LogLevel.CRIT, 0, "stat() \"" + p + "\" failed (" + e.getMessage() + ")");
            return null;
        }
    }

    private static BasicFileAttributes lstat(HttpRequest r, Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            CoreOutput.log(r, LogLevel.CRIT, 0, "lstat() \"" + p + "\" failed (" + e.getMessage() + ")");
            return null;
        }
    }
}
