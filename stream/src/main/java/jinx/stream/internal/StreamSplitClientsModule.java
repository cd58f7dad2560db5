package jinx.stream.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Directive;
import jinx.stream.StreamSession;
import jinx.stream.spi.StreamVariable;

/**
 * nginx's {@code ngx_stream_split_clients_module}: {@code split_clients string $variable { 0.5% a; 20% b; * c; }}
 * hashes the string with MurmurHash2 (nginx's {@code ngx_murmur_hash2()}) and gives the value of the part the hash
 * falls in, so a client lands where nginx would put it.
 */
public final class StreamSplitClientsModule extends StreamModuleBase {

    /** The module's name. */
    public static final String NAME = "stream_split_clients";

    /** The block has no conf of its own: the parts live in the variable. */
    static final class MainConf {
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("split_clients", Set.of(MAIN), Arity.BLOCK | Arity.TAKE2, MainConf.class,
            StreamSplitClientsModule::splitClients).multi().syntax("string $variable { ... }")
            .describe("Creates a variable for A/B testing."));

    /**
     * The module; the kernel makes one per cycle.
     */
    public StreamSplitClientsModule() {
        super(NAME, DIRECTIVES);
    }

    @Override
    public Object createMainConf() {
        return new MainConf();
    }

    /** The parts: upper hash bounds (0 for {@code *}) and values. */
    private static final class Parts implements StreamVariable {
        final StreamValue source;
        final List<Long> bounds = new ArrayList<>();
        final List<String> values = new ArrayList<>();
        final List<Long> percents = new ArrayList<>();

        Parts(StreamValue source) {
            this.source = source;
        }

        @Override
        public String get(StreamSession s) {
            long hash = murmurHash2(source.evaluate(s).getBytes(StandardCharsets.ISO_8859_1)) & 0xffffffffL;
            for (int i = 0; i < bounds.size(); i++) {
                long b = bounds.get(i);
                if (hash < b || b == 0) {
                    return values.get(i);
                }
            }
            return "";
        }
    }

    private static void splitClients(ConfContext cf, MainConf conf) throws ConfException {
        BlockScope outer = (BlockScope) cf.scope();
        StreamBlock block = outer.block;
        String var = cf.arg(2);
        String name = StreamBlock.variableName(var);
        Parts parts = new Parts(StreamValue.compile(block, cf.arg(1)));
        cf.parseBlock(new DataBlockScope(outer, (c, words) -> part(words, parts)));
        long sum = 0;
        long last = 0;
        for (int i = 0; i < parts.percents.size(); i++) {
            long p = parts.percents.get(i);
            sum = p != 0 ? sum + p : 10000;
            if (sum > 10000) {
                throw new ConfException("percent total is greater than 100%");
            }
            if (p != 0) {
                last += p * 0xffffffffL / 10000;
            }
            parts.bounds.add(p != 0 ? last : 0L);
        }
        block.defineVariable(name, parts);
    }

    /** One line: {@code 12.5% value;} or {@code * value;}. */
    private static void part(List<String> words, Parts parts) throws ConfException {
        // nginx reads the first two words of a line and ignores the rest
        if (words.size() < 2) {
            throw new ConfException("invalid number of arguments in \"split_clients\" directive");
        }
        String p = words.get(0);
        long percent = 0;
        if (!p.equals("*")) {
            percent = p.endsWith("%") ? fixed2(p.substring(0, p.length() - 1)) : -1;
            if (percent <= 0) {
                throw new ConfException("invalid percent value \"" + p + "\"");
            }
        }
        parts.percents.add(percent);
        parts.values.add(words.get(1));
    }

    /** nginx's {@code ngx_atofp(s, n, 2)}: a number with at most two decimals, times 100; -1 when invalid. */
    private static long fixed2(String s) {
        long v = 0;
        int decimals = -1;
        for (char ch : s.toCharArray()) {
            if (ch == '.') {
                if (decimals >= 0) {
                    return -1;
                }
                decimals = 0;
                continue;
            }
            if (ch < '0' || ch > '9' || decimals == 2) {
                return -1;
            }
            v = v * 10 + ch - '0';
            if (decimals >= 0) {
                decimals++;
            }
        }
        for (int d = Math.max(decimals, 0); d < 2; d++) {
            v *= 10;
        }
        return s.isEmpty() ? -1 : v;
    }

    /** nginx's {@code ngx_murmur_hash2()}. */
    static int murmurHash2(byte[] data) {
        int len = data.length;
        int h = len;
        int i = 0;
        while (len >= 4) {
            int k = data[i] & 0xff | (data[i + 1] & 0xff) << 8 | (data[i + 2] & 0xff) << 16 | (data[i + 3] & 0xff) << 24;
            k *= 0x5bd1e995;
            k ^= k >>> 24;
            k *= 0x5bd1e995;
            h *= 0x5bd1e995;
            h ^= k;
            i += 4;
            len -= 4;
        }
        switch (len) {
            case 3:
                h ^= (data[i + 2] & 0xff) << 16;
                // fall through
            case 2:
                h ^= (data[i + 1] & 0xff) << 8;
                // fall through
            case 1:
                h ^= data[i] & 0xff;
                h *= 0x5bd1e995;
                break;
            default:
                break;
        }
        h ^= h >>> 13;
        h *= 0x5bd1e995;
        h ^= h >>> 15;
        return h;
    }
}
