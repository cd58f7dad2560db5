package jinx.http.it;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.it.NginxDifferentialIT.Case;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code empty_gif} and the core variables {@code $request_id}, {@code $connection_time} and
 * {@code $request_completion} beside Debian's nginx: the GIF byte for byte with its headers for GET and HEAD, 405
 * for POST; the variables' shapes (32 hexadecimal digits, seconds with three decimals, empty before the response
 * is complete), their values masked since they cannot be equal.
 */
@Tag("slow")
class MiscModulesDifferentialIT {

    static final String HTTP = """
        default_type text/plain;
        server {
            listen 127.0.0.1:%PORT%;
            server_name localhost;
            location = /gif { empty_gif; }
            location = /vars {
                add_header X-Id $request_id;
                add_header X-Same "$request_id" ;
                add_header X-Time $connection_time;
                add_header X-Done "[$request_completion]";
                empty_gif;
            }
        }
        """;

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        String h = " HTTP/1.1\r\nHost: localhost\r\n\r\n";
        cases.add(Case.get("empty_gif", "GET /gif" + h));
        cases.add(new Case("empty_gif HEAD", "HEAD /gif" + h, 1, true));
        cases.add(Case.get("empty_gif POST", "POST /gif HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\n\r\nx"));
        cases.add(Case.get("empty_gif with arguments", "GET /gif?x=1" + h));
        cases.add(Case.get("variables", "GET /vars" + h));
        return cases;
    }

    @Test
    @Timeout(120)
    void asNginx() throws Exception {
        assumeTrue(NginxServer.installed(), "nginx is not installed (.ci/run installs it)");
        try (Site site = Site.create()) {
            NginxDifferentialIT.compare(site, HTTP, cases(), MiscModulesDifferentialIT::normalize, Map.of(),
                "misc-differential.txt");
        }
    }

    /** nginx's normalization, then the random id (the same twice in a request) and the time's digits masked. */
    static String normalize(String raw, Case c) throws IOException {
        String text = NginxDifferentialIT.normalize(raw, c);
        java.util.regex.Matcher id = java.util.regex.Pattern.compile("X-Id: ([0-9a-f]{32})\r\n").matcher(text);
        if (id.find()) {
            text = text.replace(id.group(1), "ID");
        }
        return text.replaceAll("X-Time: \\d+\\.\\d{3}\r\n", "X-Time: S.MMM\r\n");
    }
}
