package jinx.http.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.Responses;
import jinx.http.internal.request.Responses.Response;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The same raw requests sent to Debian's nginx ({@code /usr/sbin/nginx}, installed by {@code .ci/run}) and to Jinx,
 * both given the same configuration, the same files and the same port (one after the other): status lines,
 * header names in order, header values and bodies must be equal, once the values that cannot be equal are masked —
 * {@code Date}, {@code Server}, {@code ETag}, {@code Last-Modified} and {@code Expires} (a time) values, the
 * multipart boundary (a counter nginx starts at random) — and {@code nginx/1.22.1} and {@code jinx/0.1.0...} are
 * both written {@code jinx/V} in bodies ({@code Content-Length} follows the rewritten body).
 *
 * <p>Debian ships nginx 1.22; Jinx follows current nginx. Where the two differ on what these requests exercise,
 * the case says so and the expectation is current nginx's ({@link #EXCEPTIONS}). Changes after 1.22 that these
 * requests cannot see and that Jinx follows:
 * <ul>
 * <li>1.23.0: {@code $http_...} and {@code $sent_http_...} join repeated header lines with {@code ", "} (1.22 takes
 * the first); only variables see it, {@code AccessLogIT} checks it.</li>
 * <li>1.23.4: after pipelined requests the connection is closed with lingering; no byte of a response changes.</li>
 * <li>1.27.4: {@code keepalive_min_timeout} (1.22 has no such directive; unset, nothing changes).</li>
 * </ul>
 * The request-line, header-name and {@code Host} checks of 1.21.1, the refusal of {@code Transfer-Encoding} with
 * HTTP/1.0 (1.21.2), {@code keepalive_requests 1000} (1.19.10) and the chunked parser's overflow check are older
 * than 1.22: both must agree there.
 */
@Tag("slow")
class NginxDifferentialIT {

