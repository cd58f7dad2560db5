package jinx.http.internal.core;

import jinx.kernel.Rc;

/**
 * Finds the location of a URI at request time: nginx's {@code ngx_http_core_find_location()} and
 * {@code ngx_http_core_find_static_location()}. The static tree gives the exact match or the longest prefix; a
 * prefix match looks inside its nested locations; then, unless the prefix was {@code ^~}, the regexes are tried in
 * the order they are written (the nested ones first). Named locations are looked up by {@link #named}.
 *
 * <p>Nothing here allocates; the captures of a regex location go into the caller's {@link LocationMatch}.
 */
public final class Locations {

    private Locations() {
    }

    /**
     * Finds the location of a URI inside a server (or inside a location, for nested ones).
     *
     * @param serverLoc the server's location conf ({@link HttpCoreSrvConf#locConf()})
     * @param uri the decoded, normalised URI ({@code r.uri})
     * @param out receives the location: {@code out.loc} is set to {@code serverLoc} first, then to each match
     * @return {@link Rc#OK} for an exact or regex match; {@link Rc#DONE} when the URI is a prefix location's name
     *     without its trailing slash and that location redirects ({@link HttpCoreLocConf#autoRedirect}; answer 301
     *     to {@code out.loc.escapedName} plus the arguments); {@link Rc#DECLINED} otherwise, {@code out.loc} being
     *     the longest prefix location that matched or {@code serverLoc} when none did ({@link Rc#AGAIN}, the
     *     "prefix match" of the static tree, is what nested lookups return inside and does not come out);
     *     {@link Rc#ERROR} when a regex match was abandoned ({@code out.failed} says which; answer 500 and log
     *     {@link HttpRegex#failure}). As in nginx's {@code ngx_http_core_find_config_phase()}, every result but
     *     ERROR uses {@code out.loc}.
     */
    public static int find(HttpCoreLocConf serverLoc, CharSequence uri, LocationMatch out) {
        out.loc = serverLoc;
        out.failed = null;
        return findLocation(serverLoc, uri, out);
    }

    private static int findLocation(HttpCoreLocConf pclcf, CharSequence uri, LocationMatch out) {
        boolean noregex = false;
        int rc = findStatic(pclcf.staticLocations, uri, out);
        if (rc == Rc.AGAIN) {
            noregex = out.loc.noregex;
            // look up nested locations
            rc = findLocation(out.loc, uri, out);
        }
        if (rc == Rc.OK || rc == Rc.DONE) {
            return rc;
        }
        // rc == DECLINED, or AGAIN in a nested location
        if (!noregex && pclcf.regexLocations != null) {
            for (HttpCoreLocConf clcf : pclcf.regexLocations) {
                int n = clcf.regex.exec(uri, out.captures);
                if (n == Rc.DECLINED) {
                    continue;
                }
                if (n == Rc.ERROR) {
                    out.failed = clcf.regex;
                    return Rc.ERROR;
                }
                out.loc = clcf;
                // look up nested locations
                rc = findLocation(clcf, uri, out);
                return rc == Rc.ERROR ? rc : Rc.OK;
            }
        }
        return rc;
    }

    private static int findStatic(LocationTree node, CharSequence uri, LocationMatch out) {
        int len = uri.length();
        int off = 0;
        int rv = Rc.DECLINED;
        while (node != null) {
            String name = node.name;
            int nodeLen = name.length();
            int n = Math.min(len, nodeLen);
            int rc = compare(uri, off, name, n);
            if (rc != 0) {
                node = rc < 0 ? node.left : node.right;
                continue;
            }
            if (len > nodeLen) {
                if (node.inclusive != null) {
                    out.loc = node.inclusive;
                    rv = Rc.AGAIN;
                    node = node.tree;
                    off += n;
                    len -= n;
                    continue;
                }
                // exact only
                node = node.right;
                continue;
            }
            if (len == nodeLen) {
                out.loc = node.exact != null ? node.exact : node.inclusive;
                return Rc.OK;
            }
            // len < nodeLen
            if (len + 1 == nodeLen && node.autoRedirect) {
                out.loc = node.exact != null ? node.exact : node.inclusive;
                rv = Rc.DONE;
            }
            node = node.left;
        }
        return rv;
    }

    /** strncmp() of {@code n} characters of the URI from {@code off} with the node's name. */
    private static int compare(CharSequence uri, int off, String name, int n) {
        for (int i = 0; i < n; i++) {
            int d = uri.charAt(off + i) - name.charAt(i);
            if (d != 0) {
                return d;
            }
        }
        return 0;
    }

    /**
     * Finds a named location of a server ({@code @fallback}): nginx's {@code ngx_http_named_location()} lookup.
     *
     * @param cscf the server
     * @param name the name, with its {@code @}
     * @return the location, or null ({@code could not find named location "x"})
     */
    public static HttpCoreLocConf named(HttpCoreSrvConf cscf, String name) {
        for (HttpCoreLocConf clcf : cscf.namedLocations) {
            if (clcf.name.equals(name)) {
                return clcf;
            }
        }
        return null;
    }
}
