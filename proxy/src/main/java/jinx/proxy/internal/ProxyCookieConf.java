package jinx.proxy.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import jinx.http.spi.ComplexValue;
import jinx.http.spi.HttpDirectives;
import jinx.kernel.ConfException;
import jinx.kernel.spi.ConfContext;

/**
 * The directive handlers of {@code proxy_cookie_domain}, {@code proxy_cookie_path} and {@code proxy_cookie_flags}:
 * nginx's {@code ngx_http_proxy_cookie_domain()}, {@code ngx_http_proxy_cookie_path()},
 * {@code ngx_http_proxy_cookie_flags()} and {@code ngx_http_proxy_rewrite_regex()}.
 */
final class ProxyCookieConf {

    private ProxyCookieConf() {
    }

    static void domain(ConfContext cf, ProxyLocConf conf) throws ConfException {
        conf.cookieDomains = rules(cf, conf.cookieDomains, true);
    }

    static void path(ConfContext cf, ProxyLocConf conf) throws ConfException {
        conf.cookiePaths = rules(cf, conf.cookiePaths, false);
    }

    private static List<ProxyCookies.Rule> rules(ConfContext cf, List<ProxyCookies.Rule> rules, boolean domain)
        throws ConfException {
        if (rules != null && rules.isEmpty()) {
            throw new ConfException("\"" + cf.name() + "\" directive is duplicate");
        }
        if (cf.args().size() == 2) {
            if (!cf.arg(1).equals("off")) {
                throw new ConfException("invalid parameter \"" + cf.arg(1) + "\"");
            }
            if (rules != null) {
                throw new ConfException("\"" + cf.name() + "\" directive is duplicate");
            }
            return new ArrayList<>();
        }
        List<ProxyCookies.Rule> out = rules != null ? rules : new ArrayList<>();
        String pattern = cf.arg(1);
        String replacement = cf.arg(2);
        if (pattern.startsWith("~")) {
            // domains always match caselessly; paths only with ~*
            boolean caseless = domain || pattern.startsWith("~*");
            String re = pattern.substring(!domain && pattern.startsWith("~*") ? 2 : 1);
            out.add(new ProxyCookies.Rule(ProxyCookies.Kind.REGEX, null, regex(re, caseless), Values.fixed(
                replacement)));
            return out;
        }
        if (domain) {
            out.add(new ProxyCookies.Rule(ProxyCookies.Kind.DOMAIN, HttpDirectives.compile(cf, undot(pattern)), null,
                HttpDirectives.compile(cf, undot(replacement))));
        } else {
            out.add(new ProxyCookies.Rule(ProxyCookies.Kind.PREFIX, HttpDirectives.compile(cf, pattern), null,
                HttpDirectives.compile(cf, replacement)));
        }
        return out;
    }

    static void flags(ConfContext cf, ProxyLocConf conf) throws ConfException {
        List<ProxyCookies.Flags> rules = conf.cookieFlags;
        if (rules != null && rules.isEmpty()) {
            throw new ConfException("\"proxy_cookie_flags\" directive is duplicate");
        }
        if (cf.args().size() == 2) {
            if (!cf.arg(1).equals("off")) {
                throw new ConfException("invalid parameter \"" + cf.arg(1) + "\"");
            }
            if (rules != null) {
                throw new ConfException("\"proxy_cookie_flags\" directive is duplicate");
            }
            conf.cookieFlags = new ArrayList<>();
            return;
        }
        if (rules == null) {
            rules = new ArrayList<>();
            conf.cookieFlags = rules;
        }
        String cookie = cf.arg(1);
        // flags may hold variables and are evaluated per response; an unknown one is ignored then, as nginx does
        List<ComplexValue> values = new ArrayList<>();
        for (String v : cf.args().subList(2, cf.args().size())) {
            values.add(HttpDirectives.compile(cf, v));
        }
        if (cookie.startsWith("~")) {
            String re = cookie.substring(cookie.startsWith("~*") ? 2 : 1);
            rules.add(new ProxyCookies.Flags(null, regex(re, cookie.startsWith("~*")), values));
            return;
        }
        for (ProxyCookies.Flags f : rules) {
            if (f.cookie() != null && f.cookie().source().equalsIgnoreCase(cookie)) {
                throw new ConfException("duplicate parameter \"" + cookie + "\"");
            }
        }
        rules.add(new ProxyCookies.Flags(HttpDirectives.compile(cf, cookie), null, values));
    }

    private static String undot(String s) {
        return s.startsWith(".") ? s.substring(1) : s;
    }

    private static Pattern regex(String re, boolean caseless) throws ConfException {
        try {
            return Pattern.compile(re, caseless ? Pattern.CASE_INSENSITIVE : 0);
        } catch (PatternSyntaxException e) {
            throw new ConfException("pcre2_compile() failed: " + e.getDescription() + " in \"" + re + "\"");
        }
    }
}
