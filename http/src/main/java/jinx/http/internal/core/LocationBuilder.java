package jinx.http.internal.core;

import java.util.ArrayList;
import java.util.List;

import jinx.kernel.ConfException;

/**
 * Sorts the locations of each server and builds their static trees once the {@code http {}} block is parsed:
 * nginx's {@code ngx_http_add_location()}, {@code ngx_http_init_locations()},
 * {@code ngx_http_init_static_location_trees()}, {@code ngx_http_cmp_locations()},
 * {@code ngx_http_join_exact_locations()}, {@code ngx_http_create_locations_list()} and
 * {@code ngx_http_create_locations_tree()}.
 */
final class LocationBuilder {

    /** A location as declared: nginx's {@code ngx_http_location_queue_t}. */
    static final class Entry {
        HttpCoreLocConf exact;
        HttpCoreLocConf inclusive;
        final String name;
        final String file;
        final int line;
        /** The locations whose names start with this inclusive one's. */
        final List<Entry> list = new ArrayList<>();

        Entry(HttpCoreLocConf clcf, String file, int line) {
            if (clcf.exactMatch || clcf.regex != null || clcf.named || clcf.noname) {
                exact = clcf;
            } else {
                inclusive = clcf;
            }
            this.name = clcf.name;
            this.file = file;
            this.line = line;
        }

        HttpCoreLocConf conf() {
            return exact != null ? exact : inclusive;
        }
    }

    private LocationBuilder() {
    }

    /**
     * Adds a location to its parent's list (nginx's {@code ngx_http_add_location()}).
     *
     * @param parent the enclosing location, or the server's location conf
     * @param clcf the new location
     * @param file where it is written
     * @param line its line
     */
    static void add(HttpCoreLocConf parent, HttpCoreLocConf clcf, String file, int line) {
        if (parent.locations == null) {
            parent.locations = new ArrayList<>();
        }
        parent.locations.add(new Entry(clcf, file, line));
        clcf.escapedName = escapeUri(clcf.name);
    }

    /**
     * Sorts a block's locations and splits off the named, regex and nameless ones, recursively (nginx's
     * {@code ngx_http_init_locations()}).
     *
     * @param cscf the server, for its named locations; null for a nested block
     * @param pclcf the block's location conf
     */
    static void initLocations(HttpCoreSrvConf cscf, HttpCoreLocConf pclcf) {
        List<Entry> locations = pclcf.locations;
        if (locations == null) {
            return;
        }
        // List.sort is stable, as ngx_queue_sort()'s insertion sort: regexes keep the order they are written in
        locations.sort(LocationBuilder::compare);
        int named = -1;
        int regex = -1;
        int noname = locations.size();
        for (int q = 0; q < locations.size(); q++) {
            HttpCoreLocConf clcf = locations.get(q).conf();
            initLocations(null, clcf);
            if (clcf.regex != null) {
                regex = regex < 0 ? q : regex;
                continue;
            }
            if (clcf.named) {
                named = named < 0 ? q : named;
                continue;
            }
            if (clcf.noname) {
                noname = q;
                break;
            }
        }
        List<Entry> tail = locations.subList(noname, locations.size());
        tail.clear();
        if (named >= 0) {
            List<Entry> part = locations.subList(named, locations.size());
            HttpCoreLocConf[] list = new HttpCoreLocConf[part.size()];
            for (int i = 0; i < list.length; i++) {
                list[i] = part.get(i).exact;
            }
            if (cscf != null) {
                cscf.namedLocations = list;
            }
            part.clear();
        }
        if (regex >= 0) {
            List<Entry> part = locations.subList(regex, locations.size());
            HttpCoreLocConf[] list = new HttpCoreLocConf[part.size()];
            for (int i = 0; i < list.length; i++) {
                list[i] = part.get(i).exact;
            }
            pclcf.regexLocations = list;
            part.clear();
        }
    }

