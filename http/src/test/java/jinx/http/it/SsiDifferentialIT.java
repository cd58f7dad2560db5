package jinx.http.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.internal.request.Responses;
import jinx.http.internal.request.Responses.Response;
import jinx.http.it.NginxDifferentialIT.Case;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The SSI filter beside Debian's nginx: every command, its errors and the parser's, blocks and stubs,
 * subrequests waited for or not, variables shared with included documents, commands across the 32k buffers a
 * large file is read in, and the headers SSI changes. Bodies are compared un-chunked: where a chunk ends depends
 * on each server's buffers.
 */
@Tag("slow")
class SsiDifferentialIT {

    static final String HTTP = """
        default_type text/plain;
        types { text/html html; text/plain txt; }
        server {
            listen 127.0.0.1:%PORT%;
            server_name localhost;
            location /ssi/ {
                ssi on;
            }
            location /ssi/silent/ {
                ssi on;
                ssi_silent_errors on;
            }
            location /ssi/plain/ {
                ssi on;
                ssi_types text/plain;
            }
            location /ssi/lm/ {
                ssi on;
                ssi_last_modified on;
            }
            location /ssi/short/ {
                ssi on;
                ssi_value_length 8;
            }
            location /off/ {
                ssi off;
            }
            location = /ret {
                return 200 "from return $arg_a";
            }
            location = /empty {
                return 204;
            }
        }
        """;

