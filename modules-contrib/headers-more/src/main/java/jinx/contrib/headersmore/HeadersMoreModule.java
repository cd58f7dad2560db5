package jinx.contrib.headersmore;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import jinx.http.HeadersOut;
import jinx.http.HttpRequest;
import jinx.http.spi.HeaderFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.http.spi.HttpModule;
import jinx.kernel.ConfException;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * {@code more_set_headers [-s 'codes'] [-t 'types'] 'Name: value'...} and {@code more_clear_headers [-s 'codes']
 * [-t 'types'] 'Name'...}, in {@code http}, {@code server}, {@code location} and {@code if} in a location, as a
 * header filter. Without {@code -s} or {@code -t} a command applies to any status and any type; {@code -t}
 * compares the media type without its parameters. Values may hold variables; an empty value clears; a name
 * ending in {@code *} clears every header it starts. Built-in headers are handled in their own fields:
 * {@code Server}, {@code Content-Type}, {@code Content-Length}, {@code Last-Modified}, {@code Location} ...
 *
 * <p>Order, in execution order (the direction Jinx states every chain in): this filter runs after the built-in
 * {@code http_headers_filter} (so it sees, and may override, {@code add_header}'s lines) and before
 * {@code http_header_filter}, which writes the header out.
 */
public final class HeadersMoreModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "headers_more";

    private static final Set<Ctx> CONTEXTS = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC, HttpCtx.LIF);

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("more_set_headers", CONTEXTS, Arity.ONE_MORE, MoreLocConf.class,
            (cf, c) -> command(cf, c, true)).multi(),
        Directive.of("more_clear_headers", CONTEXTS, Arity.ONE_MORE, MoreLocConf.class,
            (cf, c) -> command(cf, c, false)).multi());

    private int ctxIndex = -1;

    /** Instantiated by the kernel, once per configuration. */
    public HeadersMoreModule() {
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
    public List<String> after() {
        return List.of("http_headers_filter");
    }

    @Override
    public List<String> before() {
        return List.of("http_header_filter");
    }

    @Override
    public Object createLocConf() {
        return new MoreLocConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) {
        MoreLocConf prev = (MoreLocConf) parent;
        MoreLocConf conf = (MoreLocConf) child;
        if (conf.commands == null) {
            conf.commands = prev.commands != null ? prev.commands : List.of();
        }
    }

    @Override
    public void postconfiguration(HttpConfig cf) {
        ctxIndex = cf.ctxIndex(this);
        cf.addHeaderFilter(this::filter);
    }

    private int filter(HttpRequest r, HeaderFilter.Next next) {
        MoreLocConf conf = (MoreLocConf) r.locConf(ctxIndex);
        for (MoreCommand cmd : conf.commands) {
            if (applies(cmd, r.headersOut)) {
                apply(cmd, r);
            }
        }
        return next.filter(r);
    }

    private static boolean applies(MoreCommand cmd, HeadersOut h) {
        if (!cmd.statuses().isEmpty() && !cmd.statuses().contains(h.status)) {
            return false;
        }
        if (cmd.types().isEmpty()) {
            return true;
        }
        if (h.contentType == null) {
            return false;
        }
        int semi = h.contentType.indexOf(';');
        String type = (semi < 0 ? h.contentType : h.contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
        return cmd.types().contains(type);
    }

    private static void apply(MoreCommand cmd, HttpRequest r) {
        for (MoreCommand.Header header : cmd.headers()) {
            if (cmd.set()) {
                HeadersOutEditor.set(r.headersOut, header.name(), header.value().evaluate(r));
            } else {
                HeadersOutEditor.clear(r.headersOut, header.name());
            }
        }
    }

    /** Parses one directive, as headers-more's {@code ngx_http_headers_more_parse_directive()}. */
    private static void command(ConfContext cf, MoreLocConf conf, boolean set) throws ConfException {
        Set<Integer> statuses = new HashSet<>();
        List<String> types = new ArrayList<>();
        List<MoreCommand.Header> headers = new ArrayList<>();
        List<String> args = cf.args();
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if ((a.equals("-s") || a.equals("-t")) && i + 1 < args.size()) {
                String list = args.get(++i);
                for (String word : list.trim().split("\\s+")) {
                    if (word.isEmpty()) {
                        continue;
                    }
                    if (a.equals("-s")) {
                        statuses.add(status(word));
                    } else {
                        types.add(word.toLowerCase(Locale.ROOT));
                    }
                }
            } else if (a.startsWith("-")) {
                throw new ConfException("invalid option name: \"" + a + "\"");
            } else {
                headers.add(set ? header(cf, a) : new MoreCommand.Header(a.trim(), null));
            }
        }
        if (headers.isEmpty()) {
            throw new ConfException("\"" + cf.name() + "\" directive has no headers");
        }
        List<MoreCommand> list = conf.commands == null ? new ArrayList<>() : new ArrayList<>(conf.commands);
        list.add(new MoreCommand(set, Set.copyOf(statuses), List.copyOf(types), List.copyOf(headers)));
        conf.commands = List.copyOf(list);
    }

    private static int status(String word) throws ConfException {
        try {
            int code = Integer.parseInt(word);
            if (code >= 100 && code <= 999) {
                return code;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfException("status code value is invalid: \"" + word + "\"");
    }

    private static MoreCommand.Header header(ConfContext cf, String arg) throws ConfException {
        int colon = arg.indexOf(':');
        if (colon <= 0) {
            throw new ConfException("invalid header: \"" + arg + "\"");
        }
        String name = arg.substring(0, colon).trim();
        String value = arg.substring(colon + 1).trim();
        if (name.isEmpty() || name.endsWith("*")) {
            throw new ConfException("invalid header name: \"" + name + "\"");
        }
        return new MoreCommand.Header(name, HttpDirectives.compile(cf, value));
    }
}
