package jinx.http.internal.core;

/**
 * A node of the static location tree: nginx's {@code ngx_http_location_tree_node_t}. Each node holds a name (the
 * rest of a location's name after the prefix its parent node matched), the exact ({@code =}) and the prefix
 * location of that name, the nodes of smaller ({@link #left}) and greater ({@link #right}) names, and the tree
 * of the locations whose names extend this one ({@link #tree}).
 */
public final class LocationTree {

    /** The name, after the prefix matched by the nodes above. */
    public final String name;
    /** The {@code location = name}, or null. */
    public final HttpCoreLocConf exact;
    /** The {@code location name} or {@code location ^~ name}, or null. */
    public final HttpCoreLocConf inclusive;
    /** A request for the name without its trailing slash is redirected to it. */
    public final boolean autoRedirect;
    /** The nodes whose names sort before this one. */
    public LocationTree left;
    /** The nodes whose names sort after this one. */
    public LocationTree right;
    /** The nodes of the names that start with this one, relative to it. */
    public LocationTree tree;

    LocationTree(String name, HttpCoreLocConf exact, HttpCoreLocConf inclusive) {
        this.name = name;
        this.exact = exact;
        this.inclusive = inclusive;
        this.autoRedirect = exact != null && exact.autoRedirect || inclusive != null && inclusive.autoRedirect;
    }
}