    static final String[] DOCS = {
        "echo.html", """
            uri=<!--#echo var="request_uri" -->;
            none=<!--#echo var="nosuch" -->;
            dflt=<!--#echo var="nosuch" default="d<>" -->;
            empty=<!--#echo var="nosuch" default="" -->;
            arg=<!--#echo var="arg_x" -->;
            url=<!--#echo var="arg_x" encoding="url" -->;
            none2=<!--#echo var="arg_x" encoding="none" -->;
            sticky=<!--#echo var="arg_x" -->;
            bad=<!--#echo var="arg_x" encoding="base64" -->;
            upper=<!--#echo var="ARG_X" encoding="entity" -->;
            <!--#set var="s" value="<a href='x'> & \\"q\\" #%\t?;{}|^~[]`=+,/:@!*()" -->
            entity=<!--#echo var="s" encoding="entity" -->;
            url=<!--#echo var="s" encoding="url" -->;
            none=<!--#echo var="s" encoding="none" -->;
            """,
        "set.html", """
            <!--#set var="a" value="one" --><!--#set var="b" value="$a-${a}x \\$a \\q \\\\ $nosuch!" -->
            b=<!--#echo var="b" -->; A=<!--#echo var="A" -->;
            <!--#set var="c" value="${a" -->c=<!--#echo var="c" -->;
            <!--#set var="d" value="$" -->
            <!--#set var="e" value="${}" -->
            <!--#set var="f" value="$uri" -->f=<!--#echo var="f" -->;
            """,
        "if.html", """
            <!--#set var="v" value="abc" -->
            <!--#if expr="$v = abc" -->eq<!--#elif expr="$v" -->elif<!--#else -->else<!--#endif -->;
            <!--#if expr="$v != abc" -->ne<!--#elif expr="$v = /^a(b)(?<rest>.)$/" -->re $1 $rest<!--#endif -->;
            <!--#if expr="$nosuch" -->set<!--#else -->unset<!--#endif -->;
            <!--#if expr="$v = /^a(b)(?<rest>.)/" -->re <!--#echo var="1" --> <!--#echo var="rest" --><!--#endif -->;
            <!--#if expr="$v = /^(?P<first>x)?a/" -->re2 \
            [<!--#echo var="1" -->] [<!--#echo var="first" -->]<!--#endif -->;
            <!--#if expr="$v = /B/" -->caseful<!--#else -->no<!--#endif -->;
            <!--#if expr="$v = \\/abc" -->slash<!--#else -->noslash<!--#endif -->;
            <!--#if expr="$V = abc" -->lower<!--#endif -->;
            <!--#if expr="$v ~ abc" -->tilde<!--#endif -->;
            <!--#if expr="$v = /abc" -->unterminated<!--#endif -->;
            <!--#if expr="$v = /(/" -->badre<!--#endif -->;
            <!--#if expr="1" --><!--#if expr="1" -->nested<!--#endif -->;
            <!--#else -->orphan;
            <!--#endif -->
            <!--#if expr="" -->x<!--#endif -->
            <!--#if expr="0" --><!--#echo var="v" --><!--#nosuchcmd --><!--#set var="w" value="1" --><!--#endif -->
            w=<!--#echo var="w" -->;
            """,
        "errors.html", """
            a<!--#nosuch -->b
            c<!--#echo -->d
            e<!--#echo var="x" var="y" -->f
            g<!--#echo var="x" bogus="1" -->h
            i<!--#config errmsg="[oops]" --><!--#nosuch -->j
            k<!--#echoxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx var="x" -->l
            m<!--#echo var "x" -->n
            o<!--#echo var= x -->p
            q<!--#echo var="x"x -->r
            s<!--#echo var="x" - -->t
            u<!--#echo var="x" --x>v
            w<!--#echo var-x="1" -->y
            z<!--#echo var="request_uri"-->Z
            """,
        "comments.html", """
            <!-- plain comment --><<!--#echo var="uri" -->
            <!<!--#echo var="uri" --><!-<!--#echo var="uri" --><!--<!--#echo var="uri" -->
            <!--# echo var="uri" --><!--#
            echo
            var="uri"
            --><!--
            #echo var="uri" -->< ! -- # not a command -->
            <!--#echo var='uri' --><!--#echo var="u\\"ri" -->
            """,
        "include.html", """
            [<!--#include virtual="/ssi/part.txt" -->]
            [<!--#include virtual="part.txt" -->]
            [<!--#include file="part.txt" -->]
            [<!--#include virtual="/ret?a=1" -->]
            [<!--#include virtual="/ret?a=$arg_q" -->]
            [<!--#include virtual="/ssi/part.txt" wait="yes" -->]
            [<!--#include virtual="/ssi/part.txt" wait="no" -->]
            [<!--#include virtual="/ssi/part.txt" wait="maybe" -->]
            [<!--#include file="part.txt" wait="yes" -->]
            [<!--#include virtual="/a" file="/b" -->]
            [<!--#include -->]
            [<!--#include virtual="/ssi/missing.txt" -->]
            [<!--#include virtual="/../etc/passwd" -->]
            [<!--#include virtual="/ret" set="x" stub="y" -->]
            """,
        "part.txt", "part\n",
        "blocks.html", """
            <!--#block name="one" -->stub <!--#echo var="uri" --> one<!--#endblock -->
            [<!--#include virtual="/ssi/missing.txt" stub="one" -->]
            [<!--#include virtual="/empty" stub="one" -->]
            [<!--#include virtual="/ssi/part.txt" stub="one" -->]
            [<!--#include virtual="/ssi/missing.txt" stub="two" -->]
            <!--#block name="empty" --><!--#endblock -->
            [<!--#include virtual="/ssi/missing.txt" stub="empty" -->]
            <!--#endblock -->after
            """,
        "shared.html", """
            <!--#set var="who" value="main" -->[<!--#include virtual="/ssi/inner.html" -->] who=<!--#echo var="who" -->
            """,
        "inner.html", "inner sees <!--#echo var=\"who\" --><!--#set var=\"who\" value=\"inner\" -->",
        "notssi.txt", "<!--#echo var=\"uri\" -->\n",
        "headers.html", "<!--#echo var=\"uri\" -->\n",
        "unterminated.html", "before<!--#echo var=\"uri\"",
        "held.html", "before<!-",
        "noendif.html", "<!--#if expr=\"\" -->hidden<!--#else -->shown",
    };

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (int i = 0; i < DOCS.length; i += 2) {
            String doc = DOCS[i];
            String query = doc.equals("echo.html") ? "?x=%3Cb%3E%20%22%27%23%25&y=1"
                : doc.equals("include.html") ? "?q=2" : "";
            cases.add(Case.get("ssi " + doc, get("/ssi/" + doc + query)));
        }
        cases.add(Case.get("silent errors", get("/ssi/silent/errors.html")));
        cases.add(Case.get("plain types", get("/ssi/plain/notssi.txt")));
        cases.add(Case.get("last_modified on", get("/ssi/lm/headers.html")));
        cases.add(Case.get("value length", get("/ssi/short/set.html")));
        cases.add(Case.get("ssi off", get("/off/headers.html")));
        cases.add(new Case("HEAD", "HEAD /ssi/headers.html HTTP/1.1\r\nHost: localhost\r\n\r\n", 1, true));
        cases.add(Case.get("large", get("/ssi/large.html")));
        cases.add(new Case("pipelined", "GET /ssi/include.html HTTP/1.1\r\nHost: localhost\r\n\r\n"
            + "GET /ssi/blocks.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 2, false));
        return cases;
    }

    static String get(String uri) {
        return "GET " + uri + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    }

    /** About 100 KB of text with commands on each side of, and across, the 32k boundaries it is read in. */
    static String large() {
        StringBuilder b = new StringBuilder();
        int n = 0;
        while (b.length() < 100_000) {
            b.append("line ").append(n++).append(' ').append("x".repeat(n % 97)).append('\n');
            if (n % 50 == 0) {
                b.append("<!--#echo var=\"uri\" -->\n");
            }
            for (int boundary = 32768; boundary <= 98304; boundary += 32768) {
                if (b.length() > boundary - 12 && b.length() < boundary) {
                    b.append("<!--#echo var=\"request_uri\" encoding=\"url\" -->");
                }
            }
        }
        return b.toString();
    }

    @Test
    @Timeout(120)
    void asNginx() throws Exception {
        assumeTrue(NginxServer.installed(), "nginx is not installed (.ci/run installs it)");
        try (Site site = Site.create()) {
            for (int i = 0; i < DOCS.length; i += 2) {
                site.write("html/ssi/" + DOCS[i], DOCS[i + 1]);
                site.write("html/ssi/silent/" + DOCS[i], DOCS[i + 1]);
                site.write("html/ssi/plain/" + DOCS[i], DOCS[i + 1]);
                site.write("html/ssi/lm/" + DOCS[i], DOCS[i + 1]);
                site.write("html/ssi/short/" + DOCS[i], DOCS[i + 1]);
                site.write("html/off/" + DOCS[i], DOCS[i + 1]);
            }
            site.write("html/ssi/large.html", large());
            NginxDifferentialIT.compare(site, HTTP, cases(), SsiDifferentialIT::normalize, Map.of(),
                "ssi-differential.txt");
        }
    }

    private static final Pattern VERSION = Pattern.compile("(?:nginx|jinx)/[0-9][0-9A-Za-z.\\-]*");
    private static final Pattern MASKED = Pattern.compile("(?m)^(Date|Server|Last-Modified|Expires): .*$");
    private static final Pattern ETAG = Pattern.compile("(?m)^ETag: (W/)?\".*\"$");

    /** Each response's head with times masked, and its body un-chunked, the server's name rewritten. */
    static String normalize(String raw, Case c) {
        List<Response> responses = Responses.split(raw, c.head(), true);
        if (responses.isEmpty()) {
            return "incomplete: " + raw;
        }
        StringBuilder sb = new StringBuilder();
        for (Response r : responses) {
            String head = MASKED.matcher(r.headerText()).replaceAll("$1: X");
            head = ETAG.matcher(head).replaceAll("ETag: $1X");
            sb.append(head).append(VERSION.matcher(r.content()).replaceAll("jinx/V").replace("nginx", "jinx"));
        }
        return sb.toString();
    }
}
