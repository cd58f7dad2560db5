package jinx.http.internal.request;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.core.TryFile;
import jinx.http.internal.parse.HttpParser;
import jinx.http.internal.parse.UriArgs;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.Errors;

/**
 * {@code try_files}: nginx's {@code ngx_http_try_files_handler()} (the PRECONTENT handler of
 * {@code ngx_http_try_files_module.c}, once {@code ngx_http_core_try_files_phase()}). Each argument but the last
 * names a file (a directory when written with a trailing slash) under the location's root or alias; the first
 * that exists becomes the URI. Otherwise the last argument decides: a URI (an internal redirect, with its
 * arguments), a named location, or {@code =code}.
 */
public final class TryFiles {

    private TryFiles() {
    }

    /**
     * The PRECONTENT handler.
     *
     * @param hr the request
     * @return {@link Rc#DECLINED} to go on (with the URI of the file found), {@link Rc#DONE} after a redirect,
     *     or the status of {@code =code}
     */
    public static int handler(HttpRequest hr) {
        CoreRequest r = (CoreRequest) hr;
        HttpCoreLocConf clcf = r.clcf();
        List<TryFile> files = clcf.tryFiles;
        if (files == null) {
            return Rc.DECLINED;
        }
        int alias = clcf.alias;
        int last = files.size() - 1;
        for (int i = 0; i < last; i++) {
            TryFile tf = files.get(i);
            String name = value(r, tf, alias);
            UriToPath.Mapped m = UriToPath.mapped(r);
            if (m == null) {
                return HttpStatus.INTERNAL_SERVER_ERROR;
            }
            String root = m.path().substring(0, m.rootLength());
            String path = root + name;
            if (test(r, path, tf.testDir()) != Rc.OK) {
                continue;
            }
            useFile(r, alias, name, tf.testDir());
            InternalRedirects.setExten(r);
            return Rc.DECLINED;
        }
        TryFile tf = files.get(last);
        if (tf.code() != 0) {
            return tf.code();
        }
        String uri = value(r, tf, alias);
        if (uri.startsWith("@")) {
            r.namedLocation(uri);
        } else {
            UriArgs split = HttpParser.splitArgs(uri);
            r.internalRedirect(split.uri(), split.args());
        }
        r.finalizeRequest(Rc.DONE);
        return Rc.DONE;
    }

    /** An argument's value; one with variables loses the part of the URI an {@code alias} replaces. */
    private static String value(CoreRequest r, TryFile tf, int alias) {
        if (tf.value() == null) {
            return tf.name();
        }
        String name = tf.value().evaluate(r);
        if (alias != 0 && alias != HttpCoreLocConf.ALIAS_REGEX && r.uri.length() >= alias
            && name.regionMatches(0, r.uri, 0, alias)) {
            name = name.substring(alias);
        }
        return name;
    }

    /** The file found becomes the URI. */
    private static void useFile(CoreRequest r, int alias, String name, boolean testDir) {
        if (alias == 0) {
            r.uri = name;
        } else if (alias == HttpCoreLocConf.ALIAS_REGEX) {
            if (!testDir) {
                r.uri = name;
                r.addUriToAlias = true;
            }
        } else {
            r.uri = r.uri.substring(0, Math.min(alias, r.uri.length())) + name;
        }
    }

    /**
     * Tests a file as nginx's {@code ngx_open_cached_file()} with {@code test_only}: {@code stat()}. A missing
     * file, a path through a non-directory and a name too long are skipped quietly; any other failure is logged at
     * crit and the file skipped, as nginx does.
     *
     * @return {@link Rc#OK} when it exists and is (or is not) a directory as asked, else {@link Rc#DECLINED}
     */
    private static int test(CoreRequest r, String path, boolean testDir) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(Path.of(path), BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return Rc.DECLINED;
        } catch (FileSystemException e) {
            String reason = e.getReason();
            if (reason == null) {
                r.log(LogLevel.CRIT, Errors.EACCES, "stat() \"" + path + "\" failed");
            } else if (!reason.contains("Not a directory") && !reason.contains("File name too long")
                       && !reason.contains("No such file")) {
                r.log(LogLevel.CRIT, "stat() \"" + path + "\" failed (" + reason + ")");
            }
            return Rc.DECLINED;
        } catch (IOException | java.nio.file.InvalidPathException e) {
            r.log(LogLevel.CRIT, "stat() \"" + path + "\" failed (" + e.getMessage() + ")");
            return Rc.DECLINED;
        }
        return a.isDirectory() == testDir ? Rc.OK : Rc.DECLINED;
    }
}
