package jinx.kernel;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;

/**
 * A directory for temporary files and its level directories: nginx's {@code ngx_path_t}, as
 * {@code client_body_temp_path} and {@code proxy_temp_path} set it ({@code ngx_conf_set_path_slot}). A module
 * declares the paths it uses with {@link Cycle#addPath}, so that the master creates them, owned by the workers'
 * {@code user}, as nginx's {@code ngx_create_paths()} does; {@link TempFile#create} makes the files in it.
 *
 * <p>Added in SPI 1.6.
 */
public final class TempPath {

    private final Path dir;
    private final int[] levels;
    /** Where the directive was, {@code file:line}, or null for a default path. */
    private final String place;

    /**
     * A path.
     *
     * @param dir the directory, absolute
     * @param levels the level directories' widths (up to three, each 1 or 2), empty or null for none
     */
    public TempPath(Path dir, int[] levels) {
        this(dir, levels, null);
    }

    private TempPath(Path dir, int[] levels, String place) {
        this.dir = dir;
        this.levels = levels == null ? new int[0] : levels.clone();
        this.place = place;
    }

    /**
     * Parses a path directive's arguments, {@code name [level1 [level2 [level3]]]}: nginx's
     * {@code ngx_conf_set_path_slot}. A relative name is taken from the prefix.
     *
     * @param cf the directive being parsed
     * @return the path
     * @throws ConfException {@code "proxy_temp_path" directive invalid value}
     */
    public static TempPath parse(ConfContext cf) throws ConfException {
        String name = new String(cf.arg(1).getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        Path dir = cf.resolve(name);
        int n = cf.args().size() - 2;
        int[] levels = new int[n];
        int len = 0;
        for (int i = 0; i < n; i++) {
            int level = ConfValues.parseNumber(cf.arg(i + 2));
            if (level <= 0) {
                throw new ConfException("\"" + cf.name() + "\" directive invalid value");
            }
            levels[i] = level;
            len += level + 1;
        }
        // nginx's check: the levels and their slashes stay under 10 + NGX_MAX_PATH_LEVEL
        if (len >= 10 + 3) {
            throw new ConfException("\"" + cf.name() + "\" directive invalid value");
        }
        return new TempPath(dir, levels, cf.file() + ":" + cf.line());
    }

    /**
     * nginx's check in {@code ngx_add_path()}: the same directory declared again must have the same levels.
     *
     * @param other a path declared before, with the same directory
     * @throws ConfException {@code the same path name "/x" in /conf:12 has the different levels than} (the
     *     parser adds where this one is), or the texts for a default path
     */
    public void checkSameLevels(TempPath other) throws ConfException {
        if (Arrays.equals(levels, other.levels)) {
            return;
        }
        if (place == null) {
            if (other.place == null) {
                throw new ConfException("the default path name \"" + dir + "\" has the same name as another default "
                    + "path, but the different levels, you need to redefine one of them in http section");
            }
            throw new ConfException("the path name \"" + dir + "\" in " + other.place + " has the same name as "
                + "default path, but the different levels, you need to define default path in http section");
        }
        throw new ConfException("the same path name \"" + dir + "\" in " + (other.place == null ? "default"
            : other.place) + " has the different levels than");
    }

    /**
     * Returns the directory.
     *
     * @return the directory
     */
    public Path dir() {
        return dir;
    }

    /**
     * Returns the level directories' widths.
     *
     * @return a copy, empty for none
     */
    public int[] levels() {
        return levels.clone();
    }

    /**
     * nginx's {@code ngx_create_hashed_filename()}: the file's name in this path, its level directories taken from
     * the end of the number ({@code levels=1:2} gives {@code dir/3/12/0000000123}).
     *
     * @param number the file's ten-digit number
     * @return the name
     */
    public String hashedName(String number) {
        StringBuilder sb = new StringBuilder(dir.toString().length() + 24).append(dir);
        int end = number.length();
        for (int level : levels) {
            int from = Math.max(0, end - level);
            sb.append('/').append(number, from, end);
            end = from;
        }
        return sb.append('/').append(number).toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TempPath p && p.dir.equals(dir) && Arrays.equals(p.levels, levels);
    }

    @Override
    public int hashCode() {
        return dir.hashCode() * 31 + Arrays.hashCode(levels);
    }

    @Override
    public String toString() {
        return dir + (levels.length == 0 ? "" : " " + Arrays.toString(levels));
    }
}