    /** The configuration both servers get, inside {@code http {}}; {@code %PORT%} is the port. */
    static final String HTTP = """
        include mime.types;
        default_type application/octet-stream;
        map $arg_k $mapped { default dflt; one 1; Two "two $uri"; ~^re(?<rest>.*)$ "re:$rest"; ~*^(X+)$ "x:$1"; }
        map $http_host $hostmap {
            hostnames; default none; *.example.com head; www.example.* tail; .example.org both; Example.NET exact;
        }
        split_clients "${arg_k}x" $bucket { 10% a; 20.5% b; 0.25% c; * d; }
        geo $geo { default world; 127.0.0.0/8 loopback; 10.0.0.0/8 ten; }
        geo $arg_ip $georange {
            ranges; default out; 10.0.0.0-10.0.0.255 a; 10.0.0.10-10.0.0.20 b; delete 10.0.0.0-10.0.0.9;
        }
        geo $arg_ip $geo6 {
            default d; 2001:db8::/32 doc; ::1 one; 10.0.0.0/8 ten; 10.1.0.0/16 ten1; delete 10.1.0.0/16;
            proxy 10.0.0.0/8; proxy_recursive; 1.1.1.0/24 cf; 255.255.255.255 bad;
        }
        server {
            listen 127.0.0.1:%PORT%;
            server_name localhost;
            root html;
            index index.html;
            error_page 500 502 503 504 /50x.html;

            location = /exact { return 200 "exact $uri $args\\n"; }
            location /moved { return 301 /index.html; }
            location /found { return 302 http://example.com/elsewhere; }
            location /see { return 303 "/index.html?from=see"; }
            location /text { return 200 "text for $request_method $uri\\n"; }
            location /forbidden { return 403; }
            location /gone { return 410; }
            location /broken { return 500; }
            location /teapot { return 418; }
            location /nobody { return 204; }
            location /custom { error_page 404 /custom404.html; }
            location /ok404 { error_page 404 =200 /custom404.html; }
            location /tofound { error_page 404 http://example.com/missing; }
            location /named { try_files $uri @fallback; }
            location @fallback { return 200 "fallback $uri\\n"; }
            location /tried { try_files $uri $uri/ /file.txt; }
            location /hidden { internal; }
            location /headers {
                add_header X-One one;
                add_header X-Always always always;
                expires 1h;
                try_files /file.txt =404;
            }
            location /headers404 { add_header X-One one; add_header X-Always always always; }
            location /epoch { expires epoch; try_files /file.txt =404; }
            location ~ \\.css$ { add_header X-Css yes; }
            location ^~ /pref/ { return 200 "prefix $uri\\n"; }
            location ~* /REGEX/(\\w+) { return 200 "regex $1\\n"; }
            location /echo { return 200 "x-a [$http_x_a] host [$host]\\n"; }
            location /map { return 200 "$mapped|$hostmap|$bucket\\n"; }
            location /acl/deny { deny 127.0.0.1; }
            location /acl/allow { allow 127.0.0.0/8; deny all; }
            location /acl/net { deny 10.0.0.0/8; deny ::1; allow all; }
            location /acl/all { deny all; location /acl/all/inner { } location /acl/all/own { allow 127.0.0.1; } }
            location /acl/v6 { deny ::/0; }
            location /acl/mapped { deny ::ffff:127.0.0.1; }
            location /acl/unix { deny unix:; }
            location /acl/any { satisfy any; deny all; }
            if ($http_x_block) { return 403; }
            set_real_ip_from 127.0.0.1;
            location /auth/ { auth_basic "Restricted $uri"; auth_basic_user_file htpasswd; try_files /file.txt =404; }
            location /auth/missing { auth_basic on; auth_basic_user_file htpasswd.missing; }
            location /sat/ {
                auth_basic "sat"; auth_basic_user_file htpasswd; try_files /file.txt =404;
                location /sat/any-allow/ { satisfy any; allow 127.0.0.1; deny all; }
                location /sat/any-deny/ { satisfy any; deny all; }
                location /sat/all-allow/ { allow 127.0.0.1; }
            }
            location /auth/off { auth_basic off; try_files /file.txt =404; }
            location /ix-html/ { autoindex on; }
            location /ix-approx/ { autoindex on; autoindex_exact_size off; }
            location /ix-json/ { autoindex on; autoindex_format json; }
            location /ix-jsonp/ { autoindex on; autoindex_format jsonp; }
            location /ix-xml/ { autoindex on; autoindex_format xml; }
            location /geo { return 200 "$geo|$georange|$geo6\\n"; }
            location /realip {
                set_real_ip_from 127.0.0.1; set_real_ip_from 10.0.0.0/8; real_ip_header X-Forwarded-For;
                real_ip_recursive on;
                add_header X-Addr "$remote_addr|$realip_remote_addr|$binary_remote_addr";
                try_files /file.txt =404;
            }
            location /if/var { if ($arg_a) { return 200 "var true\\n"; } return 200 "var false\\n"; }
            location /if/eq { if ($arg_a = abc) { return 200 "eq\\n"; } if ($arg_a != abc) { return 200 "ne\\n"; } }
            location /if/re {
                if ($uri ~ ^/if/re/(?<w>[a-z]+)/(\\d+)$) { return 200 "re $w $2\\n"; }
                if ($uri ~* /IF/RE/X) { return 200 "ci\\n"; }
                if ($arg_a !~ ^ok$) { return 403; }
                if ($arg_a !~* ^OK$) { return 404; }
                return 200 "end\\n";
            }
            location /if/file {
                if (-f $document_root$arg_p) { return 200 "f\\n"; }
                if (-d $document_root$arg_p) { return 200 "d\\n"; }
                if (!-e $document_root$arg_p) { return 200 "none\\n"; }
            }
            location /if/conf { if ($arg_h) { add_header X-If yes; expires 1h; } try_files /file.txt =404; }
            location /if/set { if ($arg_a) { set $v "v=$arg_a"; rewrite ^ /exact?$v break; } return 200 "no\\n"; }
            location /ar/ {
                auth_request /auth-ok; auth_request_set $who "sub:$uri:$args"; add_header X-Who $who;
                try_files /file.txt =404;
                location /ar/deny { auth_request /auth-deny; try_files /file.txt =404; }
                location /ar/401 { auth_request /auth-401; try_files /file.txt =404; }
                location /ar/teapot { auth_request /auth-teapot; try_files /file.txt =404; }
                location /ar/static { auth_request /file.txt; try_files /file.txt =404; }
                location /ar/missing { auth_request /nothing-here; try_files /file.txt =404; }
                location /ar/basic { auth_request /auth-basic; try_files /file.txt =404; }
                location /ar/acl { auth_request /acl/deny; return 200 "acl skipped in subrequests\\n"; }
                location /ar/text { return 200 "text $who\\n"; }
                location /ar/off { auth_request off; return 200 "off [$who]\\n"; }
                location /ar/redirect { auth_request /auth-redirect; try_files /file.txt =404; }
            }
            location /add/ {
                add_before_body /before; add_after_body /after; addition_types text/plain;
                try_files /file.txt =404;
                location /add/ret { default_type text/html; return 200 "main $uri\\n"; }
                location /add/after { add_before_body /file.txt; default_type text/html; return 200 "main\\n"; }
                location /add/missing { add_after_body /missing-page; default_type text/html; return 200 "m\\n"; }
                location /add/notype { default_type text/css; return 200 "css\\n"; }
                location /add/gone { return 404; }
                location /add/any { addition_types *; add_after_body /after-args; return 200 "any\\n"; }
                location /add/nested { add_after_body /add/ret; default_type text/html; return 200 "outer\\n"; }
            }
            location = /before { return 200 "before $uri [$args]\\n"; }
            location = /after { return 200 "after $uri\\n"; }
            location = /after-args { return 200 "after-args [$args] $request_uri\\n"; }
            location = /missing-page { return 404 "missing $uri\\n"; }
            location = /auth-ok { return 204; }
            location = /auth-deny { return 403; }
            location = /auth-401 { return 401; }
            location = /auth-teapot { return 418; }
            location = /auth-basic { auth_basic "Sub realm"; auth_basic_user_file htpasswd; try_files /file.txt =404; }
            location = /auth-redirect { rewrite ^ /auth-ok last; }
        }
        """;

    /** nginx's 400 page, normalized. */
    private static final String BAD_REQUEST = "HTTP/1.1 400 Bad Request\r\nServer: X\r\nDate: X\r\n"
        + "Content-Type: text/html\r\nContent-Length: 151\r\nConnection: close\r\n\r\n<html>\r\n"
        + "<head><title>400 Bad Request</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n"
        + "<hr><center>jinx/V</center>\r\n</body>\r\n</html>\r\n";

