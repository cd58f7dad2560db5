package jinx.http.internal.request;

import java.nio.file.Path;

import jinx.http.internal.core.HttpCoreLocConf;
import jinx.kernel.Cycle;
import jinx.kernel.LogLevel;

/**
 * Files for URIs: nginx's {@code ngx_http_map_uri_to_path()} ({@code root}, {@code alias}, with variables and
 * regex captures) and the {@code $document_root} of {@code ngx_http_variables.c}.
 */
public final class UriToPath {

    /**
     * A mapped path and where its root ends.
     *
     * @param path the file name: the root (or alias) and the URI after the alias
     * @param rootLength the length of the root part ({@code root_length})
     */
    public record Mapped(String path, int rootLength) {
    }

    private UriToPath() {
    }

    /**
     * nginx's {@code ngx_http_map_uri_to_path()}: the file name of the request's URI.
     *
     * @param r the request
     * @return the file name, or null ({@code alias} after a rewrite, logged at alert)
     */
    static String map(CoreRequest r) {
        Mapped m = mapped(r);
        return m == null ? null : m.path();
    }

    /**
     * nginx's {@code ngx_http_map_uri_to_path()} with the root's length, for {@code try_files}.
     *
     * @param r the request
     * @return the mapping, or null ({@code alias} after a rewrite, logged at alert)
     */
    static Mapped mapped(CoreRequest r) {
        HttpCoreLocConf clcf = r.clcf();
        int alias = clcf.alias;
        if (alias != 0 && !r.validLocation) {
            r.log(LogLevel.ALERT, "\"alias\" cannot be used in location \"" + clcf.name
                + "\" where URI was rewritten");
            return null;
        }
        String uri = r.uri;
        if (clcf.rootValue == null) {
            return constantRoot(clcf.root, uri, alias);
        }
        String root = fullName(r.loop().cycle(), clcf.rootValue.evaluate(r));
        if (alias == HttpCoreLocConf.ALIAS_REGEX) {
            if (!r.addUriToAlias) {
                return new Mapped(root, root.length());
            }
            alias = 0;
        }
        return joined(root, uri, alias);
    }

    /** A mapping made for a constant root, a URI and an alias length. */
    private record Cached(String root, String uri, int alias, Mapped mapped) {
    }

    /**
     * Mappings made lately for constant roots, a direct-mapped table shared by the loops (records are immutable, so a
     * race costs a miss): the same file asked for again maps to the same path string without building it.
     */
    private static final Cached[] CACHED = new Cached[1024];

    /**
     * Longer URIs are mapped every time: they rarely repeat, and the string of one is made anew for each request
     * (the parser's string cache keeps none over 256 bytes), so hashing it for the table cost more than the mapping
     * (a sixth of the samples of a request for a URI of 2,500 escaped bytes).
     */
    private static final int MAX_CACHED_URI = 256;

    private static Mapped constantRoot(String root, String uri, int alias) {
        if (uri.length() > MAX_CACHED_URI) {
            return joined(root, uri, alias);
        }
        int slot = (root.hashCode() * 31 + uri.hashCode() + alias) & (CACHED.length - 1);
        Cached c = CACHED[slot];
        if (c != null && c.root == root && c.alias == alias && c.uri.equals(uri)) {
            return c.mapped;
        }
        Mapped m = joined(root, uri, alias);
        CACHED[slot] = new Cached(root, uri, alias, m);
        return m;
    }

    /** The root followed by the URI, without the part an {@code alias} replaces. */
    private static Mapped joined(String root, String uri, int alias) {
        return new Mapped(root + tail(uri, alias), root.length());
    }

    /** The URI after the part an {@code alias} replaces. */
    private static String tail(String uri, int alias) {
        return alias <= 0 ? uri : alias >= uri.length() ? "" : uri.substring(alias);
    }

    /**
     * nginx's {@code $document_root}: the location's {@code root} or {@code alias}, evaluated.
     *
     * @param r the request
     * @return the root
     */
    static String documentRoot(CoreRequest r) {
        HttpCoreLocConf clcf = r.clcf();
        if (clcf.rootValue == null) {
            return clcf.root;
        }
        return fullName(r.loop().cycle(), clcf.rootValue.evaluate(r));
    }

    /** nginx's {@code ngx_get_full_name()}: a relative name is taken from the prefix. */
    static String fullName(Cycle cycle, String name) {
        if (name.startsWith("/") || cycle == null) {
            return name;
        }
        Path prefix = cycle.prefix();
        String p = prefix.toString();
        return p.endsWith("/") ? p + name : p + "/" + name;
    }
}
