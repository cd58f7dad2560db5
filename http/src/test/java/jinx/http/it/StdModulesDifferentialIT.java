package jinx.http.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.it.NginxDifferentialIT.Case;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The referer, secure_link, random_index, browser, userid, charset, sub_filter and gunzip modules beside Debian's
 * nginx: the same configuration, the same requests, the same bytes.
 */
@Tag("slow")
class StdModulesDifferentialIT {

    static final String HTTP = """
        default_type text/plain;
        include koi-utf;
        include koi-win;
        include win-utf;
        server {
            listen 127.0.0.1:%PORT%;
            server_name localhost ~^re\\d+\\.test$;
            location /ref/ {
                valid_referers none blocked example.com *.example.net www.example.* site.org/pub ~\\.regex\\.;
                if ($invalid_referer) { return 403 "bad referer\\n"; }
                return 200 "ok [$invalid_referer]\\n";
            }
            location /ref-re/ {
                valid_referers x.com ~^re\\d+\\.TEST/x.$;
                return 200 "[$invalid_referer]\\n";
            }
            location /sl/ {
                secure_link $arg_md5,$arg_e;
                secure_link_md5 "$secure_link_expires$uri key";
                return 200 "[$secure_link][$secure_link_expires]\\n";
            }
            location /slp/ {
                secure_link_secret w0rd;
                if ($secure_link = "") { return 403; }
                return 200 "[$secure_link]\\n";
            }
            location /ri/ {
                random_index on;
            }
            location /br/ {
                modern_browser gecko 1.0.0;
                modern_browser msie 6.0;
                modern_browser safari 125;
                modern_browser konqueror 3.0;
                modern_browser_value "modern.";
                ancient_browser Links Lynx netscape4;
                return 200 "[$modern_browser][$ancient_browser][$msie]\\n";
            }
            location /br-unlisted/ {
                modern_browser opera 9.0;
                modern_browser unlisted;
                ancient_browser_value old;
                ancient_browser Lynx;
                return 200 "[$modern_browser][$ancient_browser][$msie]\\n";
            }
            location /br-none/ {
                return 200 "[$modern_browser][$ancient_browser][$msie]\\n";
            }
            location /cs/ {
                charset utf-8;
                location /cs/koi/ { source_charset koi8-r; }
                location /cs/win/ { source_charset windows-1251; charset koi8-r; }
                location /cs/back/ { source_charset utf-8; charset windows-1251; }
                location /cs/html/ { charset_types text/css; }
                location /cs/moved { return 301 /x; }
                location /cs/text { return 200 "text\\n"; }
            }
            location /uid/ {
                userid on; userid_service 16909060; userid_flags secure httponly samesite=lax;
                userid_domain example.com; userid_path /p; userid_p3p 'CP="x"'; userid_expires 1h; userid_mark A;
                add_header X-Before 1;
                return 200 "got=$uid_got set=$uid_set\\n";
            }
            location /uid/v1 { userid v1; userid_name id; return 200 "got=$uid_got set=$uid_set\\n"; }
            location /uid/max { userid on; userid_expires max; userid_flags samesite=none; return 204; }
            location /uid/log { userid log; return 200 "got=$uid_got set=$uid_set\\n"; }
            location /uid/off { return 200 "got=$uid_got set=$uid_set\\n"; }
            location /uid/reset { userid on; set $uid_reset $arg_r; return 200 "got=$uid_got set=$uid_set\\n"; }
            location /uid/404 { userid on; userid_mark =; userid_flags off; }
            location /sub/ {
                sub_filter_types text/plain;
                sub_filter aab [1];
                sub_filter 'Hello' '[hi $uri]';
                sub_filter AB [2];
                sub_filter <hr> [hr];
                sub_filter_once off;
                location /sub/once/ { sub_filter_once on; }
                location /sub/lm/ { sub_filter_last_modified on; }
                location /sub/var/ { sub_filter $arg_s '<$arg_r>'; sub_filter zz $arg_z; }
                location /sub/ret { return 200 "aaab Hello HELLO aab xab ab"; }
                location /sub/css/ { }
            }
            location /gz/ {
                gzip_static always;
                gunzip on;
                location /gz/small/ { gunzip_buffers 2 1k; }
                location /gz/off/ { gunzip off; }
            }
            location /tr/ {
                add_trailer X-Uri $uri;
                add_trailer X-Empty "";
                add_trailer X-Always "yes" always;
                location /tr/ret { return 200 "body\\n"; }
                location /tr/404 { return 404 "gone\\n"; }
                location /tr/none { add_header X-H 1; return 200 "no trailers\\n"; }
            }
            location /ref-names/ {
                valid_referers server_names;
                return 200 "[$invalid_referer]\\n";
            }
        }
        """;

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        String[] referers = {null, "blocked", "http://example.com/", "HTTP://EXAMPLE.COM:81/x",
            "http://sub.example.com/", "http://a.b.example.net/", "http://example.net/", "http://www.example.co/",
            "http://site.org/pub/x", "http://site.org/priv", "http://x.regex.y/", "https://x.regex.", "http://a.org",
            "https://h/", "http://" + "a".repeat(300) + ".com/"};
        for (String ref : referers) {
            cases.add(Case.get("referer " + ref, request("/ref/", ref)));
        }
        cases.add(Case.get("referer server_names regex", request("/ref-names/", "http://re7.test")));
        cases.add(Case.get("referer server_names regex path", request("/ref-names/", "http://re7.test/")));
        for (String ref : new String[] {"https://re7.test/x", "https://re7.test/xy", "HTTP://re7.test/xy"}) {
            cases.add(Case.get("referer regex " + ref, request("/ref-re/", ref)));
        }
        cases.add(Case.get("referer server_names", request("/ref-names/", "http://localhost/")));
        cases.add(Case.get("referer server_names none", request("/ref-names/", null)));
        secureLink(cases);
        for (String uri : new String[] {"/cs/a.txt", "/cs/a.bin", "/cs/koi/k.txt", "/cs/win/w.txt", "/cs/back/u.txt",
            "/cs/html/a.css", "/cs/html/a.txt", "/cs/html/a.html", "/cs/moved", "/cs/text"}) {
            cases.add(Case.get("charset " + uri, "GET " + uri + " HTTP/1.1\r\nHost: localhost\r\n\r\n"));
        }
        browsers(cases);
        userid(cases);
        sub(cases);
        gunzip(cases);
        String tr = " HTTP/1.1\r\nHost: localhost\r\n\r\n";
        for (String uri : new String[] {"/tr/a.txt", "/tr/ret", "/tr/404", "/tr/none"}) {
            cases.add(Case.get("add_trailer " + uri, "GET " + uri + tr));
        }
        cases.add(Case.get("add_trailer HTTP/1.0", "GET /tr/a.txt HTTP/1.0\r\n\r\n"));
        cases.add(new Case("add_trailer HEAD", "HEAD /tr/a.txt" + tr, 1, true));
        String h = " HTTP/1.1\r\nHost: localhost\r\n\r\n";
        cases.add(Case.get("random_index one file", "GET /ri/one/" + h));
        cases.add(new Case("random_index HEAD", "HEAD /ri/one/" + h, 1, true));
        cases.add(Case.get("random_index POST", "POST /ri/one/ HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n"));
        cases.add(Case.get("random_index no file", "GET /ri/none/" + h));
        cases.add(Case.get("random_index missing", "GET /ri/missing/" + h));
        cases.add(Case.get("random_index not a slash", "GET /ri/one" + h));
        return cases;
    }

    static void sub(List<Case> cases) {
        String h = " HTTP/1.1\r\nHost: localhost\r\n\r\n";
        for (String uri : new String[] {"/sub/ret", "/sub/a.txt", "/sub/once/a.txt", "/sub/lm/a.txt", "/sub/a.html",
            "/sub/big.txt", "/sub/once/big.txt", "/sub/css/a.css", "/sub/empty.txt", "/sub/tail.txt",
            "/sub/var/a.txt?s=HELLO&r=x", "/sub/var/a.txt?s=&r=x", "/sub/var/a.txt?s=ab&r=&z=Q", "/sub/var/a.txt"}) {
            cases.add(Case.get("sub_filter " + uri, "GET " + uri + h));
        }
        cases.add(new Case("sub_filter HEAD", "HEAD /sub/a.txt" + h, 1, true));
        cases.add(Case.get("sub_filter HTTP/1.0", "GET /sub/big.txt HTTP/1.0\r\n\r\n"));
    }

    static void gunzip(List<Case> cases) {
        for (String uri : new String[] {"/gz/a.txt", "/gz/big.txt", "/gz/two.txt", "/gz/small/a.txt",
            "/gz/small/big.txt", "/gz/off/a.txt", "/gz/named.txt", "/gz/empty.txt"}) {
            cases.add(Case.get("gunzip " + uri, "GET " + uri + " HTTP/1.1\r\nHost: localhost\r\n\r\n"));
            cases.add(Case.get("gunzip " + uri + " gzip", "GET " + uri + " HTTP/1.1\r\nHost: localhost\r\n"
                + "Accept-Encoding: gzip\r\n\r\n"));
        }
        cases.add(Case.get("gunzip HTTP/1.0", "GET /gz/big.txt HTTP/1.0\r\n\r\n"));
        cases.add(new Case("gunzip HEAD", "HEAD /gz/a.txt HTTP/1.1\r\nHost: localhost\r\n\r\n", 1, true));
    }

    static byte[] gzip(byte[] data, String name) throws java.io.IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream z = new java.util.zip.GZIPOutputStream(out)) {
            z.write(data);
        }
        byte[] b = out.toByteArray();
        if (name == null) {
            return b;
        }
        // the FNAME field, as gzip(1) writes it
        byte[] named = new byte[b.length + name.length() + 1];
        System.arraycopy(b, 0, named, 0, 10);
        named[3] = 8;
        System.arraycopy(name.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), 0, named, 10, name.length());
        System.arraycopy(b, 10, named, 11 + name.length(), b.length - 10);
        return named;
    }

    static void userid(List<Case> cases) {
        String sent = "fwAAAWcFAAAOUDgAAwMEAg";
        String[][] uids = {{"/uid/", null}, {"/uid/", sent + "=="}, {"/uid/", sent + "A="}, {"/uid/", "short"},
            {"/uid/", "!!!" + sent.substring(3) + "=="}, {"/uid/", "AAAAAAAAAAAAAAAAAAAAAA=="}, {"/uid/v1", null},
            {"/uid/v1", sent + "xx"}, {"/uid/max", null}, {"/uid/log", sent + "=="}, {"/uid/log", null},
            {"/uid/off", sent + "=="}, {"/uid/reset", sent + "=="}, {"/uid/reset?r=0", sent + "=="},
            {"/uid/reset?r=1", sent + "=="}, {"/uid/reset?r=log", sent + "=="}, {"/uid/404", null},
            {"/uid/404", sent + "=="}, {"/uid/", "AAAA=AAAAAAAAAAAAAAAAAAAAA"}};
        for (String[] u : uids) {
            cases.add(Case.get("userid " + u[0] + " " + u[1], "GET " + u[0] + " HTTP/1.1\r\nHost: localhost\r\n"
                + (u[1] == null ? "" : "Cookie: a=b; " + (u[0].startsWith("/uid/v1") ? "id=" : "uid=") + u[1]
                + "\r\n") + "\r\n"));
        }
    }

    private static final java.util.regex.Pattern UID_COOKIE = java.util.regex.Pattern.compile(
        "(?m)^(Set-Cookie: \\w+=)([A-Za-z0-9+/]{22})");
    private static final java.util.regex.Pattern UID_TEXT = java.util.regex.Pattern.compile(
        "(\\w+=[0-9A-F]{8})[0-9A-F]{16}([0-9A-F]{8})");
    private static final java.util.regex.Pattern COOKIE_EXPIRES = java.util.regex.Pattern.compile(
        "expires=(?!Thu, 31-Dec-37)[A-Z][a-z]{2}, \\d\\d-[A-Z][a-z]{2}-\\d\\d \\d\\d:\\d\\d:\\d\\d GMT");

    /**
     * nginx's normalization, and the userid cookie's time and the worker's start value (microseconds and pid)
     * masked: the cookie's time is checked to be now first (in network or host order, v2 or v1), so only what
     * cannot be equal is masked; the service, the sequence, the layout, the mark and the flags are compared.
     */
    static String normalize(String raw, Case c) {
        String s = NginxDifferentialIT.normalize(raw, c);
        java.util.regex.Matcher m = UID_COOKIE.matcher(s);
        StringBuilder sb = new StringBuilder();
        long now = System.currentTimeMillis() / 1000;
        while (m.find()) {
            byte[] uid = java.util.Base64.getDecoder().decode(m.group(2) + "==");
            long big = (uid[4] & 0xffL) << 24 | (uid[5] & 0xff) << 16 | (uid[6] & 0xff) << 8 | uid[7] & 0xff;
            long little = (uid[7] & 0xffL) << 24 | (uid[6] & 0xff) << 16 | (uid[5] & 0xff) << 8 | uid[4] & 0xff;
            String masked = m.group(2);
            if (Math.abs(big - now) < 300 || Math.abs(little - now) < 300) {
                java.util.Arrays.fill(uid, 4, 12, (byte) 0);
                masked = java.util.Base64.getEncoder().encodeToString(uid).substring(0, 22);
            }
            m.appendReplacement(sb, java.util.regex.Matcher.quoteReplacement(m.group(1) + masked));
        }
        m.appendTail(sb);
        s = UID_TEXT.matcher(sb.toString()).replaceAll("$1TTTTTTTTSSSSSSSS$2");
        return COOKIE_EXPIRES.matcher(s).replaceAll("expires=X");
    }

    static void browsers(List<Case> cases) {
        String[] agents = {null, "", "Mozilla/5.0 (X11; U; Linux i686; en-US; rv:1.0.0) Gecko/20020610",
            "Mozilla/5.0 (X11; U; Linux i686; en-US; rv:0.9.9) Gecko/20020610",
            "Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1)", "Mozilla/4.0 (compatible; MSIE 5.5; Windows 98)",
            "Mozilla/4.0 (compatible; MSIE 6.0; X11; FreeBSD i386) Opera 7.50  [en]", "Opera/9.01 (X11; U; en)",
            "Mozilla/5.0 (Macintosh; U; PPC Mac OS X; en) AppleWebKit/418 (KHTML, like Gecko) Safari/417.9.3",
            "Mozilla/5.0 (compatible; Konqueror/3.5; FreeBSD) KHTML/3.5.1 (like Gecko)",
            "Mozilla/4.72 [en] (X11; U; Linux)", "Lynx/2.8.9rel.1 libwww-FM/2.14", "curl/7.88.1",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:120.0) Gecko/20100101 Firefox/120.0", "MSIE 6.0b"};
        for (String location : new String[] {"/br/", "/br-unlisted/", "/br-none/"}) {
            for (String ua : agents) {
                cases.add(Case.get("browser " + location + " " + ua, "GET " + location + " HTTP/1.1\r\nHost: localhost"
                    + "\r\n" + (ua == null ? "" : "User-Agent: " + ua + "\r\n") + "\r\n"));
            }
        }
    }

    static void secureLink(List<Case> cases) {
        String future = "4102444800";
        String[][] links = {
            {"valid", "/sl/a?md5=" + b64url(future + "/sl/a key") + "&e=" + future},
            {"expired", "/sl/a?md5=" + b64url("1000/sl/a key") + "&e=1000"},
            {"wrong hash", "/sl/a?md5=" + b64url("1000/sl/b key") + "&e=1000"},
            {"bad expiry", "/sl/a?md5=" + b64url("/sl/a key") + "&e=1x"},
            {"no expiry", "/sl/a?md5=" + b64url("/sl/a key")},
            {"padded", "/sl/a?md5=" + b64url("1/sl/a key") + "==&e=1"},
            {"too long", "/sl/a?md5=" + b64url("1/sl/a key") + "===&e=1"},
            {"secret", "/slp/" + hex("dir/f.txtw0rd") + "/dir/f.txt"},
            {"secret upper", "/slp/" + hex("dir/f.txt?a=1w0rd").toUpperCase() + "/dir/f.txt?a=1"},
            {"secret wrong", "/slp/" + hex("dir/f.txtw0rd") + "/dir/g.txt"},
        };
        for (String[] l : links) {
            cases.add(Case.get("secure_link " + l[0], "GET " + l[1] + " HTTP/1.1\r\nHost: localhost\r\n\r\n"));
        }
    }

    private static byte[] md5(String s) {
        try {
            return java.security.MessageDigest.getInstance("MD5").digest(s.getBytes(
                java.nio.charset.StandardCharsets.ISO_8859_1));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String b64url(String s) {
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(md5(s));
    }

    private static String hex(String s) {
        return java.util.HexFormat.of().formatHex(md5(s));
    }

    static String request(String uri, String referer) {
        return "GET " + uri + " HTTP/1.1\r\nHost: localhost\r\n" + (referer == null ? "" : "Referer: " + referer
            + "\r\n") + "\r\n";
    }

    @Test
    @Timeout(120)
    void asNginx() throws Exception {
        assumeTrue(NginxServer.installed(), "nginx is not installed (.ci/run installs it)");
        try (Site site = Site.create()) {
            site.write("html/ri/one/only.txt", "the only file\n");
            site.write("html/ri/one/.dot", "hidden\n");
            site.mkdir("html/ri/one/dir");
            site.write("html/ri/none/.dot", "hidden\n");
            site.write("html/ri/none/index.html", "index\n");
            for (String map : new String[] {"koi-utf", "koi-win", "win-utf"}) {
                site.write("conf/" + map, java.nio.file.Files.readAllBytes(Site.distribution().resolve("conf/" + map)));
            }
            byte[] high = new byte[128];
            for (int i = 0; i < 128; i++) {
                high[i] = (byte) (128 + i);
            }
            site.write("html/cs/a.txt", "plain\n");
            site.write("html/tr/a.txt", "a file with trailers\n");
            byte[] small = "a small text, decompressed for the client\n".getBytes(
                java.nio.charset.StandardCharsets.ISO_8859_1);
            StringBuilder text100 = new StringBuilder();
            for (int i = 0; text100.length() < 100_000; i++) {
                text100.append("line ").append(i * 7919 % 100_003).append('\n');
            }
            byte[] big100 = text100.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            for (String dir : new String[] {"gz/", "gz/small/", "gz/off/"}) {
                site.write("html/" + dir + "a.txt.gz", gzip(small, null));
                site.write("html/" + dir + "big.txt.gz", gzip(big100, null));
            }
            byte[] one = gzip("first member\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), null);
            byte[] two = gzip("second member\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), null);
            byte[] both = java.util.Arrays.copyOf(one, one.length + two.length);
            System.arraycopy(two, 0, both, one.length, two.length);
            site.write("html/gz/two.txt.gz", both);
            site.write("html/gz/named.txt.gz", gzip(small, "named.txt"));
            site.write("html/gz/empty.txt.gz", gzip(new byte[0], null));
            String text = "aaab Hello HELLO aab xab ab aAb hell hello\n";
            site.write("html/sub/a.txt", text);
            site.write("html/sub/once/a.txt", text);
            site.write("html/sub/lm/a.txt", text);
            site.write("html/sub/var/a.txt", text);
            site.write("html/sub/a.html", "<p>Hello</p><hr>\n");
            site.write("html/sub/css/a.css", text);
            site.write("html/sub/empty.txt", "");
            site.write("html/sub/tail.txt", "x aa");
            StringBuilder big = new StringBuilder();
            while (big.length() < 100_000) {
                big.append("line ").append(big.length()).append(" aab Hell").append(big.length() % 7 == 0 ? "o" : "")
                    .append(" a\n");
            }
            site.write("html/sub/big.txt", big.toString());
            site.write("html/sub/once/big.txt", big.toString());
            site.write("html/cs/a.bin", high);
            site.write("html/cs/koi/k.txt", high);
            site.write("html/cs/win/w.txt", high);
            site.write("html/cs/back/u.txt", "\u043f\u0440\u0438\u0432\u0435\u0442 \u20ac \u4e2d \u00e9\n".getBytes(
                java.nio.charset.StandardCharsets.UTF_8));
            site.write("html/cs/back/cut.txt", new byte[] {'a', (byte) 0xd0, (byte) 0xbf, (byte) 0xd0, '\n', (byte) 0xff,
                (byte) 0xe2, (byte) 0x82});
            site.write("html/cs/html/a.css", "css\n");
            site.write("html/cs/html/a.txt", "txt\n");
            site.write("html/cs/html/a.html", "html\n");
            NginxDifferentialIT.compare(site, HTTP, cases(), StdModulesDifferentialIT::normalize, Map.of(),
                "stdmods-differential.txt");
        }
    }
}