    /**
     * Cases where nginx 1.22 and current nginx answer differently: what current nginx answers (normalized), which
     * Jinx must answer.
     * <ul>
     * <li>{@code CONNECT host:port}: 1.22's request-line parser does not know the authority form and answers 400;
     * current nginx parses it ({@code sw_spaces_before_host}) and refuses the method in
     * {@code ngx_http_process_request_header()} with 405 ("client sent CONNECT method").</li>
     * <li>Hosts with a port over 65535, two ports, a port that is not digits, or an IPv6 literal that is not the
     * whole host: 1.22 serves them; nginx 1.29.4 validates host and port (nginx PR #966) and answers 400 (issue
     * #36).</li>
     * </ul>
     */
    static final Map<String, String> EXCEPTIONS = Map.of(
        "CONNECT", "HTTP/1.1 405 Not Allowed\r\nServer: X\r\nDate: X\r\nContent-Type: text/html\r\n"
            + "Content-Length: 151\r\nConnection: close\r\n\r\n<html>\r\n<head><title>405 Not Allowed</title></head>\r\n"
            + "<body>\r\n<center><h1>405 Not Allowed</h1></center>\r\n<hr><center>jinx/V</center>\r\n</body>\r\n"
            + "</html>\r\n",
        "Host port over 65535", BAD_REQUEST,
        "Host with two ports", BAD_REQUEST,
        "Host IPv6 literal without ]", BAD_REQUEST,
        "Host text before [", BAD_REQUEST,
        "Host dot after an IPv6 literal", BAD_REQUEST,
        "Host port with a dot", BAD_REQUEST,
        "absolute-form port over 65535", BAD_REQUEST);

    /** One raw request and how many responses it gets. */
    record Case(String name, String request, int responses, boolean head) {

