package jinx.kernel.internal.core;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code conf} module: {@code include file|glob;} in any context, nginx's {@code ngx_conf_module}. Paths are
 * relative to the directory of the main configuration file. A glob ({@code *}, {@code ?}, {@code [}) that matches
 * nothing is not an error; its matches are included in sorted order, hidden files only when the pattern names
 * them, as glob(3) does.
 */
public final class IncludeConfModule implements JinxModule {

    /** The module's name. */
    public static final String NAME = "conf";

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("include", Set.of(Ctx.ANY), Arity.TAKE1, IncludeConfModule::include).multi());

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return ModuleType.CONF;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
    }

    @Override
    public List<Directive<?>> directives() {
        return DIRECTIVES;
    }

    private static void include(ConfContext cf, Void unused) throws ConfException {
        String name = cf.arg(1);
        Path path = cf.resolveConf(name);
        if (!isGlob(name)) {
            cf.parseFile(path);
            return;
        }
        for (Path file : glob(path)) {
            cf.parseFile(file);
        }
    }

    private static boolean isGlob(String name) {
        return name.indexOf('*') >= 0 || name.indexOf('?') >= 0 || name.indexOf('[') >= 0;
    }

    /** Expands a pattern component by component, so wildcards may stand in directory names too. */
    static List<Path> glob(Path pattern) throws ConfException {
        Path root = pattern.getRoot();
        List<Path> found = new ArrayList<>();
        found.add(root != null ? root : Path.of(""));
        for (Path part : pattern.normalize()) {
            String component = part.toString();
            List<Path> next = new ArrayList<>();
            for (Path dir : found) {
                if (!isGlob(component)) {
                    Path child = dir.resolve(component);
                    if (Files.exists(child)) {
                        next.add(child);
                    }
                    continue;
                }
                next.addAll(matches(dir, component));
            }
            found = next;
        }
        found.sort(null);
        return found;
    }

    private static List<Path> matches(Path dir, String component) throws ConfException {
        List<Path> list = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return list;
        }
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + component);
        boolean hidden = component.startsWith(".");
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                Path name = entry.getFileName();
                if (matcher.matches(name) && (hidden || !name.toString().startsWith("."))) {
                    list.add(entry);
                }
            }
        } catch (IOException e) {
            throw new ConfException("glob() \"" + dir.resolve(component) + "\" failed (" + e.getMessage() + ")");
        }
        return list;
    }
}