    /**
     * Builds the static trees of a block and the blocks inside it (nginx's
     * {@code ngx_http_init_static_location_trees()}).
     *
     * @param pclcf the block's location conf
     * @throws ConfException {@code duplicate location "x"} with the place of the second one
     */
    static void initStaticLocationTrees(HttpCoreLocConf pclcf) throws ConfException {
        List<Entry> locations = pclcf.locations;
        if (locations == null || locations.isEmpty()) {
            return;
        }
        for (Entry e : locations) {
            initStaticLocationTrees(e.conf());
        }
        joinExactLocations(locations);
        createLocationsList(locations);
        pclcf.staticLocations = createLocationsTree(locations, 0);
        pclcf.locations = null;
    }

    /** nginx's {@code ngx_http_cmp_locations()}: prefixes by name, then regexes as written, named, nameless. */
    static int compare(Entry one, Entry two) {
        HttpCoreLocConf first = one.conf();
        HttpCoreLocConf second = two.conf();
        if (first.noname != second.noname) {
            return first.noname ? 1 : -1;
        }
        if (first.noname) {
            return 0;
        }
        if (first.named != second.named) {
            return first.named ? 1 : -1;
        }
        if (first.named) {
            return first.name.compareTo(second.name);
        }
        boolean r1 = first.regex != null;
        boolean r2 = second.regex != null;
        if (r1 != r2) {
            return r1 ? 1 : -1;
        }
        if (r1) {
            return 0;
        }
        int rc = first.name.compareTo(second.name);
        if (rc == 0 && first.exactMatch != second.exactMatch) {
            // an exact match must be before the same inclusive one (both ways: List.sort may ask either way)
            return first.exactMatch ? -1 : 1;
        }
        return rc;
    }

    private static void joinExactLocations(List<Entry> locations) throws ConfException {
        int q = 0;
        while (q < locations.size() - 1) {
            Entry lq = locations.get(q);
            Entry lx = locations.get(q + 1);
            if (lq.name.equals(lx.name)) {
                if (lq.exact != null && lx.exact != null || lq.inclusive != null && lx.inclusive != null) {
                    throw ConfException.at("duplicate location \"" + lx.name + "\"", lx.file, lx.line);
                }
                lq.inclusive = lx.inclusive;
                locations.remove(q + 1);
                continue;
            }
            q++;
        }
    }

    /** Moves the locations that start with an inclusive one's name into its list, recursively. */
    private static void createLocationsList(List<Entry> locations) {
        int q = 0;
        while (q < locations.size() - 1) {
            Entry lq = locations.get(q);
            if (lq.inclusive == null) {
                q++;
                continue;
            }
            int x = q + 1;
            while (x < locations.size()) {
                String n = locations.get(x).name;
                if (lq.name.length() > n.length() || !n.startsWith(lq.name)) {
                    break;
                }
                x++;
            }
            if (x > q + 1) {
                List<Entry> moved = locations.subList(q + 1, x);
                lq.list.addAll(moved);
                moved.clear();
                createLocationsList(lq.list);
            }
            q++;
        }
    }

    /** Builds a balanced tree of a sorted list, the middle entry at the root (nginx's {@code ngx_queue_middle}). */
    private static LocationTree createLocationsTree(List<Entry> locations, int prefix) {
        int mid = locations.size() / 2;
        Entry lq = locations.get(mid);
        LocationTree node = new LocationTree(lq.name.substring(prefix), lq.exact, lq.inclusive);
        if (mid > 0) {
            node.left = createLocationsTree(locations.subList(0, mid), prefix);
        }
        if (mid + 1 < locations.size()) {
            node.right = createLocationsTree(locations.subList(mid + 1, locations.size()), prefix);
        }
        if (!lq.list.isEmpty()) {
            node.tree = createLocationsTree(lq.list, lq.name.length());
        }
        return node;
    }

    /** nginx's {@code ngx_escape_uri(..., NGX_ESCAPE_URI)}: space, {@code #}, {@code %}, {@code ?}, controls, 8-bit. */
    static String escapeUri(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean escape = c <= 0x20 || c >= 0x7f || c == '#' || c == '%' || c == '?';
            if (escape && b == null) {
                b = new StringBuilder(s.length() + 8).append(s, 0, i);
            }
            if (b == null) {
                continue;
            }
            if (escape) {
                b.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4 & 0xf, 16)))
                    .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            } else {
                b.append(c);
            }
        }
        return b == null ? s : b.toString();
    }
}
