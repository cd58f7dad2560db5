package jinx.http.it;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.Responses.Response;
import jinx.http.internal.request.Responses;
import jinx.http.it.NginxDifferentialIT.Case;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code gzip} and {@code gzip_static} beside Debian's nginx: the same requests to both with the same configuration
 * and files; status lines and header lines must be equal (times masked, an {@code ETag} masked but for its
 * {@code W/}) and the bodies equal once un-chunked and, where {@code Content-Encoding: gzip} says so, gunzipped.
 * The compressed bytes themselves may differ: nginx lowers zlib's window and memory level for a short response of
 * known length, which {@link java.util.zip.Deflater} cannot. What is compared is thus which requests each server
 * compresses (types, {@code gzip_min_length}, {@code gzip_http_version}, {@code gzip_proxied}, {@code gzip_disable},
 * {@code Accept-Encoding} variants, HEAD, ranges, 304, error pages) and what the client gets out.
 */
@Tag("slow")
class GzipDifferentialIT {

    static final String HTTP = """
        include mime.types;
        default_type application/octet-stream;
        server {
            listen 127.0.0.1:%PORT%;
            server_name localhost;
            root html;
            gzip on;
            gzip_types text/plain application/json;
            location /vary/ { gzip_vary on; }
            location /min/ { gzip_min_length 1000; }
            location /http10/ { gzip_http_version 1.0; }
            location /proxied/ { gzip_proxied any; }
            location /expired/ { gzip_proxied expired; expires -1; }
            location /nocache/ { gzip_proxied no-cache; add_header Cache-Control "private, no-cache"; }
            location /auth/ { gzip_proxied auth; }
            location /disable/ { gzip_disable msie6 "^curl/"; }
            location /all/ { gzip_types *; }
            location /level/ { gzip_comp_level 9; gzip_buffers 4 1k; }
            location /sf/ { sendfile on; }
            location /off/ { gzip off; }
            location /static/ { gzip_static on; gzip_vary on; }
            location /always/ { gzip_static always; gzip off; }
            location /plain-static/ { gzip_static on; gzip off; }
            location = /ret { default_type text/plain; return 200 "returned text, long enough to be gzipped\\n"; }
            location = /forbidden { return 403; }
        }
        """;

