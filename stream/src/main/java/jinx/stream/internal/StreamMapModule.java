package jinx.stream.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import jinx.kernel.ConfException;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Directive;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamVariable;

/**
 * nginx's {@code ngx_stream_map_module}: {@code map $source $variable { default value; key value; ~regex value;
 * ~*regex value; }}, evaluated when the variable is read: exact keys first, then the regular expressions in order,
 * then the default (empty when none is given). Values may hold variables. {@code hostnames} and {@code volatile}
 * are accepted (the map is evaluated on every read, as {@code volatile} asks).
 */
public final class StreamMapModule extends StreamModuleBase {

    /** The module's name. */
    public static final String NAME = "stream_map";

    /** The block has no conf of its own: the maps live in the variables they define. */
    static final class MainConf {
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("map", Set.of(MAIN), Arity.BLOCK | Arity.TAKE2, MainConf.class, StreamMapModule::map).multi()
            .syntax("string $variable { ... }").describe("Creates a new variable whose value depends on values of "
                + "one or more of the source variables specified in the first parameter."));

    /**
     * The module; the kernel makes one per cycle.
     */
    public StreamMapModule() {
        super(NAME, DIRECTIVES);
    }

    @Override
    public Object createMainConf() {
        return new MainConf();
    }

    /** One map: nginx's {@code ngx_stream_map_ctx_t}. */
    private static final class MapTable implements StreamVariable {
        final StreamValue source;
        final Map<String, StreamValue> exact = new HashMap<>();
        /** The values as written, for nginx's duplicate and conflicting keys. */
        final Map<String, String> written = new HashMap<>();
        final List<Pattern> regex = new ArrayList<>();
        final List<StreamValue> regexValues = new ArrayList<>();
        StreamValue dflt;

        MapTable(StreamValue source) {
            this.source = source;
        }

        @Override
        public String get(StreamSession s) {
            String key = source.evaluate(s);
            StreamValue v = exact.get(key);
            if (v == null) {
                for (int i = 0; i < regex.size(); i++) {
                    Matcher m = regex.get(i).matcher(key);
                    if (m.find()) {
                        v = regexValues.get(i);
                        break;
                    }
                }
            }
            if (v == null) {
                v = dflt;
            }
            return v == null ? "" : v.evaluate(s);
        }
    }

    private static void map(ConfContext cf, MainConf conf) throws ConfException {
        BlockScope outer = (BlockScope) cf.scope();
        StreamBlock block = outer.block;
        String var = cf.arg(2);
        String name = StreamBlock.variableName(var);
        MapTable table = new MapTable(StreamValue.compile(block, cf.arg(1)));
        cf.parseBlock(new DataBlockScope(outer, (c, words) -> line(c, words, table, block)));
        block.defineVariable(name, table);
    }

    private static void line(ConfContext cf, List<String> words, MapTable table, StreamBlock block)
        throws ConfException {
        String key = words.get(0);
        if (words.size() == 1 && (key.equals("hostnames") || key.equals("volatile"))) {
            return;
        }
        if (words.size() != 2) {
            throw new ConfException("invalid number of the map parameters");
        }
        StreamValue value = StreamValue.compile(block, words.get(1));
        if (key.equals("default")) {
            if (table.dflt != null) {
                throw new ConfException("duplicate default map parameter");
            }
            table.dflt = value;
            return;
        }
        if (key.startsWith("~")) {
            boolean caseless = key.startsWith("~*");
            String re = key.substring(caseless ? 2 : 1);
            try {
                table.regex.add(Pattern.compile(re, caseless ? Pattern.CASE_INSENSITIVE : 0));
            } catch (PatternSyntaxException e) {
                throw new ConfException("pcre2_compile() failed: " + e.getDescription() + " in \"" + re + "\"");
            }
            table.regexValues.add(value);
            return;
        }
        if (key.startsWith("\\")) {
            key = key.substring(1);
        }
        String before = table.written.putIfAbsent(key, words.get(1));
        if (before == null) {
            table.exact.put(key, value);
        } else if (before.equals(words.get(1))) {
            cf.log(jinx.kernel.LogLevel.WARN, "duplicate parameter \"" + key + "\"");
        } else {
            throw new ConfException("conflicting parameter \"" + key + "\"");
        }
    }
}
