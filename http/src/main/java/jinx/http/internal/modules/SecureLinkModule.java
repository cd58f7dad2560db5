package jinx.http.internal.modules;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.variables.HeaderVariables;
import jinx.http.spi.ComplexValue;
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
 * The {@code http_secure_link} module, nginx's {@code ngx_http_secure_link_module.c}, in both of its forms. With
 * {@code secure_link} and {@code secure_link_md5}: the first value is {@code hash[,expires]} (the hash in base64url),
 * the second the string whose MD5 the hash must be; {@code $secure_link} is {@code "1"} when they agree,
 * {@code "0"} when they agree but the link has expired, not found otherwise, and {@code $secure_link_expires} is
 * the expiry as written. With {@code secure_link_secret} (the older form): the request's URI is
 * {@code /prefix/<32 hex digits>/link} and {@code $secure_link} is {@code link} when the digits are the MD5 of
 * {@code link} followed by the secret.
 */
public final class SecureLinkModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_secure_link";

    private static final Set<Ctx> MSL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC);

    /** The location conf: nginx's {@code ngx_http_secure_link_conf_t}. */
    static final class SecureLinkConf {
        ComplexValue variable;
        boolean variableSet;
        ComplexValue md5;
        boolean md5Set;
        String secret;
    }

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("secure_link", MSL, Arity.TAKE1, SecureLinkConf.class, (cf, c) -> {
            c.variable = complex(cf, c.variableSet);
            c.variableSet = true;
        }).syntax("expression").describe("Defines a string with variables from which the checksum value and lifetime "
            + "of a link will be extracted."),
        Directive.of("secure_link_md5", MSL, Arity.TAKE1, SecureLinkConf.class, (cf, c) -> {
            c.md5 = complex(cf, c.md5Set);
            c.md5Set = true;
        }).syntax("expression").describe("Defines an expression for which the MD5 hash value will be computed and "
            + "compared with the value passed in a request."),
        Directive.of("secure_link_secret", Set.of(HttpCtx.LOC), Arity.TAKE1, SecureLinkConf.class, (cf, c) -> {
            if (c.secret != null) {
                throw new ConfException("\"" + cf.name() + "\" directive is duplicate");
            }
            c.secret = cf.arg(1);
        }).syntax("word").describe("Defines a secret word used to check authenticity of requested links."));

    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public SecureLinkModule() {
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
    public void preconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addVariable("secure_link", this::variable, 0);
        cf.addVariable("secure_link_expires", (r, n) -> r.ctx(ctxIndex) instanceof String s ? s : null, 0);
    }

    @Override
    public Object createLocConf() {
        return new SecureLinkConf();
    }

    /** nginx's {@code ngx_http_secure_link_merge_conf()}. */
    @Override
    public void mergeLocConf(Object parent, Object child) throws ConfException {
        SecureLinkConf prev = (SecureLinkConf) parent;
        SecureLinkConf conf = (SecureLinkConf) child;
        if (conf.secret != null) {
            if (conf.variable != null || conf.md5 != null) {
                throw new ConfException("\"secure_link_secret\" cannot be mixed with \"secure_link\" and "
                    + "\"secure_link_md5\"");
            }
            return;
        }
        if (!conf.variableSet) {
            conf.variable = prev.variable;
        }
        if (!conf.md5Set) {
            conf.md5 = prev.md5;
        }
        if (conf.variable == null && conf.md5 == null) {
            conf.secret = prev.secret;
        }
    }

    private static ComplexValue complex(ConfContext cf, boolean set) throws ConfException {
        if (set) {
            throw new ConfException("\"" + cf.name() + "\" directive is duplicate");
        }
        return HttpDirectives.compile(cf, cf.arg(1));
    }

    /** nginx's {@code ngx_http_secure_link_variable()}. */
    private String variable(HttpRequest r, String unused) {
        SecureLinkConf conf = (SecureLinkConf) r.locConf(ctxIndex);
        if (conf.secret != null) {
            return oldVariable(r.unparsedUri, conf.secret);
        }
        if (conf.variable == null || conf.md5 == null) {
            return null;
        }
        String val = conf.variable.evaluate(r);
        int comma = val.indexOf(',');
        long expires = 0;
        if (comma >= 0) {
            String when = val.substring(comma + 1);
            expires = atotm(when);
            if (expires <= 0) {
                return null;
            }
            r.ctx(ctxIndex, when);
            val = val.substring(0, comma);
        }
        if (val.length() > 24) {
            return null;
        }
        String hash = HeaderVariables.decodeBase64(val, true);
        if (hash == null || hash.length() != 16) {
            return null;
        }
        if (!MessageDigest.isEqual(hash.getBytes(StandardCharsets.ISO_8859_1), md5(conf.md5.evaluate(r), ""))) {
            return null;
        }
        return expires != 0 && expires < r.loop().wallMillis() / 1000 ? "0" : "1";
    }

    /**
     * nginx's {@code ngx_http_secure_link_old_variable()}: {@code /prefix/<hash>/link}, the raw URI with its
     * arguments as nginx reads it.
     *
     * @param uri the request's unparsed URI
     * @param secret the secret word
     * @return the link, or null when the hash does not agree
     */
    static String oldVariable(String uri, String secret) {
        int start = uri.indexOf('/', 1) + 1;
        if (start == 0) {
            return null;
        }
        int end = uri.indexOf('/', start);
        if (end < 0 || end - start != 32 || end + 1 == uri.length()) {
            return null;
        }
        String link = uri.substring(end + 1);
        byte[] hash = md5(link, secret);
        for (int i = 0; i < 16; i++) {
            int hi = Character.digit(uri.charAt(start + 2 * i), 16);
            int lo = Character.digit(uri.charAt(start + 2 * i + 1), 16);
            if (hi < 0 || lo < 0 || (hi << 4 | lo) != (hash[i] & 0xff)) {
                return null;
            }
        }
        return link;
    }

    private static byte[] md5(String a, String b) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            md.update(a.getBytes(StandardCharsets.ISO_8859_1));
            md.update(b.getBytes(StandardCharsets.ISO_8859_1));
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has MD5", e);
        }
    }

    /**
     * nginx's {@code ngx_atotm()}: decimal digits only.
     *
     * @param s the text
     * @return the number, or -1 when empty, not a number or beyond a 64-bit time
     */
    static long atotm(String s) {
        if (s.isEmpty()) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9' || value > (Long.MAX_VALUE - (c - '0')) / 10) {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
