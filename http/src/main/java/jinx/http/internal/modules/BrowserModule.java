package jinx.http.internal.modules;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
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
 * The {@code http_browser} module, nginx's {@code ngx_http_browser_module.c}: {@code $modern_browser} and
 * {@code $ancient_browser} from the {@code User-Agent} by nginx's masks (Opera, MSIE, Gecko, Safari, Konqueror with
 * versions {@code X.X.X.X}), {@code ancient_browser} substrings and {@code netscape4}, and {@code $msie} as the HTTP
 * core's {@code ngx_http_process_user_agent()} sets it. The first listed browser whose name is in the
 * {@code User-Agent} decides by its version (Opera is checked first, unreachable when not listed), as nginx 1.22
 * answers. {@code modern_browser} with a single word other than
 * {@code unlisted} is refused as {@code invalid parameter}, where nginx fails without a message.
 */
public final class BrowserModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_browser";

    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);

    /** nginx's {@code ngx_http_modern_browser_masks}: name, skip, text to find, what to add. Opera first. */
    private record Mask(String browser, int skip, String name, int add) {
    }

    private static final List<Mask> MASKS = List.of(
        new Mask("opera", 0, "Opera", "Opera ".length()),
        new Mask("msie", "Mozilla/4.0 (compatible; ".length(), "MSIE ", "MSIE ".length()),
        new Mask("gecko", "Mozilla/5.0 (".length(), "rv:", "rv:".length()),
        new Mask("safari", "Mozilla/5.0 (".length(), "Safari/", "Safari/".length()),
        new Mask("konqueror", "Mozilla/5.0 (compatible; ".length(), "Konqueror/", "Konqueror/".length()));

    /** Opera's version when it is not listed: unreachable, since an Opera may say MSIE. */
    private static final long UNREACHABLE = 4001000000L;

    /** One {@code modern_browser}: the mask's index and the version as nginx scales it. */
    private record Modern(int mask, long version) {
    }

    /** The location conf: nginx's {@code ngx_http_browser_conf_t}. */
    static final class BrowserConf {
        List<Modern> modern;
        List<String> ancient;
        String modernValue;
        String ancientValue;
        boolean modernUnlisted;
        boolean netscape4;
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("modern_browser", MSL, Arity.TAKE12, BrowserConf.class, BrowserModule::modernBrowser).multi()
            .syntax("browser version | unlisted").describe("Specifies a version starting from which a browser is "
                + "considered modern."),
        Directive.of("ancient_browser", MSL, Arity.ONE_MORE, BrowserConf.class, BrowserModule::ancientBrowser)
            .multi().syntax("string ...").describe("If any of the specified substrings is found in the "
                + "\"User-Agent\" request header field, the browser will be considered ancient."),
        Directive.of("modern_browser_value", MSL, Arity.TAKE1, BrowserConf.class,
            (cf, c) -> c.modernValue = cf.arg(1)).multi()
            .syntax("string").defaults("1").describe("Sets a value for the $modern_browser variables."),
        Directive.of("ancient_browser_value", MSL, Arity.TAKE1, BrowserConf.class,
            (cf, c) -> c.ancientValue = cf.arg(1)).multi()
            .syntax("string").defaults("1").describe("Sets a value for the $ancient_browser variables."));

    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public BrowserModule() {
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

    /** nginx's {@code ngx_http_browser_add_variable()}. */
    @Override
    public void preconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addVariable("msie", (r, n) -> msie(ua(r)) ? "1" : "", HttpConfig.VAR_CHANGEABLE);
        cf.addVariable("modern_browser", (r, n) -> {
            BrowserConf c = (BrowserConf) r.locConf(ctxIndex);
            return browser(c, ua(r)) ? c.modernValue : "";
        }, HttpConfig.VAR_CHANGEABLE);
        cf.addVariable("ancient_browser", (r, n) -> {
            BrowserConf c = (BrowserConf) r.locConf(ctxIndex);
            return browser(c, ua(r)) ? "" : c.ancientValue;
        }, HttpConfig.VAR_CHANGEABLE);
    }

    @Override
    public Object createLocConf() {
        return new BrowserConf();
    }

    /** nginx's {@code ngx_http_browser_merge_conf()}. */
    @Override
    public void mergeLocConf(Object parent, Object child) {
        BrowserConf prev = (BrowserConf) parent;
        BrowserConf conf = (BrowserConf) child;
        if (conf.modern == null) {
            conf.modern = prev.modern;
        } else if (conf.modern.stream().noneMatch(m -> m.mask == 0)) {
            // an Opera may contain "MSIE": unlisted, it is checked first and never modern by its version
            conf.modern.add(new Modern(0, UNREACHABLE));
        }
        if (conf.modern != null) {
            conf.modern.sort(Comparator.comparingInt(Modern::mask));
        }
        if (conf.ancient == null) {
            conf.ancient = prev.ancient;
        }
        if (conf.modernValue == null) {
            conf.modernValue = prev.modernValue == null ? "1" : prev.modernValue;
        }
        if (conf.ancientValue == null) {
            conf.ancientValue = prev.ancientValue == null ? "1" : prev.ancientValue;
        }
    }

    private static String ua(HttpRequest r) {
        return r.headersIn.userAgent == null ? null : r.headersIn.userAgent.value;
    }

    /**
     * nginx's {@code r->headers_in.msie}: {@code "MSIE "} followed by at least three characters, and no
     * {@code "Opera"}.
     *
     * @param ua the {@code User-Agent}, or null
     * @return true for MSIE
     */
    static boolean msie(String ua) {
        if (ua == null) {
            return false;
        }
        int at = ua.indexOf("MSIE ");
        return at >= 0 && at + 7 < ua.length() && !ua.contains("Opera");
    }

    /**
     * nginx's {@code ngx_http_browser()}.
     *
     * @param cf the location's conf
     * @param ua the {@code User-Agent}, or null
     * @return true for a modern browser, false for an ancient one
     */
    static boolean browser(BrowserConf cf, String ua) {
        if (ua == null) {
            return cf.modernUnlisted;
        }
        int len = ua.length();
        if (cf.modern != null) {
            for (Modern m : cf.modern) {
                Mask mask = MASKS.get(m.mask);
                if (mask.skip >= len) {
                    continue;
                }
                int name = ua.indexOf(mask.name, mask.skip);
                if (name < 0 || name + mask.add >= len) {
                    continue;
                }
                // the first browser found decides, as nginx 1.22 answers: an Opera saying "MSIE 6.0" is an Opera
                return modernVersion(ua, name + mask.add, m.version);
            }
            if (!cf.modernUnlisted) {
                return false;
            }
        }
        if (cf.netscape4 && len > "Mozilla/4.72 ".length() && ua.startsWith("Mozilla/") && ua.charAt(8) > '0'
            && ua.charAt(8) < '5') {
            return false;
        }
        if (cf.ancient != null) {
            for (String a : cf.ancient) {
                if (ua.contains(a)) {
                    return false;
                }
            }
        }
        return cf.modernUnlisted;
    }

    /** The version loop of {@code ngx_http_browser()}: true when the version at {@code p} is modern. */
    private static boolean modernVersion(String ua, int p, long modern) {
        long version = 0;
        long ver = 0;
        long scale = 1000000;
        while (p < ua.length()) {
            char c = ua.charAt(p++);
            if (c >= '0' && c <= '9') {
                ver = ver * 10 + (c - '0');
                continue;
            }
            if (c != '.') {
                break;
            }
            version += ver * scale;
            if (version > modern) {
                return true;
            }
            ver = 0;
            scale /= 100;
        }
        version += ver * scale;
        return version >= modern;
    }

    /** nginx's {@code ngx_http_modern_browser()}. */
    private static void modernBrowser(ConfContext cf, BrowserConf bcf) throws ConfException {
        if (cf.args().size() == 2) {
            if (!cf.arg(1).equals("unlisted")) {
                throw new ConfException("invalid parameter \"" + cf.arg(1) + "\"");
            }
            bcf.modernUnlisted = true;
            return;
        }
        int mask = -1;
        for (int n = 0; n < MASKS.size(); n++) {
            if (MASKS.get(n).browser.equalsIgnoreCase(cf.arg(1))) {
                mask = n;
                break;
            }
        }
        if (mask < 0) {
            throw new ConfException("unknown browser name \"" + cf.arg(1) + "\"");
        }
        long version = 0;
        long ver = 0;
        long scale = 1000000;
        String v = cf.arg(2);
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c >= '0' && c <= '9') {
                ver = ver * 10 + (c - '0');
            } else if (c == '.') {
                version += ver * scale;
                ver = 0;
                scale /= 100;
            } else {
                throw new ConfException("invalid browser version \"" + v + "\"");
            }
        }
        if (bcf.modern == null) {
            bcf.modern = new ArrayList<>();
        }
        bcf.modern.add(new Modern(mask, version + ver * scale));
    }

    /** nginx's {@code ngx_http_ancient_browser()}. */
    private static void ancientBrowser(ConfContext cf, BrowserConf bcf) {
        for (int i = 1; i < cf.args().size(); i++) {
            if (cf.arg(i).equals("netscape4")) {
                bcf.netscape4 = true;
                continue;
            }
            if (bcf.ancient == null) {
                bcf.ancient = new ArrayList<>();
            }
            bcf.ancient.add(cf.arg(i));
        }
    }
}