        static Case get(String name, String request) {
            return new Case(name, request, 1, false);
        }
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        String h = " HTTP/1.1\r\nHost: localhost\r\n";
        cases.add(Case.get("index", "GET /" + h + "\r\n"));
        cases.add(Case.get("file", "GET /index.html" + h + "\r\n"));
        cases.add(new Case("head", "HEAD /index.html" + h + "\r\n", 1, true));
        cases.add(Case.get("text file type", "GET /file.txt" + h + "\r\n"));
        cases.add(Case.get("css type and regex location", "GET /style.css" + h + "\r\n"));
        cases.add(Case.get("unknown type", "GET /data.bin1" + h + "\r\n"));
        cases.add(Case.get("missing", "GET /missing.html" + h + "\r\n"));
        cases.add(Case.get("directory redirect", "GET /sub" + h + "\r\n"));
        cases.add(Case.get("directory index", "GET /sub/" + h + "\r\n"));
        cases.add(Case.get("directory without index", "GET /dir/" + h + "\r\n"));
        cases.add(Case.get("percent-encoded path", "GET /%69ndex.html" + h + "\r\n"));
        cases.add(Case.get("merged slashes", "GET //sub//index.html" + h + "\r\n"));
        cases.add(Case.get("dot segments", "GET /sub/../file.txt" + h + "\r\n"));
        cases.add(Case.get("arguments", "GET /exact?a=1&b=2" + h + "\r\n"));
        cases.add(Case.get("absolute-form URI", "GET http://localhost/exact?x HTTP/1.1\r\nHost: other\r\n\r\n"));
        cases.add(Case.get("range", "GET /file.txt" + h + "Range: bytes=0-4\r\n\r\n"));
        cases.add(Case.get("suffix range", "GET /file.txt" + h + "Range: bytes=-3\r\n\r\n"));
        cases.add(Case.get("open range", "GET /file.txt" + h + "Range: bytes=10-\r\n\r\n"));
        cases.add(Case.get("multipart range", "GET /file.txt" + h + "Range: bytes=0-1,4-5\r\n\r\n"));
        cases.add(Case.get("unsatisfiable range", "GET /file.txt" + h + "Range: bytes=100-200\r\n\r\n"));
        cases.add(Case.get("invalid range", "GET /file.txt" + h + "Range: bytes=5-1\r\n\r\n"));
        cases.add(Case.get("if-range date", "GET /file.txt" + h + "Range: bytes=0-1\r\nIf-Range: "
            + Site.MTIME_HTTP + "\r\n\r\n"));
        cases.add(Case.get("if-range other date", "GET /file.txt" + h + "Range: bytes=0-1\r\n"
            + "If-Range: Mon, 01 Jan 2001 00:00:00 GMT\r\n\r\n"));
        cases.add(Case.get("if-modified-since same", "GET /file.txt" + h + "If-Modified-Since: "
            + Site.MTIME_HTTP + "\r\n\r\n"));
        cases.add(Case.get("if-modified-since older", "GET /file.txt" + h
            + "If-Modified-Since: Mon, 01 Jan 2001 00:00:00 GMT\r\n\r\n"));
        cases.add(Case.get("if-none-match star", "GET /file.txt" + h + "If-None-Match: *\r\n\r\n"));
        cases.add(Case.get("if-none-match other", "GET /file.txt" + h + "If-None-Match: \"x\"\r\n\r\n"));
        cases.add(Case.get("if-match other", "GET /file.txt" + h + "If-Match: \"x\"\r\n\r\n"));
        cases.add(Case.get("if-unmodified-since older", "GET /file.txt" + h
            + "If-Unmodified-Since: Mon, 01 Jan 2001 00:00:00 GMT\r\n\r\n"));
        cases.add(Case.get("exact location", "GET /exact" + h + "\r\n"));
        cases.add(Case.get("return 301", "GET /moved" + h + "\r\n"));
        cases.add(Case.get("return 302 URL", "GET /found" + h + "\r\n"));
        cases.add(Case.get("return 303", "GET /see" + h + "\r\n"));
        cases.add(Case.get("return text", "GET /text?q" + h + "\r\n"));
        cases.add(new Case("return text HEAD", "HEAD /text" + h + "\r\n", 1, true));
        cases.add(Case.get("return 403", "GET /forbidden" + h + "\r\n"));
        cases.add(Case.get("return 410", "GET /gone" + h + "\r\n"));
        cases.add(Case.get("return 500 to error_page", "GET /broken" + h + "\r\n"));
        cases.add(Case.get("return 418", "GET /teapot" + h + "\r\n"));
        cases.add(Case.get("return 204", "GET /nobody" + h + "\r\n"));
        cases.add(Case.get("error_page URI", "GET /custom/x" + h + "\r\n"));
        cases.add(Case.get("error_page =200", "GET /ok404/x" + h + "\r\n"));
        cases.add(Case.get("error_page URL", "GET /tofound/x" + h + "\r\n"));
        cases.add(Case.get("named location", "GET /named/x" + h + "\r\n"));
        cases.add(Case.get("try_files fallback", "GET /tried/nothing" + h + "\r\n"));
        cases.add(Case.get("internal", "GET /hidden" + h + "\r\n"));
        cases.add(Case.get("add_header expires", "GET /headers" + h + "\r\n"));
        cases.add(Case.get("add_header always on 404", "GET /headers404" + h + "\r\n"));
        cases.add(Case.get("expires epoch", "GET /epoch" + h + "\r\n"));
        cases.add(Case.get("prefix ^~", "GET /pref/a.css" + h + "\r\n"));
        cases.add(Case.get("case-insensitive regex", "GET /regex/word" + h + "\r\n"));
        for (String k : new String[] {"one", "ONE", "Two", "reXYZ", "xXx", "none", "", "user1", "user2", "abc"}) {
            cases.add(Case.get("map and split_clients " + k, "GET /map?k=" + k + h + "\r\n"));
        }
        for (String host : new String[] {"www.example.com", "a.b.example.com", "example.com", "www.example.io",
            "example.org", "x.example.org", "example.net", "EXAMPLE.net."}) {
            cases.add(Case.get("map hostnames " + host, "GET /map HTTP/1.1\r\nHost: " + host + "\r\n\r\n"));
        }
        for (String acl : new String[] {"deny", "allow", "net", "all", "all/inner", "all/own", "v6", "mapped",
            "unix", "any"}) {
            cases.add(Case.get("access " + acl, "GET /acl/" + acl + h + "\r\n"));
        }
        for (String q : new String[] {"var?a=1", "var?a=0", "var", "eq?a=abc", "eq?a=ABC", "re/abc/42", "re/ABC/1",
            "re/x", "re?a=ok", "re?a=nope", "file?p=/file.txt", "file?p=/sub", "file?p=/nothing", "file?p=/file.txt/x",
            "conf?h=1", "conf", "set?a=7", "set"}) {
            cases.add(Case.get("if " + q, "GET /if/" + q + h + "\r\n"));
        }
        for (String ip : new String[] {"10.0.0.5", "10.0.0.15", "10.0.0.21", "10.1.2.3", "2001:db8::7", "::1",
            "1.1.1.1", "x", "", "::ffff:10.0.0.15"}) {
            cases.add(Case.get("geo " + ip, "GET /geo?ip=" + ip + h + "\r\n"));
        }
        cases.add(Case.get("geo proxy", "GET /geo?ip=10.0.0.1" + h + "X-Forwarded-For: 1.1.1.1, 10.2.2.2\r\n\r\n"));
        cases.add(Case.get("geo and realip", "GET /geo?ip=1" + h + "X-Real-IP: 10.9.9.9\r\n\r\n"));
        cases.add(Case.get("realip access", "GET /acl/deny" + h + "X-Real-IP: 192.0.2.1\r\n\r\n"));
        cases.add(Case.get("realip access ipv6", "GET /acl/net" + h + "X-Real-IP: ::1\r\n\r\n"));
        for (String xff : new String[] {"1.1.1.1, 10.0.0.2", "10.0.0.3,10.0.0.2", "2001:DB8:0::1", "bad, 10.0.0.1",
            "1.2.3.4:5678"}) {
            cases.add(Case.get("realip " + xff, "GET /realip" + h + "X-Forwarded-For: " + xff + "\r\n\r\n"));
        }
        cases.add(Case.get("auth_basic none", "GET /auth/x" + h + "\r\n"));
        cases.add(Case.get("auth_basic off", "GET /auth/off" + h + "\r\n"));
        cases.add(Case.get("auth_basic missing file", "GET /auth/missing" + h + "Authorization: Basic "
            + basic("plain:secret") + "\r\n\r\n"));
        for (String loc : new String[] {"any-allow", "any-deny", "all-allow"}) {
            cases.add(Case.get("satisfy " + loc, "GET /sat/" + loc + "/" + h + "\r\n"));
            cases.add(Case.get("satisfy " + loc + " with credentials", "GET /sat/" + loc + "/" + h
                + "Authorization: Basic " + basic("plain:secret") + "\r\n\r\n"));
        }
        cases.add(Case.get("auth_basic bad base64", "GET /auth/x" + h + "Authorization: Basic !!\r\n\r\n"));
        cases.add(Case.get("auth_basic unknown user", "GET /auth/x" + h + "Authorization: Basic "
            + basic("nobody:x") + "\r\n\r\n"));
        for (String user : HTPASSWD.keySet()) {
            cases.add(Case.get("auth_basic " + user, "GET /auth/x" + h + "Authorization: Basic "
                + basic(user + ":secret") + "\r\n\r\n"));
            cases.add(Case.get("auth_basic " + user + " wrong", "GET /auth/x" + h + "Authorization: Basic "
                + basic(user + ":secreT") + "\r\n\r\n"));
        }
        for (String ix : new String[] {"html/", "approx/", "json/", "jsonp/?callback=cb.x_1", "jsonp/?callback=a-b",
            "jsonp/", "xml/", "html/d1/", "html/missing/", "html/a.txt/"}) {
            cases.add(Case.get("autoindex " + ix, "GET /ix-" + ix + h + "\r\n"));
        }
        cases.add(new Case("autoindex HEAD", "HEAD /ix-html/" + h + "\r\n", 1, true));
        cases.add(Case.get("autoindex POST", "POST /ix-html/" + h + "Content-Length: 0\r\n\r\n"));
        for (String ar : new String[] {"ok", "deny", "401", "teapot", "static", "missing", "basic", "acl", "text?a=1",
            "off", "redirect"}) {
            cases.add(Case.get("auth_request " + ar, "GET /ar/" + ar + h + "\r\n"));
        }
        for (String add : new String[] {"file", "ret", "after", "missing", "notype", "gone", "any", "nested"}) {
            cases.add(Case.get("addition " + add, "GET /add/" + add + h + "\r\n"));
        }
        cases.add(new Case("addition HEAD", "HEAD /add/file" + h + "\r\n", 1, true));
        cases.add(Case.get("addition HTTP/1.0", "GET /add/ret HTTP/1.0\r\n\r\n"));
        cases.add(Case.get("addition range", "GET /add/file" + h + "Range: bytes=0-3\r\n\r\n"));
        cases.add(new Case("addition pipelined", "GET /add/ret" + h + "\r\nGET /add/file" + h + "\r\n", 2,
            false));
        cases.add(Case.get("auth_request basic with credentials", "GET /ar/basic" + h + "Authorization: Basic "
            + basic("plain:secret") + "\r\n\r\n"));
        cases.add(new Case("auth_request HEAD", "HEAD /ar/ok" + h + "\r\n", 1, true));
        cases.add(Case.get("auth_request POST", "POST /ar/ok" + h + "Content-Length: 3\r\n\r\nabc"));
        cases.add(new Case("auth_request pipelined", "GET /ar/deny" + h + "\r\nGET /ar/ok?x" + h + "\r\n", 2,
            false));
        cases.add(Case.get("server if", "GET /file.txt" + h + "X-Block: 1\r\n\r\n"));
        cases.add(Case.get("POST static", "POST /index.html" + h + "Content-Length: 3\r\n\r\nabc"));
        cases.add(Case.get("unknown method", "FOO /index.html" + h + "\r\n"));
        cases.add(Case.get("TRACE", "TRACE /" + h + "\r\n"));
        cases.add(Case.get("HTTP/1.0", "GET /file.txt HTTP/1.0\r\n\r\n"));
        cases.add(Case.get("HTTP/1.0 keep-alive", "GET /file.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
        cases.add(Case.get("connection close", "GET /file.txt" + h + "Connection: close\r\n\r\n"));
        cases.add(new Case("pipelined", "GET /file.txt" + h + "\r\nGET /exact" + h + "\r\n", 2, false));
        cases.add(Case.get("chunked body discarded", "GET /file.txt" + h
            + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"));
        cases.add(Case.get("expect 100-continue", "GET /file.txt" + h
            + "Expect: 100-continue\r\nContent-Length: 2\r\n\r\nab"));
        // bad input
        cases.add(Case.get("garbage request line", "GARBAGE\r\n\r\n"));
        cases.add(Case.get("lower-case method", "get /" + h + "\r\n"));
        cases.add(Case.get("space in URI", "GET /a b" + h + "\r\n"));
        cases.add(Case.get("HTTP/2.0", "GET / HTTP/2.0\r\nHost: localhost\r\n\r\n"));
        cases.add(Case.get("HTTP/1.2", "GET / HTTP/1.2\r\nHost: localhost\r\n\r\n"));
        cases.add(Case.get("no Host", "GET / HTTP/1.1\r\n\r\n"));
        cases.add(Case.get("two Hosts", "GET /" + h + "Host: other\r\n\r\n"));
        cases.add(Case.get("bad Host", "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n"));
        cases.add(Case.get("Content-Length and Transfer-Encoding", "POST /" + h
            + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"));
        cases.add(Case.get("two Content-Lengths", "POST /" + h + "Content-Length: 1\r\nContent-Length: 1\r\n\r\na"));
        cases.add(Case.get("bad Content-Length", "POST /" + h + "Content-Length: x\r\n\r\n"));
        cases.add(Case.get("unknown Transfer-Encoding", "POST /" + h + "Transfer-Encoding: gzip\r\n\r\n"));
        cases.add(Case.get("Transfer-Encoding with HTTP/1.0", "POST / HTTP/1.0\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"));
        cases.add(Case.get("chunk size overflow", "GET /file.txt" + h
            + "Transfer-Encoding: chunked\r\n\r\nfffffffffffffffff1\r\nx\r\n0\r\n\r\n"));
        cases.add(Case.get("bad chunk", "GET /file.txt" + h + "Transfer-Encoding: chunked\r\n\r\nzz\r\n"));
        cases.add(Case.get("too long URI", "GET /" + "u".repeat(9000) + h + "\r\n"));
        cases.add(Case.get("too large header", "GET /" + h + "Cookie: " + "c".repeat(9000) + "\r\n\r\n"));
        cases.add(Case.get("CR in header value", "GET /" + h + "X-A: a\rb\r\n\r\n"));
        cases.add(Case.get("bare LF lines", "GET /file.txt HTTP/1.1\nHost: localhost\nX-A: a\n\n"));
        cases.add(Case.get("NUL in header", "GET /" + h + "X-A: a\0b\r\n\r\n"));
        cases.add(Case.get("NUL in URI", "GET /a\0b" + h + "\r\n"));
        cases.add(Case.get("encoded NUL in URI", "GET /a%00b" + h + "\r\n"));
        cases.add(Case.get("dot-dot above root", "GET /../etc/passwd" + h + "\r\n"));
        cases.add(Case.get("encoded dot-dot above root", "GET /%2e%2e/etc/passwd" + h + "\r\n"));
        cases.add(Case.get("dot-dot above root later", "GET /sub/../../etc/passwd" + h + "\r\n"));
        cases.add(Case.get("space in header name", "GET /" + h + "X A: b\r\n\r\n"));
        cases.add(Case.get("invalid header name", "GET /" + h + "X\u0001A: b\r\n\r\n"));
        cases.add(Case.get("header without colon", "GET /" + h + "NoColon\r\n\r\n"));
        cases.add(Case.get("CONNECT", "CONNECT localhost:443 HTTP/1.1\r\nHost: localhost\r\n\r\n"));
        cases.add(Case.get("HTTP/0.9", "GET /file.txt\r\n"));
        whitespaceAndControls(cases);
        return cases;
    }

    /**
     * Issue #36: whitespace, control bytes and chunk extensions. A tab around a value is part of it in nginx (only
     * spaces are trimmed), so these frame a request differently when it is taken for whitespace: after a 501 for
     * "\tchunked" nginx closes, and the request in the body is never served.
     */
    static void whitespaceAndControls(List<Case> cases) {
        String h = " HTTP/1.1\r\nHost: localhost\r\n";
        String smuggled = "0\r\n\r\nGET /exact?smuggled" + h + "\r\n";
        cases.add(Case.get("tab before Host value", "GET /echo HTTP/1.1\r\nHost: \tlocalhost\r\n\r\n"));
        cases.add(Case.get("tab as Host separator", "GET /echo HTTP/1.1\r\nHost:\tlocalhost\r\n\r\n"));
        cases.add(Case.get("tab after Host value", "GET /echo HTTP/1.1\r\nHost: localhost\t\r\n\r\n"));
        cases.add(Case.get("spaces around Host value", "GET /echo HTTP/1.1\r\nHost:   localhost   \r\n\r\n"));
        cases.add(Case.get("tab before Transfer-Encoding value", "POST /echo" + h
            + "Transfer-Encoding:\tchunked\r\n\r\n" + smuggled));
        cases.add(Case.get("tab after Transfer-Encoding value", "POST /echo" + h
            + "Transfer-Encoding: chunked\t\r\n\r\n" + smuggled));
        cases.add(Case.get("space after Transfer-Encoding value", "GET /file.txt" + h
            + "Transfer-Encoding: chunked \r\n\r\n0\r\n\r\n"));
        cases.add(Case.get("tab before Content-Length value", "POST /echo" + h + "Content-Length:\t4\r\n\r\nabcd"));
        cases.add(Case.get("tab after Content-Length value", "POST /echo" + h + "Content-Length: 4\t\r\n\r\nabcd"));
        cases.add(Case.get("tabs around a value", "GET /echo" + h + "X-A:\t v \t\r\n\r\n"));
        cases.add(Case.get("tab inside a value", "GET /echo" + h + "X-A: a\tb\r\n\r\n"));
        cases.add(Case.get("control byte in a value", "GET /echo" + h + "X-A: a\u0001b\r\n\r\n"));
        cases.add(Case.get("DEL in a value", "GET /echo" + h + "X-A: a\u007fb\r\n\r\n"));
        cases.add(Case.get("vertical tab before a value", "GET /echo" + h + "X-A:\u000bv\r\n\r\n"));
        cases.add(Case.get("control byte in Host", "GET /echo HTTP/1.1\r\nHost: local\u0001host\r\n\r\n"));
        cases.add(Case.get("DEL in Host", "GET /echo HTTP/1.1\r\nHost: local\u007fhost\r\n\r\n"));
        cases.add(Case.get("tab in a header name", "GET /echo" + h + "X-A\t: v\r\n\r\n"));
        cases.add(Case.get("chunk extension", "GET /file.txt" + h
            + "Transfer-Encoding: chunked\r\n\r\n4;a=b\r\nabcd\r\n0;c\r\n\r\n"));
        cases.add(Case.get("chunk extension after a tab", "GET /file.txt" + h
            + "Transfer-Encoding: chunked\r\n\r\n4\t;a\r\nabcd\r\n0\r\n\r\n"));
        cases.add(Case.get("space after a chunk size", "GET /file.txt" + h
            + "Transfer-Encoding: chunked\r\n\r\n4 \r\nabcd\r\n0\r\n\r\n"));
        cases.add(Case.get("control byte in a chunk extension", "GET /file.txt" + h
            + "Transfer-Encoding: chunked\r\n\r\n4;\u0001\r\nabcd\r\n0\r\n\r\n"));
        cases.add(Case.get("Host port over 65535", "GET /echo HTTP/1.1\r\nHost: 123.49.0.78:98777\r\n\r\n"));
        cases.add(Case.get("Host with two ports", "GET /echo HTTP/1.1\r\nHost: 123.40.56.78:9000:80\r\n\r\n"));
        cases.add(Case.get("Host IPv6 literal without ]", "GET /echo HTTP/1.1\r\nHost: [::1\r\n\r\n"));
        cases.add(Case.get("Host text before [", "GET /echo HTTP/1.1\r\nHost: a[::1]\r\n\r\n"));
        cases.add(Case.get("Host dot after an IPv6 literal", "GET /echo HTTP/1.1\r\nHost: [::1].\r\n\r\n"));
        cases.add(Case.get("Host port with a dot", "GET /echo HTTP/1.1\r\nHost: example.com.:1.2\r\n\r\n"));
        cases.add(Case.get("absolute-form port over 65535", "GET http://123.49.0.78:98777/echo" + h + "\r\n"));
        cases.add(Case.get("Host port 65535", "GET /echo HTTP/1.1\r\nHost: 123.49.0.78:65535\r\n\r\n"));
        cases.add(Case.get("Host IPv6 literal and port", "GET /echo HTTP/1.1\r\nHost: [::1]:80\r\n\r\n"));
        cases.add(Case.get("quoted chunk extension", "GET /file.txt" + h
            + "Transfer-Encoding: chunked\r\n\r\n4;a=\"b c\"\r\nabcd\r\n0\r\n\r\n"));
        cases.add(Case.get("chunk trailer", "GET /file.txt" + h
            + "Transfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\nX-T: 1\r\n\r\n"));
    }

    /** The users of {@code conf/htpasswd}, each with password {@code secret} in another scheme. */
    static final Map<String, String> HTPASSWD = new java.util.LinkedHashMap<>();

    static {
        HTPASSWD.put("plain", "{PLAIN}secret");
        HTPASSWD.put("sha", "{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ=");
        HTPASSWD.put("ssha", "{SSHA}8bX4JQDfZqtTfvnQ4ssDmWb17/FTQUxU");
        HTPASSWD.put("apr1", "$apr1$abcdefgh$h9FWgUz3n9YxylKLlR5SQ/");
        HTPASSWD.put("md5", "$1$xyz$Qia9Wq6FxQkYcwNWMk/RM0");
        HTPASSWD.put("sha512", "$6$saltsalt$TVLlQcbpFVof5W3Yz4DTP6gRstiNuHwwTt6GLc1E5n0U0aDehy0S5knV8wiOQSpT0Y77v"
            + "wPZN.Pq.H91p5hVO1");
        HTPASSWD.put("yescrypt", "$y$j9T$F5Jx5fExrKuPp53xLKQ..1$GmcwIgvdUC9qLWcKCi6gklUa1dM3ziD43YxYNURLKy0");
        HTPASSWD.put("bcrypt", "$2b$05$abcdefghijklmnopqrstuuOQiyCxlgf/oeuTqixKmWdcYUh4Hjl0a");
    }

    private static String basic(String credentials) {
        return java.util.Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** The files both servers serve. */
    static void populate(Site site) throws IOException {
        site.write("html/index.html", Files.readString(Site.distribution().resolve("html/index.html"),
            StandardCharsets.ISO_8859_1));
        site.write("html/50x.html", Files.readString(Site.distribution().resolve("html/50x.html"),
            StandardCharsets.ISO_8859_1));
        site.write("html/file.txt", "0123456789abcdef\n");
        site.write("html/style.css", "body { }\n");
        site.write("html/data.bin1", "bin\n");
        site.write("html/sub/index.html", "sub index\n");
        site.write("html/custom404.html", "custom 404\n");
        site.mkdir("html/dir");
        for (String ix : new String[] {"html", "approx", "json", "jsonp", "xml"}) {
            String dir = "html/ix-" + ix + "/";
            site.write(dir + "a.txt", "aaaaa");
            site.write(dir + "b c.txt", "b");
            site.write(dir + "x&y<z>\"q.txt", "x");
            site.write(dir + "n".repeat(49) + ".txt", "long");
            site.write(dir + "m".repeat(46), "fits");
            site.write(dir + "big.bin", new byte[20000]);
            site.write(dir + "huge.bin", new byte[1536 * 1024]);
            site.write(dir + ".hidden", "h");
            site.write(dir + "Upper.txt", "u");
            site.mkdir(dir + "d1");
            site.mkdir(dir + "d".repeat(49));
            site.write(dir + "d1/inner.txt", "i");
        }
        StringBuilder htpasswd = new StringBuilder("# users\n");
        HTPASSWD.forEach((user, hash) -> htpasswd.append(user).append(':').append(hash).append('\n'));
        site.write("conf/htpasswd", htpasswd.toString());
    }

    @Test
    @Timeout(180)
    void jinxAnswersAsNginxDoes() throws Exception {
        assumeTrue(NginxServer.installed(), "nginx is not installed (.ci/run installs it)");
        try (Site site = Site.create()) {
            populate(site);
            compare(site, HTTP, cases(), NginxDifferentialIT::normalize, EXCEPTIONS, "nginx-differential.txt");
        }
    }

    /** How a differential test makes a raw response comparable. */
    @FunctionalInterface
    interface Normalizer {
        String apply(String raw, Case c) throws IOException;
    }

    /**
     * Runs the cases against nginx, then Jinx, on the same port with the same configuration and files, writes the
     * report to {@code target/<report>} and fails naming the cases whose normalized answers differ.
     *
     * @param site the files, populated
     * @param http the inside of {@code http {}}, {@code %PORT%} for the port
     * @param cases the requests
     * @param normalize what makes answers comparable
     * @param exceptions current nginx's answer by case name, where Debian's 1.22 answers otherwise
     * @param report the report's file name
     * @throws Exception when a server fails to start or an exchange fails
     */
    static void compare(Site site, String http, List<Case> cases, Normalizer normalize,
                        Map<String, String> exceptions, String report) throws Exception {
        List<String> fromNginx;
        List<String> fromJinx;
        int port;
        try (NginxServer nginx = NginxServer.start(site, http)) {
            port = nginx.port();
            fromNginx = run(port, cases);
        }
        try (JinxServer jinx = JinxServer.start(site, http.replace("%PORT%", Integer.toString(port)))) {
            fromJinx = run(port, cases);
            jinx.assertNoAlerts();
        }
        List<String> differences = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            String expected = exceptions.containsKey(c.name()) ? exceptions.get(c.name())
                : normalize.apply(fromNginx.get(i), c);
            String actual = normalize.apply(fromJinx.get(i), c);
            text.append("=== ").append(c.name()).append(expected.equals(actual) ? "" : "  DIFFERS").append('\n')
                .append("--- nginx\n").append(expected).append("\n--- jinx\n").append(actual).append('\n');
            if (!expected.equals(actual)) {
                differences.add(c.name());
            }
        }
        Path out = Path.of("target", report);
        Files.createDirectories(out.getParent());
        Files.writeString(out, text, StandardCharsets.ISO_8859_1);
        assertTrue(differences.isEmpty(), differences.size() + " of " + cases.size() + " cases differ from "
            + NginxServer.version() + ": " + differences + "; see " + out.toAbsolutePath());
    }

    /** Sends every case on a connection of its own and keeps what came back. */
    private static List<String> run(int port, List<Case> cases) throws IOException {
        List<String> raw = new ArrayList<>();
        for (Case c : cases) {
            try (RawClient client = RawClient.connect(port)) {
                client.send(c.request());
                if (c.request().indexOf(" HTTP/") < 0) {
                    client.readAll();
                } else {
                    client.responses(c.responses(), c.head());
                }
                raw.add(client.received());
            }
        }
        return raw;
    }

    private static final Pattern VERSION = Pattern.compile("(?:nginx|jinx)/[0-9][0-9A-Za-z.\\-]*");
    private static final Pattern MASKED = Pattern.compile("(?m)^(Date|Server|ETag|Last-Modified|Expires): .*$");
    private static final Pattern BOUNDARY = Pattern.compile("boundary=(\\w+)");

    /**
     * Masks what cannot be equal and rewrites nginx's name, fixing {@code Content-Length} when the body was
     * rewritten.
     */
    static String normalize(String raw, Case c) {
        if (!raw.startsWith("HTTP/")) {
            // HTTP/0.9: the body alone
            return VERSION.matcher(raw).replaceAll("jinx/V").replace("nginx", "jinx");
        }
        List<Response> responses = Responses.split(raw, c.head(), true);
        StringBuilder sb = new StringBuilder();
        int consumed = 0;
        for (Response r : responses) {
            consumed += r.headerText().length() + r.body().length();
            String body = VERSION.matcher(r.body()).replaceAll("jinx/V").replace("nginx", "jinx");
            String head = MASKED.matcher(r.headerText()).replaceAll("$1: X");
            Matcher m = BOUNDARY.matcher(head);
            if (m.find()) {
                head = head.replace(m.group(1), "B");
                body = body.replace(m.group(1), "B");
            }
            String length = r.header("Content-Length");
            if (length != null && !c.head() && Long.parseLong(length) == r.body().length()) {
                head = head.replace("Content-Length: " + length + "\r\n", "Content-Length: " + body.length() + "\r\n");
            }
            sb.append(head).append(body);
        }
        // what is left: an incomplete response, or bytes after the last one
        return sb.append(raw.substring(consumed)).toString();
    }
}
