package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.core.BlockLines;
import jinx.http.internal.variables.CoreVariables;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.http.spi.HttpModule;
import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_geo} module, nginx's {@code ngx_http_geo_module.c}: {@code geo [$address] $variable { ... }}
 * gives a variable a value by the client's address ({@code $remote_addr}, or the address in another variable):
 * networks by longest prefix (IPv4 and IPv6), or with {@code ranges} IPv4 ranges {@code a.b.c.d-e.f.g.h}. Also
 * {@code default}, {@code delete}, {@code include}, and {@code proxy} with {@code proxy_recursive}: behind a
 * trusted proxy the address is taken from {@code X-Forwarded-For}. An address that is not one counts as
 * {@code 255.255.255.255}, as in nginx. Binary range bases ({@code include x.bin}) are not read.
 */
public final class GeoModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_geo";

    /** nginx's {@code INADDR_NONE}: what an invalid address is looked up as. */
    private static final byte[] NONE = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("geo", Set.of(HttpCtx.MAIN), Arity.BLOCK | Arity.TAKE12, GeoModule::geo).multi()
            .syntax("[$address] $variable { ... }").describe("Describes the dependency of values of the specified "
                + "variable on the client IP address."));

    /** One {@code geo}: nginx's {@code ngx_http_geo_conf_ctx_t} while read, then what the variable looks in. */
    private static final class Geo {
        final int index;
        final GeoTable table = new GeoTable();
        final List<Cidr> proxies = new ArrayList<>();
        boolean ranges;
        boolean proxyRecursive;
        String defaultValue;
        boolean entries;

        Geo(int index) {
            this.index = index;
        }

        /** nginx's {@code ngx_http_geo_cidr_variable()} and {@code ngx_http_geo_range_variable()}. */
        String get(HttpRequest r) {
            byte[] addr = addr(r);
            if (addr.length == 16 && Cidr.v4Mapped(addr)) {
                // looked up among the IPv4 networks or ranges, as nginx does
                addr = Cidr.unmap(addr);
            }
            String v;
            if (ranges) {
                v = addr.length == 4 ? table.findRange(number(addr)) : null;
            } else {
                v = table.find(addr);
            }
            return v != null ? v : defaultValue != null ? defaultValue : "";
        }

        /** nginx's {@code ngx_http_geo_addr()}. */
        private byte[] addr(HttpRequest r) {
            String text = index < 0 ? CoreVariables.remoteAddr(r) : r.variable(index);
            byte[] addr = text == null ? null : Cidr.address(text);
            if (addr == null) {
                // a UNIX-domain client, or a variable that is not an address (nginx's ngx_http_geo_addr())
                addr = NONE;
            }
            if (!proxies.isEmpty() && r.headersIn.xForwardedFor != null) {
                ForwardedAddr fa = new ForwardedAddr(addr, 0);
                fa.fromXForwardedFor(r, proxies, proxyRecursive);
                addr = fa.addr;
            }
            return addr;
        }
    }

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public GeoModule() {
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

    /** nginx's {@code ngx_http_geo_block()}. */
    private static void geo(ConfContext cf, Void unused) throws ConfException {
        int index = -1;
        String name = cf.arg(1);
        if (cf.args().size() == 3) {
            // nginx drops the first character of the address variable without looking at it
            index = HttpDirectives.variableIndex(cf, name.substring(1));
            name = cf.arg(2);
        }
        name = MapModule.variableName(name);
        Geo geo = new Geo(index);
        HttpDirectives.addVariable(cf, name, (r, n) -> geo.get(r), HttpConfig.VAR_CHANGEABLE);
        BlockLines.parse(cf, "geo", (lcf, words) -> line(lcf, words, geo));
    }

    /** nginx's {@code ngx_http_geo()}: one line of the block. */
    private static void line(ConfContext cf, List<String> words, Geo geo) throws ConfException {
        String key = words.get(0);
        if (words.size() == 1 && key.equals("ranges")) {
            if (geo.entries) {
                throw new ConfException("the \"ranges\" directive must be the first directive inside \"geo\" block");
            }
            geo.ranges = true;
            return;
        }
        if (words.size() == 1 && key.equals("proxy_recursive")) {
            geo.proxyRecursive = true;
            return;
        }
        if (words.size() != 2) {
            throw new ConfException("invalid number of the geo parameters");
        }
        if (key.equals("include")) {
            BlockLines.include(cf);
            return;
        }
        if (key.equals("proxy")) {
            geo.proxies.add(network(cf, words.get(1)));
            return;
        }
        geo.entries = true;
        if (key.equals("default")) {
            if (geo.defaultValue != null) {
                cf.log(LogLevel.WARN, (geo.ranges ? "duplicate default geo range value: \"" : "duplicate network "
                    + "\"default\", value: \"") + words.get(1) + "\", old value: \"" + geo.defaultValue + "\"");
            }
            geo.defaultValue = words.get(1);
            return;
        }
        if (geo.ranges) {
            range(cf, words, geo);
        } else {
            cidr(cf, words, geo);
        }
    }

    /** nginx's {@code ngx_http_geo_cidr()}. */
    private static void cidr(ConfContext cf, List<String> words, Geo geo) throws ConfException {
        boolean del = words.get(0).equals("delete");
        String net = del ? words.get(1) : words.get(0);
        Cidr cidr = network(cf, net);
        if (del) {
            if (geo.table.remove(cidr) == null) {
                cf.log(LogLevel.WARN, "no network \"" + net + "\" to delete");
            }
            return;
        }
        String old = geo.table.put(cidr, words.get(1));
        if (old != null) {
            cf.log(LogLevel.WARN, "duplicate network \"" + net + "\", value: \"" + words.get(1)
                + "\", old value: \"" + old + "\"");
        }
    }

    /** nginx's {@code ngx_http_geo_cidr_value()}. */
    private static Cidr network(ConfContext cf, String net) throws ConfException {
        if (net.equals("255.255.255.255")) {
            return new Cidr(NONE.clone(), NONE.clone(), false);
        }
        Cidr cidr = Cidr.parse(net);
        if (cidr == null) {
            throw new ConfException("invalid network \"" + net + "\"");
        }
        if (cidr.meaningless()) {
            cf.log(LogLevel.WARN, "low address bits of " + net + " are meaningless");
        }
        return cidr;
    }

    /** nginx's {@code ngx_http_geo_range()}. */
    private static void range(ConfContext cf, List<String> words, Geo geo) throws ConfException {
        boolean del = words.get(0).equals("delete");
        String net = del ? words.get(1) : words.get(0);
        int dash = net.indexOf('-');
        byte[] s = dash < 0 ? null : Cidr.inetAddr(net.substring(0, dash));
        byte[] e = dash < 0 ? null : Cidr.inetAddr(net.substring(dash + 1));
        // ngx_inet_addr() gives INADDR_NONE for 255.255.255.255 too: nginx refuses it in a range
        if (s == null || e == null || number(s) == 0xffffffffL || number(e) == 0xffffffffL
            || number(s) > number(e)) {
            throw new ConfException("invalid range \"" + net + "\"");
        }
        long start = number(s);
        long end = number(e);
        if (del) {
            if (!geo.table.deleteRange(start, end)) {
                cf.log(LogLevel.WARN, "no address range \"" + net + "\" to delete");
            }
            return;
        }
        GeoTable.Range r = geo.table.addRange(start, end, words.get(1));
        if (r == null) {
            return;
        }
        if (r.start() == start && r.end() == end) {
            cf.log(LogLevel.WARN, "duplicate range \"" + net + "\", value: \"" + words.get(1) + "\", old value: \""
                + r.value() + "\"");
            return;
        }
        throw new ConfException("range \"" + net + "\" overlaps \"" + Cidr.text(bytes(r.start())) + "-"
            + Cidr.text(bytes(r.end())) + "\"");
    }

    private static long number(byte[] a) {
        return (a[0] & 0xffL) << 24 | (a[1] & 0xff) << 16 | (a[2] & 0xff) << 8 | a[3] & 0xff;
    }

    private static byte[] bytes(long n) {
        return new byte[] {(byte) (n >> 24), (byte) (n >> 16), (byte) (n >> 8), (byte) n};
    }
}
