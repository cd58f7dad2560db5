package jinx.proxy.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jinx.http.HttpRequest;
import jinx.http.spi.ComplexValue;

/**
 * {@code proxy_cookie_domain}, {@code proxy_cookie_path} and {@code proxy_cookie_flags} applied to an upstream's
 * {@code Set-Cookie}: nginx's {@code ngx_http_proxy_rewrite_cookie()}, {@code ngx_http_proxy_parse_cookie()} and
 * {@code ngx_http_proxy_edit_cookie_flags()}. The value is taken apart at {@code ;} into {@code name=value}
 * attributes; the first rule that matches a {@code Domain} or {@code Path} rewrites it, the first flags rule whose
 * cookie name matches edits {@code Secure}, {@code HttpOnly} and {@code SameSite}; when anything changed the
 * value is put together again with {@code "; "} between attributes, as nginx does, and otherwise left as it came.
 */
final class ProxyCookies {

    /** How a rule matches: a prefix (paths), a domain (leading dots ignored, any case), or a regex. */
    enum Kind { PREFIX, DOMAIN, REGEX }

    /** One {@code proxy_cookie_domain} or {@code proxy_cookie_path} rule. */
    record Rule(Kind kind, ComplexValue pattern, Pattern regex, ComplexValue replacement) {
    }

    /** {@code proxy_cookie_flags} bits, nginx's {@code NGX_HTTP_PROXY_COOKIE_*}. */
    static final int SECURE_ON = 0x1;
    static final int SECURE_OFF = 0x2;
    static final int HTTPONLY_ON = 0x4;
    static final int HTTPONLY_OFF = 0x8;
    static final int SAMESITE_STRICT = 0x10;
    static final int SAMESITE_LAX = 0x20;
    static final int SAMESITE_NONE = 0x40;
    static final int SAMESITE_OFF = 0x80;

    private static final int[] SAMESITE_BITS = {SAMESITE_STRICT, SAMESITE_LAX, SAMESITE_NONE};
    private static final String[] SAMESITE_VALUES = {"Strict", "Lax", "None"};

    /** One {@code proxy_cookie_flags} rule: a cookie name (or regex) and its flags, evaluated per response. */
    record Flags(ComplexValue cookie, Pattern regex, List<ComplexValue> values) {
    }

    /** nginx's {@code ngx_http_proxy_cookie_flags_masks[]}. */
    private static final Map<String, Integer> MASKS = Map.of(
        "secure", SECURE_ON,
        "nosecure", SECURE_OFF,
        "httponly", HTTPONLY_ON,
        "nohttponly", HTTPONLY_OFF,
        "samesite=strict", SAMESITE_STRICT,
        "samesite=lax", SAMESITE_LAX,
        "samesite=none", SAMESITE_NONE,
        "nosamesite", SAMESITE_OFF);

    private ProxyCookies() {
    }

    /** Whether the location rewrites cookies at all. */
    static boolean active(ProxyLocConf plcf) {
        return plcf.cookieDomains != null || plcf.cookiePaths != null || plcf.cookieFlags != null;
    }

    /**
     * The value to send for an upstream's {@code Set-Cookie}.
     *
     * @return the rewritten value, or {@code value} itself when no rule applied
     */
    static String rewrite(HttpRequest r, ProxyLocConf plcf, String value) {
        List<String[]> attrs = parse(value);
        if (attrs.get(0)[1] == null) {
            return value;
        }
        boolean changed = false;
        for (int i = 1; i < attrs.size(); i++) {
            String[] a = attrs.get(i);
            if (a[1] == null) {
                continue;
            }
            List<Rule> rules = a[0].equalsIgnoreCase("domain") ? plcf.cookieDomains
                : a[0].equalsIgnoreCase("path") ? plcf.cookiePaths : null;
            String v = rules == null ? null : apply(r, rules, a[1]);
            if (v != null) {
                a[1] = v;
                changed = true;
            }
        }
        if (plcf.cookieFlags != null) {
            int f = flags(r, plcf.cookieFlags, attrs.get(0)[0]);
            if (f != 0) {
                edit(attrs, f);
                changed = true;
            }
        }
        if (!changed) {
            return value;
        }
        StringBuilder sb = new StringBuilder(value.length() + 16);
        for (int i = 0; i < attrs.size(); i++) {
            String[] a = attrs.get(i);
            if (a[0] == null) {
                continue;
            }
            if (i > 0) {
                sb.append("; ");
            }
            sb.append(a[0]);
            if (a[1] != null) {
                sb.append('=').append(a[1]);
            }
        }
        return sb.toString();
    }

