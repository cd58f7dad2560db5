package jinx.proxy.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import jinx.kernel.ConfException;
import jinx.kernel.spi.ConfContext;
import jinx.proxy.upstream.HealthCheck;

/**
 * {@code match name { status 200-399; header Content-Type ~ text/html; body ~ "ok"; }}: what a health probe's
 * answer must be to pass (nginx Plus' {@code match} of {@code ngx_http_upstream_hc_module}). Every condition must
 * hold. {@code status} takes codes and ranges, {@code !} negating the list; {@code header} a name alone (present),
 * {@code ! name} (absent), or {@code = != ~ ~* !~ !~*} and a value; {@code body} {@code ~ !~ ~* !~*} and a regular
 * expression, matched against the first 64 KB of the body. Without a match block a probe passes on 2xx and 3xx.
 */
final class HttpMatch {

    /** The probe's answer as parsed. */
    record Answer(int status, List<String[]> headers, String body) {
    }

    final String name;
    private final List<Predicate<Answer>> conditions = new ArrayList<>();
    private boolean needsBody;

    HttpMatch(String name) {
        this.name = name;
    }

    /** The block's lines: nginx Plus' ngx_http_upstream_hc_match_* handlers. */
    void line(ConfContext cf, List<String> w) throws ConfException {
        switch (w.get(0)) {
            case "status" -> status(w);
            case "header" -> header(w);
            case "body" -> body(w);
            default -> throw new ConfException("unknown directive \"" + w.get(0) + "\"");
        }
    }

    private void status(List<String> w) throws ConfException {
        int from = 1;
        boolean not = w.size() > 1 && w.get(1).equals("!");
        if (not) {
            from = 2;
        }
        if (w.size() <= from) {
            throw new ConfException("invalid number of arguments in \"status\" directive");
        }
        List<int[]> ranges = new ArrayList<>();
        for (String a : w.subList(from, w.size())) {
            int dash = a.indexOf('-');
            int lo = code(dash < 0 ? a : a.substring(0, dash), a);
            int hi = dash < 0 ? lo : code(a.substring(dash + 1), a);
            if (hi < lo) {
                throw new ConfException("invalid status \"" + a + "\"");
            }
            ranges.add(new int[] {lo, hi});
        }
        conditions.add(ans -> {
            boolean in = false;
            for (int[] r : ranges) {
                in |= ans.status() >= r[0] && ans.status() <= r[1];
            }
            return in != not;
        });
    }

    private static int code(String s, String arg) throws ConfException {
        try {
            int n = Integer.parseInt(s);
            if (n >= 100 && n <= 999) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new ConfException("invalid status \"" + arg + "\"");
    }

    private void header(List<String> w) throws ConfException {
        if (w.size() == 2) {
            String n = w.get(1);
            conditions.add(ans -> value(ans, n) != null);
            return;
        }
        if (w.size() == 3 && w.get(1).equals("!")) {
            String n = w.get(2);
            conditions.add(ans -> value(ans, n) == null);
            return;
        }
        if (w.size() != 4) {
            throw new ConfException("invalid number of arguments in \"header\" directive");
        }
        String n = w.get(1);
        String op = w.get(2);
        String v = w.get(3);
        switch (op) {
            case "=" -> conditions.add(ans -> v.equals(value(ans, n)));
            case "!=" -> conditions.add(ans -> !v.equals(value(ans, n)));
            default -> {
                Predicate<String> re = regex(op, v);
                conditions.add(ans -> {
                    String got = value(ans, n);
                    return got != null ? re.test(got) : op.startsWith("!");
                });
            }
        }
    }

    private void body(List<String> w) throws ConfException {
        if (w.size() != 3) {
            throw new ConfException("invalid number of arguments in \"body\" directive");
        }
        Predicate<String> re = regex(w.get(1), w.get(2));
        needsBody = true;
        conditions.add(ans -> re.test(ans.body()));
    }

    /** {@code ~ ~* !~ !~*} and a regular expression, found anywhere in the text. */
    private static Predicate<String> regex(String op, String re) throws ConfException {
        boolean not = op.startsWith("!");
        String o = not ? op.substring(1) : op;
        if (!o.equals("~") && !o.equals("~*")) {
            throw new ConfException("invalid parameter \"" + op + "\"");
        }
        Pattern p;
        try {
            p = Pattern.compile(re, o.equals("~*") ? Pattern.CASE_INSENSITIVE : 0);
        } catch (PatternSyntaxException e) {
            throw new ConfException("pcre2_compile() failed: " + e.getDescription() + " in \"" + re + "\"");
        }
        return s -> p.matcher(s).find() != not;
    }

    private static String value(Answer a, String name) {
        for (String[] h : a.headers()) {
            if (h[0].equalsIgnoreCase(name)) {
                return h[1];
            }
        }
        return null;
    }

    /**
     * Judges a probe's answer: {@link HealthCheck#MORE} until the header is complete (and, when a body condition
     * is there, until the answer ends).
     *
     * @param match the match, or null for nginx Plus' default (2xx or 3xx)
     * @param buf the answer so far
     * @param eof whether it is complete
     * @return the verdict
     */
    static int judge(HttpMatch match, ByteBuffer buf, boolean eof) {
        byte[] b = new byte[buf.remaining()];
        buf.get(b);
        String text = new String(b, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            return eof ? HealthCheck.FAIL : HealthCheck.MORE;
        }
        if (match != null && match.needsBody && !eof) {
            return HealthCheck.MORE;
        }
        Answer a = parse(text.substring(0, end), text.substring(end + 4));
        if (a == null) {
            return HealthCheck.FAIL;
        }
        if (match == null) {
            return a.status() >= 200 && a.status() < 400 ? HealthCheck.PASS : HealthCheck.FAIL;
        }
        for (Predicate<Answer> c : match.conditions) {
            if (!c.test(a)) {
                return HealthCheck.FAIL;
            }
        }
        return HealthCheck.PASS;
    }

    /** The status line and header lines; null when the status line is not HTTP's. */
    private static Answer parse(String head, String body) {
        String[] lines = head.split("\r\n");
        String[] status = lines[0].split(" ", 3);
        if (status.length < 2 || !status[0].toUpperCase(Locale.ROOT).startsWith("HTTP/")) {
            return null;
        }
        int code;
        try {
            code = Integer.parseInt(status[1]);
        } catch (NumberFormatException e) {
            return null;
        }
        List<String[]> headers = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.add(new String[] {lines[i].substring(0, colon).trim(), lines[i].substring(colon + 1).trim()});
            }
        }
        return new Answer(code, headers, body);
    }
}