    private static final String[] DIRS = {"", "vary/", "min/", "http10/", "proxied/", "expired/", "nocache/",
        "auth/", "disable/", "all/", "level/", "sf/", "off/", "static/", "always/", "plain-static/"};

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        String h = " HTTP/1.1\r\nHost: localhost\r\n";
        String gz = "Accept-Encoding: gzip\r\n";
        for (String ae : new String[] {"gzip", "gzip, deflate", "deflate, gzip;q=0.5", "gzip;q=0", "GZIP",
            "x-gzip", "br", "gzip;q=1.5", "deflate,gzip", "identity; q=1, gzip ;q=0.001", "gzipx", ""}) {
            cases.add(Case.get("Accept-Encoding [" + ae + "]", "GET /page.html" + h + "Accept-Encoding: " + ae
                + "\r\n\r\n"));
        }
        cases.add(Case.get("no Accept-Encoding", "GET /page.html" + h + "\r\n"));
        cases.add(new Case("HEAD", "HEAD /page.html" + h + gz + "\r\n", 1, true));
        cases.add(Case.get("range is ignored", "GET /page.html" + h + gz + "Range: bytes=0-9\r\n\r\n"));
        cases.add(Case.get("range without gzip", "GET /page.html" + h + "Range: bytes=0-9\r\n\r\n"));
        cases.add(Case.get("304", "GET /page.html" + h + gz + "If-Modified-Since: " + Site.MTIME_HTTP + "\r\n\r\n"));
        cases.add(Case.get("shorter than 20", "GET /small.txt" + h + gz + "\r\n"));
        cases.add(Case.get("text/plain", "GET /big.txt" + h + gz + "\r\n"));
        cases.add(Case.get("json", "GET /data.json" + h + gz + "\r\n"));
        cases.add(Case.get("type not listed", "GET /big.bin" + h + gz + "\r\n"));
        cases.add(Case.get("gzip_types *", "GET /all/big.bin" + h + gz + "\r\n"));
        cases.add(Case.get("min_length above", "GET /min/big.txt" + h + gz + "\r\n"));
        cases.add(Case.get("min_length below", "GET /min/page.html" + h + gz + "\r\n"));
        cases.add(Case.get("HTTP/1.0 by default", "GET /page.html HTTP/1.0\r\n" + gz + "\r\n"));
        cases.add(Case.get("gzip_http_version 1.0", "GET /http10/page.html HTTP/1.0\r\n" + gz + "\r\n"));
        cases.add(Case.get("Via, proxied off", "GET /page.html" + h + gz + "Via: 1.1 proxy\r\n\r\n"));
        cases.add(Case.get("Via, proxied any", "GET /proxied/page.html" + h + gz + "Via: 1.1 proxy\r\n\r\n"));
        cases.add(Case.get("Via, expired", "GET /expired/page.html" + h + gz + "Via: 1.1 proxy\r\n\r\n"));
        cases.add(Case.get("Via, no-cache", "GET /nocache/page.html" + h + gz + "Via: 1.1 proxy\r\n\r\n"));
        cases.add(Case.get("Via, auth without", "GET /auth/page.html" + h + gz + "Via: 1.1 proxy\r\n\r\n"));
        cases.add(Case.get("Via, auth with", "GET /auth/page.html" + h + gz + "Via: 1.1 proxy\r\n"
            + "Authorization: Basic eDp5\r\n\r\n"));
        cases.add(Case.get("msie6", "GET /disable/page.html" + h + gz
            + "User-Agent: Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1)\r\n\r\n"));
        cases.add(Case.get("msie6 SV1", "GET /disable/page.html" + h + gz
            + "User-Agent: Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1)\r\n\r\n"));
        cases.add(Case.get("disable regex", "GET /disable/page.html" + h + gz + "User-Agent: curl/8.0\r\n\r\n"));
        cases.add(Case.get("disable regex no match", "GET /disable/page.html" + h + gz
            + "User-Agent: Mozilla/5.0\r\n\r\n"));
        cases.add(Case.get("vary gzipped", "GET /vary/page.html" + h + gz + "\r\n"));
        cases.add(Case.get("vary not accepted", "GET /vary/page.html" + h + "\r\n"));
        cases.add(Case.get("vary too short", "GET /vary/small.txt" + h + gz + "\r\n"));
        cases.add(Case.get("404 page", "GET /missing.html" + h + gz + "\r\n"));
        cases.add(Case.get("403 page", "GET /forbidden" + h + gz + "\r\n"));
        cases.add(Case.get("return", "GET /ret" + h + gz + "\r\n"));
        cases.add(Case.get("level 9, 1k buffers", "GET /level/huge.txt" + h + gz + "\r\n"));
        cases.add(Case.get("2 MB", "GET /huge.txt" + h + gz + "\r\n"));
        cases.add(Case.get("2 MB sendfile on", "GET /sf/huge.txt" + h + gz + "\r\n"));
        cases.add(Case.get("gzip off", "GET /off/page.html" + h + gz + "\r\n"));
        cases.add(Case.get("keep-alive then next", "GET /page.html" + h + gz + "\r\n"));
        cases.add(Case.get("static .gz", "GET /static/page.html" + h + gz + "\r\n"));
        cases.add(Case.get("static not accepted", "GET /static/page.html" + h + "\r\n"));
        cases.add(Case.get("static without .gz", "GET /static/big.txt" + h + gz + "\r\n"));
        cases.add(new Case("static HEAD", "HEAD /static/page.html" + h + gz + "\r\n", 1, true));
        cases.add(Case.get("static range", "GET /static/page.html" + h + gz + "Range: bytes=0-9\r\n\r\n"));
        cases.add(Case.get("always", "GET /always/page.html" + h + "\r\n"));
        cases.add(Case.get("static on, gzip off, not accepted", "GET /plain-static/page.html" + h + "\r\n"));
        cases.add(Case.get("static on, gzip off", "GET /plain-static/page.html" + h + gz + "\r\n"));
        cases.add(Case.get("static directory", "GET /static/" + h + gz + "\r\n"));
        return cases;
    }

    /** The files both servers serve, in every location's directory. */
    static void populate(Site site) throws IOException {
        StringBuilder page = new StringBuilder("<!DOCTYPE html>\n<html><head><title>page</title></head><body>\n");
        for (int i = 0; page.length() < 100 * 1024; i++) {
            page.append("<p class=\"row").append(i % 7).append("\">Row ").append(i).append(": ")
                .append(Integer.toHexString(i * 2654435761L > 0 ? (int) (i * 2654435761L) : i)).append("</p>\n");
        }
        page.append("</body></html>\n");
        StringBuilder huge = new StringBuilder();
        for (int i = 0; huge.length() < 2 * 1024 * 1024; i++) {
            huge.append("line ").append(i).append(' ').append(Long.toString(i * 6364136223846793005L, 36))
                .append('\n');
        }
        byte[] bin = new byte[4096];
        for (String dir : DIRS) {
            site.write("html/" + dir + "page.html", page.toString());
            site.write("html/" + dir + "small.txt", "0123456789\n");
            site.write("html/" + dir + "big.txt", page.toString());
            site.write("html/" + dir + "data.json", "{\"a\": [1, 2, 3], \"b\": \"" + "x".repeat(200) + "\"}\n");
            site.write("html/" + dir + "big.bin", bin);
            site.write("html/" + dir + "huge.txt", huge.toString());
        }
        for (String dir : new String[] {"static/", "always/", "plain-static/"}) {
            site.write("html/" + dir + "page.html.gz", gzip(("precompressed " + dir + "\n").repeat(50)));
        }
        site.write("html/static/index.html", "index\n");
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(text.getBytes(StandardCharsets.ISO_8859_1));
        }
        return out.toByteArray();
    }

    @Test
    @Timeout(180)
    void jinxCompressesWhereNginxDoes() throws Exception {
        assumeTrue(NginxServer.installed(), "nginx is not installed (.ci/run installs it)");
        try (Site site = Site.create()) {
            populate(site);
            NginxDifferentialIT.compare(site, HTTP, cases(), GzipDifferentialIT::normalize, Map.of(),
                "gzip-differential.txt");
        }
    }

    private static final Pattern VERSION = Pattern.compile("(?:nginx|jinx)/[0-9][0-9A-Za-z.\\-]*");
    private static final Pattern MASKED = Pattern.compile("(?m)^(Date|Server|Last-Modified|Expires): .*$");
    private static final Pattern ETAG = Pattern.compile("(?m)^ETag: (W/)?\".*\"$");

    /** The head with times masked, then the body un-chunked and gunzipped, with the server's name rewritten. */
    static String normalize(String raw, Case c) throws IOException {
        List<Response> responses = Responses.split(raw, c.head(), true);
        if (responses.isEmpty()) {
            return "incomplete: " + raw;
        }
        Response r = responses.get(0);
        String head = MASKED.matcher(r.headerText()).replaceAll("$1: X");
        head = ETAG.matcher(head).replaceAll("ETag: $1X");
        String body = r.content();
        if ("gzip".equals(r.header("Content-Encoding")) && !c.head() && !body.isEmpty()) {
            body = "gunzipped: " + gunzip(body);
        }
        body = VERSION.matcher(body).replaceAll("jinx/V").replace("nginx", "jinx");
        return head + body;
    }

    private static String gunzip(String body) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(
            body.getBytes(StandardCharsets.ISO_8859_1)))) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "not gzip (" + e.getMessage() + "): " + body.length() + " bytes";
        }
    }

}
