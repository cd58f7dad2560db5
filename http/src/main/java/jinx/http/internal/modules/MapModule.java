package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.core.BlockLines;
import jinx.http.internal.core.Captures;
import jinx.http.internal.core.HttpCoreModule;
import jinx.http.internal.core.HttpRegex;
import jinx.http.internal.request.CoreRequest;
import jinx.http.spi.ComplexValue;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.http.spi.HttpModule;
import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.Slots;

/**
 * The {@code http_map} module, nginx's {@code ngx_http_map_module.c}: {@code map string $variable { ... }} makes a
 * variable whose value depends on another's. Inside the block: {@code default value}, {@code hostnames},
 * {@code volatile}, {@code include file}, and {@code key value} lines, where a key starting with {@code ~} (or
 * {@code ~*}, caseless) is a regex whose captures the value may use, and a leading {@code \} escapes a key that
 * would otherwise be a parameter. Exact keys are compared case-insensitively, then (with {@code hostnames})
 * wildcard keys, then the regexes in order. Values may hold variables. {@code map_hash_max_size} and
 * {@code map_hash_bucket_size} are accepted and kept: Java's hash tables need no sizing.
 */
public final class MapModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_map";

    private static final Set<Ctx> M = Set.of(HttpCtx.MAIN);

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("map", M, Arity.BLOCK | Arity.TAKE2, MapConf.class, MapModule::map).multi()
            .syntax("string $variable { ... }").describe("Creates a new variable whose value depends on values of "
                + "one or more of the source variables specified in the first parameter."),
        Directive.of("map_hash_max_size", M, Arity.TAKE1, MapConf.class,
            Slots.number((MapConf c, int v) -> c.hashMaxSize = v))
            .syntax("size").defaults("2048").describe("Sets the maximum size of the map variables hash tables."),
        Directive.of("map_hash_bucket_size", M, Arity.TAKE1, MapConf.class,
            Slots.number((MapConf c, int v) -> c.hashBucketSize = v))
            .syntax("size").defaults("32|64|128").describe("Sets the bucket size for the map variables hash "
                + "tables."));

    /** The main conf: nginx's {@code ngx_http_map_conf_t}. */
    static final class MapConf {
        /** {@code map_hash_max_size}, kept for {@code -T}; Java's tables need no sizing. */
        int hashMaxSize = Conf.UNSET;
        /** {@code map_hash_bucket_size}, likewise. */
        int hashBucketSize = Conf.UNSET;
    }

    /** A regex key and its value: nginx's {@code ngx_http_map_regex_t}. */
    private record RegexKey(HttpRegex regex, ComplexValue value) {
    }

    /** One {@code map}: nginx's {@code ngx_http_map_ctx_t}, filled while its block is read. */
    static final class MapVariable {
        final ComplexValue source;
        final HostKeys<ComplexValue> keys = new HostKeys<>();
        final List<RegexKey> regexes = new ArrayList<>();
        /** The value texts seen so far: one compiled value per distinct text, as nginx's {@code values_hash}. */
        final Map<String, ComplexValue> values = new HashMap<>();
        ComplexValue defaultValue;
        boolean hostnames;
        boolean volatileValue;

        MapVariable(ComplexValue source) {
            this.source = source;
        }

        /** nginx's {@code ngx_http_map_variable()}. */
        String get(HttpRequest r) {
            String val = source.evaluate(r);
            if (hostnames && !val.isEmpty() && val.charAt(val.length() - 1) == '.') {
                val = val.substring(0, val.length() - 1);
            }
            ComplexValue v = find(r, val);
            if (v == null) {
                v = defaultValue;
            }
            return v == null ? "" : v.evaluate(r);
        }

        /** nginx's {@code ngx_http_map_find()}: exact, wildcards, then regexes, which only a non-empty value tries. */
        ComplexValue find(HttpRequest r, String val) {
            ComplexValue v = keys.find(val);
            if (v != null || val.isEmpty()) {
                return v;
            }
            for (RegexKey k : regexes) {
                Captures captures = r instanceof CoreRequest cr ? cr.captures : new Captures();
                int rc = k.regex.exec(val, captures);
                if (rc == Rc.OK) {
                    return k.value;
                }
                if (rc == Rc.ERROR) {
                    CoreOutput.log(r, LogLevel.ALERT, 0, k.regex.failure(val));
                    return null;
                }
            }
            return null;
        }
    }

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public MapModule() {
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
    public Object createMainConf() {
        return new MapConf();
    }

    @Override
    public void initMainConf(Object conf) {
        MapConf mcf = (MapConf) conf;
        mcf.hashMaxSize = Conf.init(mcf.hashMaxSize, 2048);
        mcf.hashBucketSize = Conf.init(mcf.hashBucketSize, 64);
    }

    /** nginx's {@code ngx_http_map_block()}. */
    private static void map(ConfContext cf, MapConf mcf) throws ConfException {
        MapVariable map = new MapVariable(HttpDirectives.compile(cf, cf.arg(1)));
        String name = variableName(cf.arg(2));
        HttpDirectives.addVariable(cf, name, (r, n) -> map.get(r), HttpConfig.VAR_CHANGEABLE);
        BlockLines.parse(cf, "map", (lcf, words) -> line(lcf, words, map));
        if (map.volatileValue) {
            HttpDirectives.addVariable(cf, name, (r, n) -> map.get(r),
                HttpConfig.VAR_CHANGEABLE | HttpConfig.VAR_NOCACHEABLE);
        }
    }

    /**
     * Checks the name of the variable a block defines.
     *
     * @param arg the argument, {@code $name}
     * @return the name without {@code $}
     * @throws ConfException {@code invalid variable name "x"}
     */
    static String variableName(String arg) throws ConfException {
        if (arg.length() < 2 || arg.charAt(0) != '$') {
            throw new ConfException("invalid variable name \"" + arg + "\"");
        }
        return arg.substring(1);
    }

    /** nginx's {@code ngx_http_map()}: one line of the block. */
    private static void line(ConfContext cf, List<String> words, MapVariable map) throws ConfException {
        String key = words.get(0);
        if (words.size() == 1 && key.equals("hostnames")) {
            map.hostnames = true;
            return;
        }
        if (words.size() == 1 && key.equals("volatile")) {
            map.volatileValue = true;
            return;
        }
        if (words.size() != 2) {
            throw new ConfException("invalid number of the map parameters");
        }
        if (key.equals("include")) {
            BlockLines.include(cf);
            return;
        }
        String text = words.get(1);
        ComplexValue value = map.values.get(text);
        if (value == null) {
            value = HttpDirectives.compile(cf, text);
            map.values.put(text, value);
        }
        if (key.equals("default")) {
            if (map.defaultValue != null) {
                throw new ConfException("duplicate default map parameter");
            }
            map.defaultValue = value;
            return;
        }
        if (!key.isEmpty() && key.charAt(0) == '~') {
            boolean caseless = key.length() > 1 && key.charAt(1) == '*';
            map.regexes.add(new RegexKey(HttpCoreModule.compileRegex(cf, key.substring(caseless ? 2 : 1), caseless),
                value));
            return;
        }
        if (!key.isEmpty() && key.charAt(0) == '\\') {
            key = key.substring(1);
        }
        int rc = map.keys.add(key, value, map.hostnames);
        if (rc == HostKeys.INVALID) {
            throw new ConfException("invalid hostname or wildcard \"" + key + "\"");
        }
        if (rc == HostKeys.CONFLICT) {
            throw new ConfException("conflicting parameter \"" + key + "\"");
        }
    }
}
