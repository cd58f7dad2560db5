package jinx.contrib.hello;

import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.spi.HttpConfKey;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.http.spi.HttpModule;
import jinx.http.spi.HttpOrder;
import jinx.http.spi.Phase;
import jinx.kernel.ConfException;
import jinx.kernel.Rc;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Conf;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * {@code hello [text];} in a location answers every request there with {@code text} (variables allowed;
 * {@code Hello, world} by default) and a newline, {@code hello_repeat} times (1 by default, set in
 * {@code http}, {@code server} or {@code location} and inherited), as {@code text/plain}. {@code $hello_count}
 * is the number of greetings this worker has sent, this one included.
 *
 * <p>The kernel makes a fresh instance for every configuration (cycle), so the fields below belong to one
 * configuration; a reload makes new ones. Everything here runs on the worker's loop thread: nothing blocks.
 */
public final class HelloModule implements JinxModule, HttpModule {

    /** The module's name, as {@code jinx -m} lists it and other modules' {@code after}/{@code before} name it. */
    public static final String NAME = "hello";

    private static final Set<jinx.kernel.spi.Ctx> LOC = Set.of(HttpCtx.LOC);
    private static final Set<jinx.kernel.spi.Ctx> ANY_LEVEL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("hello", LOC, Arity.NOARGS | Arity.TAKE1, HelloLocConf.class, HelloModule::hello),
        Directive.of("hello_repeat", ANY_LEVEL, Arity.TAKE1, HelloLocConf.class, HelloModule::repeat));

    /** Where this module's location confs are in a request, typed. Made in postconfiguration. */
    private HttpConfKey<HelloLocConf> loc;
    /** Greetings sent by this worker under this configuration. */
    private long count;

    /** The kernel instantiates modules through {@link java.util.ServiceLoader}: a public no-argument constructor. */
    public HelloModule() {
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
        // both constants are copied into this class by the compiler: the SPI this jar was built against
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

    /** A content handler stands before the built-in ones: {@code http_static} answers 404 and never declines. */
    @Override
    public List<String> before() {
        return List.of(HttpOrder.CONTENT_HANDLERS);
    }

    @Override
    public Object createLocConf() {
        return new HelloLocConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) throws ConfException {
        HelloLocConf prev = (HelloLocConf) parent;
        HelloLocConf conf = (HelloLocConf) child;
        // nginx's ngx_conf_merge_value(conf->repeat, prev->repeat, 1)
        conf.repeat = Conf.merge(conf.repeat, prev.repeat, 1);
    }

    @Override
    public void preconfiguration(HttpConfig cf) throws ConfException {
        // NOCACHEABLE: evaluated each time it is used, so the log line sees the count after the greeting
        cf.addVariable("hello_count", (r, name) -> Long.toString(count), HttpConfig.VAR_NOCACHEABLE);
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        loc = cf.confKey(this, HelloLocConf.class);
        cf.addPhaseHandler(Phase.CONTENT, this::handler);
    }

    private static void hello(ConfContext cf, HelloLocConf conf) throws ConfException {
        // a second "hello" in one location is refused by the kernel's dispatcher: the directive is not multi()
        conf.enabled = true;
        if (cf.args().size() == 2) {
            conf.text = HttpDirectives.compile(cf, cf.arg(1));
        }
    }

    private static void repeat(ConfContext cf, HelloLocConf conf) throws ConfException {
        int n = ConfValues.parseNumber(cf.arg(1));
        if (n <= 0) {
            throw new ConfException("invalid value \"" + cf.arg(1) + "\" in \"hello_repeat\" directive");
        }
        conf.repeat = n;
    }

    /** The CONTENT handler: declines where {@code hello} is not set, so the next handler decides. */
    private int handler(HttpRequest r) {
        HelloLocConf conf = r.locConf(loc);
        if (!conf.enabled) {
            return Rc.DECLINED;
        }
        if ((r.method & (HttpRequest.GET | HttpRequest.HEAD)) == 0) {
            return 405;
        }
        count++;
        String text = conf.text != null ? conf.text.evaluate(r) : "Hello, world";
        return r.sendResponse(200, "text/plain", (text + "\n").repeat(conf.repeat));
    }
}
