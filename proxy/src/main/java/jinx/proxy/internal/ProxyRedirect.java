package jinx.proxy.internal;

import java.util.regex.Matcher;

import jinx.http.HttpRequest;

/**
 * {@code proxy_redirect}: nginx's {@code ngx_http_proxy_rewrite_redirect()}. The first rule whose prefix (or
 * regex) matches the start of a {@code Location} value, or the URL after {@code url=} in {@code Refresh}, replaces
 * it. The default rule, {@code default}, is nginx's: the {@code proxy_pass} URL (with a {@code /} when it has no
 * URI part) becomes the location's name (or {@code /}).
 */
final class ProxyRedirect {

    private ProxyRedirect() {
    }

    static String rewrite(HttpRequest r, ProxyLocConf plcf, ProxyRequest p, String value, boolean refresh) {
        if (plcf.redirects == null || plcf.redirects.isEmpty()) {
            return value;
        }
        int from = 0;
        if (refresh) {
            int i = value.toLowerCase(java.util.Locale.ROOT).indexOf("url=");
            if (i < 0) {
                return value;
            }
            from = i + 4;
        }
        String head = value.substring(0, from);
        String tail = value.substring(from);
        for (ProxyLocConf.Redirect rule : plcf.redirects) {
            if (rule.regex()) {
                Matcher m = rule.pattern().matcher(tail);
                if (!m.lookingAt()) {
                    continue;
                }
                String repl = rule.replacement().evaluate(r);
                for (int g = m.groupCount(); g >= 1; g--) {
                    String v = m.group(g);
                    repl = repl.replace("$" + g, v == null ? "" : v);
                }
                return head + repl + tail.substring(m.end());
            }
            String prefix = rule.prefix();
            if (tail.startsWith(prefix)) {
                return head + rule.replacement().evaluate(r) + tail.substring(prefix.length());
            }
        }
        return value;
    }
}
