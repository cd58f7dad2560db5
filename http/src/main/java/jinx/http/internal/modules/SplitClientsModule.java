package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.core.BlockLines;
import jinx.http.spi.ComplexValue;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.http.spi.HttpModule;
import jinx.kernel.ConfException;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_split_clients} module, nginx's {@code ngx_http_split_clients_module.c}:
 * {@code split_clients string $variable { 0.5% a; 2% b; * c; }} hashes the string with nginx's MurmurHash2 and gives
 * the variable the value of the bucket the hash falls in, so that a key lands in the bucket it lands in with nginx.
 */
public final class SplitClientsModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_split_clients";

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("split_clients", Set.of(HttpCtx.MAIN), Arity.BLOCK | Arity.TAKE2,
            SplitClientsModule::splitClients).multi()
            .syntax("string $variable { ... }").describe("Creates a variable for A/B testing: the string is hashed "
                + "with MurmurHash2 and the variable takes the value of the percentage the hash falls in."));

    /**
     * One bucket: its value and the hash below which it is chosen (nginx's {@code ngx_http_split_clients_part_t});
     * 0 for {@code *}.
     */
    private static final class Part {
        long percent;
        final String value;

        Part(long percent, String value) {
            this.percent = percent;
            this.value = value;
        }
    }

    /** One {@code split_clients}: nginx's {@code ngx_http_split_clients_ctx_t}. */
    private record Split(ComplexValue source, List<Part> parts) {

        /** nginx's {@code ngx_http_split_clients_variable()}. */
        String get(HttpRequest r) {
            long hash = MurmurHash2.hash(source.evaluate(r));
            for (Part part : parts) {
                if (hash < part.percent || part.percent == 0) {
                    return part.value;
                }
            }
            return "";
        }
    }

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public SplitClientsModule() {
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

    /** nginx's {@code ngx_conf_split_clients_block()}. */
    private static void splitClients(ConfContext cf, Void unused) throws ConfException {
        Split split = new Split(HttpDirectives.compile(cf, cf.arg(1)), new ArrayList<>());
        String name = MapModule.variableName(cf.arg(2));
        HttpDirectives.addVariable(cf, name, (r, n) -> split.get(r), HttpConfig.VAR_CHANGEABLE);
        BlockLines.parse(cf, "split_clients", (lcf, words) -> split.parts().add(part(words)));
        long sum = 0;
        long last = 0;
        for (Part part : split.parts()) {
            sum = part.percent != 0 ? sum + part.percent : 10000;
            if (sum > 10000) {
                throw new ConfException("percent total is greater than 100%");
            }
            if (part.percent != 0) {
                // nginx's uint32_t arithmetic: the product in 64 bits, the sum kept to 32
                last = (last + part.percent * 0xffffffffL / 10000) & 0xffffffffL;
                part.percent = last;
            }
        }
    }

    /** nginx's {@code ngx_http_split_clients()}: one line, {@code percent% value} or {@code * value}. */
    private static Part part(List<String> words) throws ConfException {
        if (words.size() != 2) {
            throw new ConfException("invalid number of arguments in \"split_clients\" directive");
        }
        String p = words.get(0);
        if (p.equals("*")) {
            return new Part(0, words.get(1));
        }
        long n = p.isEmpty() || p.charAt(p.length() - 1) != '%' ? -1 : atofp(p.substring(0, p.length() - 1), 2);
        if (n <= 0) {
            throw new ConfException("invalid percent value \"" + p + "\"");
        }
        return new Part(n, words.get(1));
    }

    /**
     * nginx's {@code ngx_atofp()}: a fixed-point number with at most {@code point} decimals, times
     * 10<sup>point</sup> ({@code "10.5"} with 2 is 1050).
     *
     * @param s the text
     * @param point the decimals
     * @return the number, or -1 when invalid
     */
    static long atofp(String s, int point) {
        if (s.isEmpty()) {
            return -1;
        }
        long value = 0;
        boolean dot = false;
        for (int i = 0; i < s.length(); i++) {
            if (point == 0) {
                return -1;
            }
            char c = s.charAt(i);
            if (c == '.') {
                if (dot) {
                    return -1;
                }
                dot = true;
                continue;
            }
            if (c < '0' || c > '9' || value > (Long.MAX_VALUE - 9) / 10) {
                return -1;
            }
            value = value * 10 + (c - '0');
            if (dot) {
                point--;
            }
        }
        while (point-- > 0) {
            if (value > Long.MAX_VALUE / 10) {
                return -1;
            }
            value *= 10;
        }
        return value;
    }
}
