package jinx.http.internal.modules;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import jinx.http.HttpRequest;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.ConfException;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code http_random_index} module, nginx's {@code ngx_http_random_index_module.c}: with
 * {@code random_index on}, a GET, HEAD or POST for a URI ending in a slash is redirected internally to a regular
 * file of the directory picked at random (names starting with a dot and anything but regular files left out,
 * symbolic links too, as nginx's {@code d_type} test does); an empty directory declines to the next content handler. It runs before
 * {@code http_index}, as in nginx.
 */
public final class RandomIndexModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_random_index";

    /** The location conf: nginx's {@code ngx_http_random_index_loc_conf_t}. */
    static final class RandomIndexLocConf {
        int enable = Conf.UNSET;
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("random_index", Set.of(HttpCtx.LOC), Arity.FLAG, RandomIndexLocConf.class,
            Slots.flag((RandomIndexLocConf c, boolean on) -> c.enable = on ? 1 : 0))
            .syntax("on | off").defaults("off").describe("Enables or disables module processing in a surrounding "
                + "location."));

    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public RandomIndexModule() {
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
        return new RandomIndexLocConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) {
        RandomIndexLocConf conf = (RandomIndexLocConf) child;
        conf.enable = Conf.merge(conf.enable, ((RandomIndexLocConf) parent).enable, 0);
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addPhaseHandler(Phase.CONTENT, this::handler);
    }

    /** nginx's {@code ngx_http_random_index_handler()}. */
    private int handler(HttpRequest r) {
        if (r.uri.isEmpty() || r.uri.charAt(r.uri.length() - 1) != '/'
            || (r.method & (HttpRequest.GET | HttpRequest.HEAD | HttpRequest.POST)) == 0
            || ((RandomIndexLocConf) r.locConf(ctxIndex)).enable != 1) {
            return Rc.DECLINED;
        }
        String path = r.mapUriToPath();
        if (path == null) {
            return CoreOutput.INTERNAL_SERVER_ERROR;
        }
        if (path.length() > 1) {
            path = path.substring(0, path.length() - 1);
        }
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Path.of(path))) {
            for (Path p : dir) {
                String name = new String(p.getFileName().toString().getBytes(AutoindexModule.NAMES),
                    StandardCharsets.ISO_8859_1);
                // d_type tells a symbolic link from a file: nginx's ngx_de_is_file() leaves links out
                if (!name.startsWith(".") && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    names.add(name);
                }
            }
        } catch (IOException | RuntimeException e) {
            return AutoindexModule.openDirFailed(r, path, e);
        }
        if (names.isEmpty()) {
            return Rc.DECLINED;
        }
        String name = names.get(ThreadLocalRandom.current().nextInt(names.size()));
        return r.internalRedirect(r.uri + name, r.args);
    }
}
