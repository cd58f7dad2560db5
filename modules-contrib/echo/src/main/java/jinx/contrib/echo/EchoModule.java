package jinx.contrib.echo;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.spi.ComplexValue;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.ConfException;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The echo module: a location whose configuration holds echo directives is answered by running them in order
 * (a CONTENT phase handler standing before the built-in ones). The response is 200 with the location's
 * {@code default_type}, sent chunked (or closed, for HTTP/1.0) since its length is known only at the end.
 *
 * <ul>
 *   <li>{@code echo [-n] [--] [text...]}: the words, variables evaluated, joined by a space, then a newline
 *       unless {@code -n}; {@code --} ends the options;</li>
 *   <li>{@code echo_duplicate count text}: the text {@code count} times;</li>
 *   <li>{@code echo_flush}: sends the buffered output now;</li>
 *   <li>{@code echo_sleep seconds}: a timer of the event loop (fractions allowed, {@code 0.5}); no thread
 *       blocks;</li>
 *   <li>{@code echo_exec uri [args]} or {@code echo_exec @name}: an internal redirect (a {@code ?} in the URI
 *       starts its arguments); output buffered before it is dropped, output already sent makes it fail.</li>
 * </ul>
 */
public final class EchoModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "echo";

    private static final Set<Ctx> LOC = Set.of(HttpCtx.LOC, HttpCtx.LIF);

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("echo", LOC, Arity.ANY, EchoLocConf.class, EchoModule::echo).multi(),
        Directive.of("echo_duplicate", LOC, Arity.TAKE2, EchoLocConf.class,
            (cf, c) -> add(cf, c, EchoCommand.Kind.DUPLICATE, 1)).multi(),
        Directive.of("echo_flush", LOC, Arity.NOARGS, EchoLocConf.class,
            (cf, c) -> add(cf, c, EchoCommand.Kind.FLUSH, 1)).multi(),
        Directive.of("echo_sleep", LOC, Arity.TAKE1, EchoLocConf.class,
            (cf, c) -> add(cf, c, EchoCommand.Kind.SLEEP, 1)).multi(),
        Directive.of("echo_exec", LOC, Arity.TAKE12, EchoLocConf.class,
            (cf, c) -> add(cf, c, EchoCommand.Kind.EXEC, 1)).multi());

    private int ctxIndex = -1;

    /** Instantiated by the kernel, once per configuration. */
    public EchoModule() {
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

    /** Before the built-in content handlers: {@code http_static} answers 404 and never declines. */
    @Override
    public List<String> before() {
        return List.of("http_index");
    }

    @Override
    public Object createLocConf() {
        return new EchoLocConf();
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addPhaseHandler(Phase.CONTENT, this::handler);
    }

    /** {@code echo}: options first ({@code -n}, {@code --}); what follows is the text. */
    private static void echo(ConfContext cf, EchoLocConf conf) throws ConfException {
        List<String> args = cf.args();
        boolean newline = true;
        int i = 1;
        for (; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                i++;
                break;
            }
            if (!a.equals("-n")) {
                break;
            }
            newline = false;
        }
        conf.commands.add(new EchoCommand(EchoCommand.Kind.ECHO, compile(cf, i), newline));
    }

    private static void add(ConfContext cf, EchoLocConf conf, EchoCommand.Kind kind, int from)
        throws ConfException {
        conf.commands.add(new EchoCommand(kind, compile(cf, from), false));
    }

    private static List<ComplexValue> compile(ConfContext cf, int from) throws ConfException {
        List<ComplexValue> values = new ArrayList<>();
        for (int i = from; i < cf.args().size(); i++) {
            values.add(HttpDirectives.compile(cf, cf.arg(i)));
        }
        return List.copyOf(values);
    }

    private int handler(HttpRequest r) {
        EchoLocConf conf = (EchoLocConf) r.locConf(ctxIndex);
        if (conf.commands.isEmpty()) {
            return Rc.DECLINED;
        }
        int rc = r.discardRequestBody();
        if (rc != Rc.OK) {
            return rc;
        }
        return new EchoRun(r, conf.commands).start();
    }
}