    /** nginx's {@code ngx_http_proxy_parse_cookie()}: names and values trimmed of spaces, a value null without '='. */
    static List<String[]> parse(String value) {
        List<String[]> attrs = new ArrayList<>(4);
        int start = 0;
        int end = value.length();
        for (;;) {
            int last = value.indexOf(';', start);
            if (last < 0) {
                last = end;
            }
            while (start < last && value.charAt(start) == ' ') {
                start++;
            }
            int p = start;
            while (p < last && value.charAt(p) != '=') {
                p++;
            }
            String name = trimEnd(value.substring(start, p));
            String val = null;
            if (p < last) {
                p++;
                while (p < last && value.charAt(p) == ' ') {
                    p++;
                }
                val = trimEnd(value.substring(p, last));
            }
            attrs.add(new String[] {name, val});
            if (last == end) {
                return attrs;
            }
            start = last + 1;
        }
    }

    private static String trimEnd(String s) {
        int n = s.length();
        while (n > 0 && s.charAt(n - 1) == ' ') {
            n--;
        }
        return s.substring(0, n);
    }

    /** The first rule that matches rewrites {@code value}; null when none does. */
    private static String apply(HttpRequest r, List<Rule> rules, String value) {
        for (Rule rule : rules) {
            switch (rule.kind()) {
                case PREFIX -> {
                    String prefix = rule.pattern().evaluate(r);
                    if (value.startsWith(prefix)) {
                        return rule.replacement().evaluate(r) + value.substring(prefix.length());
                    }
                }
                case DOMAIN -> {
                    String pattern = rule.pattern().evaluate(r);
                    int at = value.startsWith(".") ? 1 : 0;
                    if (value.length() - at == pattern.length() && value.regionMatches(true, at, pattern, 0,
                        pattern.length())) {
                        return value.substring(0, at) + rule.replacement().evaluate(r);
                    }
                }
                default -> {
                    Matcher m = rule.regex().matcher(value);
                    if (m.find()) {
                        return captures(rule.replacement().evaluate(r), m);
                    }
                }
            }
        }
        return null;
    }

    /** A regex rule's replacement with {@code $1}..{@code $9} taken from the match. */
    static String captures(String replacement, Matcher m) {
        if (replacement.indexOf('$') < 0) {
            return replacement;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < replacement.length(); i++) {
            char ch = replacement.charAt(i);
            int n = i + 1 < replacement.length() ? replacement.charAt(i + 1) - '0' : -1;
            if (ch == '$' && n >= 1 && n <= 9) {
                String g = n <= m.groupCount() ? m.group(n) : null;
                sb.append(g == null ? "" : g);
                i++;
                continue;
            }
            sb.append(ch);
        }
        return sb.toString();
    }

    private static int flags(HttpRequest r, List<Flags> rules, String cookie) {
        for (Flags f : rules) {
            boolean match = f.regex() != null ? f.regex().matcher(cookie).find()
                : f.cookie().evaluate(r).equalsIgnoreCase(cookie);
            if (!match) {
                continue;
            }
            int bits = 0;
            for (ComplexValue v : f.values()) {
                Integer mask = MASKS.get(v.evaluate(r).toLowerCase(Locale.ROOT));
                bits |= mask == null ? 0 : mask;
            }
            return bits;
        }
        return 0;
    }

    /** nginx's {@code ngx_http_proxy_edit_cookie_flags()}; a removed attribute's name becomes null. */
    private static void edit(List<String[]> attrs, int flags) {
        for (int i = 1; i < attrs.size(); i++) {
            String[] a = attrs.get(i);
            String key = a[0].toLowerCase(Locale.ROOT);
            if (key.equals("secure")) {
                if ((flags & SECURE_ON) != 0) {
                    flags &= ~SECURE_ON;
                } else if ((flags & SECURE_OFF) != 0) {
                    a[0] = null;
                }
            } else if (key.equals("httponly")) {
                if ((flags & HTTPONLY_ON) != 0) {
                    flags &= ~HTTPONLY_ON;
                } else if ((flags & HTTPONLY_OFF) != 0) {
                    a[0] = null;
                }
            } else if (key.equals("samesite")) {
                flags = sameSite(a, flags);
            }
        }
        if ((flags & SECURE_ON) != 0) {
            attrs.add(new String[] {"Secure", null});
        }
        if ((flags & HTTPONLY_ON) != 0) {
            attrs.add(new String[] {"HttpOnly", null});
        }
        if ((flags & SAMESITE_STRICT) != 0) {
            attrs.add(new String[] {"SameSite", "Strict"});
        } else if ((flags & SAMESITE_LAX) != 0) {
            attrs.add(new String[] {"SameSite", "Lax"});
        } else if ((flags & SAMESITE_NONE) != 0) {
            attrs.add(new String[] {"SameSite", "None"});
        }
    }

    private static int sameSite(String[] a, int flags) {
        for (int k = 0; k < SAMESITE_BITS.length; k++) {
            if ((flags & SAMESITE_BITS[k]) != 0) {
                if (a[1] == null || !a[1].equalsIgnoreCase(SAMESITE_VALUES[k])) {
                    a[0] = "SameSite";
                    a[1] = SAMESITE_VALUES[k];
                }
                return flags & ~SAMESITE_BITS[k];
            }
        }
        if ((flags & SAMESITE_OFF) != 0) {
            a[0] = null;
        }
        return flags;
    }
}
