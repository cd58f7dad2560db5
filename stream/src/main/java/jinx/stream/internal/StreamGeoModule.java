package jinx.stream.internal;

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
 * nginx's {@code ngx_stream_geo_module} for networks: {@code geo [$address] $variable { default value;
 * 10.0.0.0/8 value; 192.0.2.1 value; delete 10.1.0.0/16; }}, the most specific network holding the address
 * (the client's by default) giving the value. The {@code ranges} form and {@code include} are not written yet.
 */
public final class StreamGeoModule extends StreamModuleBase {

    /** The module's name. */
    public static final String NAME = "stream_geo";

    /** The block has no conf of its own: the networks live in the variable. */
    static final class MainConf {
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("geo", Set.of(MAIN), Arity.BLOCK | Arity.TAKE12, MainConf.class, StreamGeoModule::geo).multi()
            .syntax("[$address] $variable { ... }").describe("Describes the dependency of values of the specified "
                + "variable on the client IP address."));

    /**
     * The module; the kernel makes one per cycle.
     */
    public StreamGeoModule() {
        super(NAME, DIRECTIVES);
    }

    @Override
    public Object createMainConf() {
        return new MainConf();
    }

    private record Net(Cidr cidr, int bits, String value) {
    }

    /** The networks, most specific first. */
    private static final class Table implements StreamVariable {
        final StreamValue source;
        final List<Net> nets = new ArrayList<>();
        String dflt;

        Table(StreamValue source) {
            this.source = source;
        }

        @Override
        public String get(StreamSession s) {
            String a = source == null ? s.remoteAddr() : source.evaluate(s);
            byte[] addr = Cidr.numeric(a);
            if (addr != null) {
                for (Net n : nets) {
                    if (n.cidr().matches(addr)) {
                        return n.value();
                    }
                }
            }
            return dflt == null ? "" : dflt;
        }
    }

    private static void geo(ConfContext cf, MainConf conf) throws ConfException {
        BlockScope outer = (BlockScope) cf.scope();
        StreamBlock block = outer.block;
        String var = cf.arg(cf.args().size() - 1);
        String name = StreamBlock.variableName(var);
        if (cf.args().size() == 3 && (cf.arg(1).length() < 2 || cf.arg(1).charAt(0) != '$')) {
            throw new ConfException("invalid variable name \"" + cf.arg(1) + "\"");
        }
        StreamValue source = cf.args().size() == 3 ? StreamValue.compile(block, cf.arg(1)) : null;
        Table table = new Table(source);
        cf.parseBlock(new DataBlockScope(outer, (c, words) -> line(c, words, table)));
        table.nets.sort((x, y) -> y.bits() - x.bits());
        block.defineVariable(name, table);
    }

    private static void line(ConfContext cf, List<String> words, Table table) throws ConfException {
        if (words.size() != 2) {
            throw new ConfException("invalid number of the geo parameters");
        }
        String key = words.get(0);
        String value = words.get(1);
        if (key.equals("default")) {
            table.dflt = value;
            return;
        }
        if (key.equals("include") || key.equals("ranges")) {
            throw new ConfException("invalid parameter \"" + key + "\"");
        }
        boolean delete = key.equals("delete");
        String net = delete ? value : key;
        Cidr.Parsed p = Cidr.parse(net);
        if (p == null || p.cidr().any() || p.cidr().unix()) {
            throw new ConfException("invalid network \"" + net + "\"");
        }
        if (p.lowBits()) {
            cf.log(jinx.kernel.LogLevel.WARN, "low address bits of " + net + " are meaningless");
        }
        int bits = 0;
        for (byte b : p.cidr().mask()) {
            bits += Integer.bitCount(b & 0xff);
        }
        Cidr c = p.cidr();
        table.nets.removeIf(n -> java.util.Arrays.equals(n.cidr().addr(), c.addr())
            && java.util.Arrays.equals(n.cidr().mask(), c.mask()));
        if (!delete) {
            table.nets.add(new Net(c, bits, value));
        }
    }
}
