package jinx.http.internal.variables;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.kernel.ConfException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoreVariablesTest {

    private Variables vars;
    private FakeRequest r;

    @BeforeEach
    void request() throws ConfException {
        vars = new Variables();
        CoreVariables.register(vars::add, "0.1.0");
        r = new FakeRequest(vars);
    }

    private String v(String name) {
        try {
            int i = vars.index(name);
            vars.check();
            return vars.evaluate(r, i, null);
        } catch (ConfException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @Timeout(5)
    void requestLineVariables() {
        assertEquals("GET /index.html?a=1&b=two HTTP/1.1", v("request"));
        assertEquals("GET", v("request_method"));
        assertEquals("/index.html?a=1&b=two", v("request_uri"));
        assertEquals("/index.html", v("uri"));
        assertEquals("/index.html", v("document_uri"));
        assertEquals("HTTP/1.1", v("server_protocol"));
        assertEquals("120", v("request_length"));
        r.httpProtocol = "";
        assertNull(v("server_protocol"), "HTTP/0.9 has no protocol");
    }

    @Test
    @Timeout(5)
    void argumentVariables() {
        assertEquals("a=1&b=two", v("args"));
        assertEquals("a=1&b=two", v("query_string"));
        assertEquals("?", v("is_args"));
        assertEquals("1", v("arg_a"));
        assertEquals("two", v("arg_B"));
        assertNull(v("arg_c"));
        r.args = "x&y=";
        assertNull(v("arg_x"), "a name without = is no argument");
        assertEquals("", v("arg_y"));
    }

    @Test
    @Timeout(5)
    void noQuestionMarkMeansNoArguments() {
        r.args = "";
        r.unparsedUri = "/index.html";
        assertNull(v("args"));
        assertEquals("", v("is_args"));
        r.unparsedUri = "/index.html?";
        assertEquals("", v("args"));
        assertEquals("", v("is_args"));
    }

    @Test
    @Timeout(5)
    void uriIsNotCachedAcrossARedirect() throws ConfException {
        int i = vars.index("uri");
        vars.check();
        String[] cache = vars.newCache();
        assertEquals("/index.html", vars.evaluate(r, i, cache));
        r.uri = "/other.html";
        assertEquals("/other.html", vars.evaluate(r, i, cache));
    }

    @Test
    @Timeout(5)
    void addressVariables() {
        assertEquals("192.0.2.7", v("remote_addr"));
        assertEquals("50123", v("remote_port"));
        assertEquals("127.0.0.1", v("server_addr"));
        assertEquals("8080", v("server_port"));
        assertEquals("\u00c0\u0000\u0002\u0007", v("binary_remote_addr"));
        r.remoteAddr = "::1";
        assertEquals("\u0000".repeat(15) + "\u0001", v("binary_remote_addr"));
        r.remoteAddr = "unix:";
        r.remotePort = 0;
        assertEquals("unix:", v("binary_remote_addr"));
        assertEquals("", v("remote_port"));
    }

    @Test
    @Timeout(5)
    void serverVariables() {
        assertEquals("example.org", v("server_name"));
        assertEquals("example.org", v("host"), "no Host: the server's name");
        r.headersIn.server = "www.example.com";
        assertEquals("www.example.com", v("host"));
        assertEquals("http", v("scheme"));
        assertEquals("", v("https"));
        r.ssl = true;
        assertEquals("https", v("scheme"));
        assertEquals("on", v("https"));
    }

    @Test
    @Timeout(5)
    void connectionVariables() {
        assertEquals("3", v("connection"));
        assertEquals("2", v("connection_requests"));
        assertEquals("850", v("bytes_sent"));
        assertEquals("612", v("body_bytes_sent"));
        r.bodyBytesSent = -5;
        assertEquals("0", v("body_bytes_sent"));
        assertEquals(".", v("pipe"));
        r.pipelined = true;
        assertEquals("p", v("pipe"));
        assertEquals("0", v("limit_rate"));
        r.limitRate = 2048;
        assertEquals("2048", v("limit_rate"));
    }

    @Test
    @Timeout(5)
    void statusVariable() {
        assertEquals("000", v("status"));
        r.headersOut.status = 200;
        assertEquals("200", v("status"));
        r.errStatus = 404;
        assertEquals("404", v("status"), "the error_page's original status");
        r.errStatus = 0;
        r.headersOut.status = 0;
        r.httpVersion = HttpRequest.VERSION_9;
        assertEquals("009", v("status"));
    }

    @Test
    @Timeout(5)
    void timeVariables() {
        assertEquals("1700000000.123", v("msec"));
        assertEquals("1.500", v("request_time"));
        r.startMsec = r.wallMillis + 10;
        assertEquals("0.000", v("request_time"), "never negative");
        TimeFormats t = new TimeFormats();
        assertEquals(t.local(r.wallMillis), v("time_local"));
        assertEquals(t.iso8601(r.wallMillis), v("time_iso8601"));
        assertTrue(v("time_local").matches("\\d\\d/Nov/2023:\\d\\d:\\d\\d:20 [+-]\\d{4}"), v("time_local"));
        assertTrue(v("time_iso8601").matches("2023-11-1[45]T\\d\\d:\\d\\d:20[+-]\\d\\d:\\d\\d"), v("time_iso8601"));
    }

    @Test
    @Timeout(5)
    void processVariables() {
        assertEquals("0.1.0", v("jinx_version"));
        assertEquals("0.1.0", v("nginx_version"));
        assertEquals(Long.toString(ProcessHandle.current().pid()), v("pid"));
        String host = v("hostname");
        assertFalse(host.isEmpty());
        assertEquals(host.toLowerCase(java.util.Locale.ROOT), host);
    }

    @Test
    @Timeout(5)
    void fileVariables(@TempDir Path dir) throws IOException {
        Path real = Files.createDirectory(dir.resolve("real"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), real);
        r.documentRoot = link.toString();
        assertEquals(link.toString(), v("document_root"));
        assertEquals(real.toRealPath().toString(), v("realpath_root"));
        assertEquals(link + "/index.html", v("request_filename"));
        r.documentRoot = dir.resolve("gone").toString();
        assertNull(v("realpath_root"));
        assertTrue(r.errors().contains("[crit]"), r.errors());
        assertTrue(r.errors().contains("realpath() \"" + dir.resolve("gone") + "\" failed (2: No such file or "
            + "directory)"), r.errors());
    }

    @Test
    @Timeout(5)
    void bodyVariables() {
        assertNull(v("request_body"));
        r.requestBody = "x=1&y=2";
        assertEquals("x=1&y=2", v("request_body"));
        assertNull(v("content_length"));
        assertNull(v("content_type"));
        r.headersIn.contentLength = r.headersIn.headers.add("Content-Length", "0042");
        r.headersIn.contentType = r.headersIn.headers.add("Content-Type", "application/json");
        assertEquals("0042", v("content_length"), "as sent");
        assertEquals("application/json", v("content_type"));
        r.headersIn.contentLength = null;
        r.headersIn.contentLengthN = 7;
        assertEquals("7", v("content_length"));
    }

    @Test
    @Timeout(5)
    void requestHeaderVariables() {
        r.headersIn.userAgent = r.headersIn.headers.add("User-Agent", "curl/8.5.0");
        r.headersIn.headers.add("X-Forwarded-For", "10.0.0.1");
        r.headersIn.headers.add("x-forwarded-for", "10.0.0.2");
        r.headersIn.headers.add("My_Header", "underscore");
        HttpHeaders.Entry gone = r.headersIn.headers.add("X-Gone", "x");
        gone.removed = true;
        assertEquals("curl/8.5.0", v("http_user_agent"));
        assertEquals("curl/8.5.0", v("HTTP_USER_AGENT"));
        assertEquals("10.0.0.1, 10.0.0.2", v("http_x_forwarded_for"));
        assertEquals("underscore", v("http_my_header"));
        assertNull(v("http_x_gone"));
        assertNull(v("http_referer"));
    }

    @Test
    @Timeout(5)
    void cookieVariables() {
        assertNull(v("http_cookie"));
        assertNull(v("cookie_sid"));
        r.headersIn.cookie = r.headersIn.headers.add("Cookie", "a=b; SID = xyz; c=d");
        r.headersIn.headers.add("Cookie", "late=1");
        assertEquals("a=b; SID = xyz; c=d; late=1", v("http_cookie"));
        assertEquals("xyz", v("cookie_sid"), "names ignore case, spaces around = are skipped");
        assertEquals("1", v("cookie_late"));
        assertEquals("b", v("cookie_a"));
        assertNull(v("cookie_nosuch"));
    }

    @Test
    @Timeout(5)
    void remoteUserComesFromBasicAuthorization() {
        assertNull(v("remote_user"));
        r.headersIn.authorization = r.headersIn.headers.add("Authorization", "Basic dXNlcjpwYXNz");
        assertEquals("user", v("remote_user"));
        r.headersIn.authorization.value = "basic   YWxpY2U6";
        assertEquals("alice", v("remote_user"), "case-insensitive scheme, spaces, empty password");
        r.headersIn.authorization.value = "Basic OnBhc3M=";
        assertNull(v("remote_user"), "an empty user is none");
        r.headersIn.authorization.value = "Basic bm9jb2xvbg==";
        assertNull(v("remote_user"), "no colon");
        r.headersIn.authorization.value = "Bearer abc";
        assertNull(v("remote_user"));
        r.headersIn.authorization.value = "Basic !!!";
        assertNull(v("remote_user"));
    }

    @Test
    @Timeout(5)
    void responseHeaderVariables() {
        assertNull(v("sent_http_content_type"));
        r.headersOut.contentType = "text/html";
        assertEquals("text/html", v("sent_http_content_type"));
        r.headersOut.charset = "utf-8";
        assertEquals("text/html; charset=utf-8", v("sent_http_content_type"));
        assertNull(v("sent_http_content_length"));
        r.headersOut.contentLengthN = 612;
        assertEquals("612", v("sent_http_content_length"));
        assertNull(v("sent_http_last_modified"));
        r.headersOut.lastModifiedTime = 0;
        assertEquals("Thu, 01 Jan 1970 00:00:00 GMT", v("sent_http_last_modified"));
        r.headersOut.location = new HttpHeaders().add("Location", "http://example.org/");
        assertEquals("http://example.org/", v("sent_http_location"));
        r.headersOut.etag = new HttpHeaders().add("ETag", "\"5e-1\"");
        assertEquals("\"5e-1\"", v("sent_http_etag"));
        r.headersOut.headers.add("X-Custom-Header", "yes");
        assertEquals("yes", v("sent_http_x_custom_header"));
        assertNull(v("sent_http_x_nosuch"));
    }

    @Test
    @Timeout(5)
    void connectionHeaderVariables() {
        assertEquals("close", v("sent_http_connection"));
        assertNull(v("sent_http_keep_alive"));
        r.keepalive = true;
        assertEquals("keep-alive", v("sent_http_connection"));
        assertNull(v("sent_http_keep_alive"), "no header time");
        r.keepaliveHeader = 75;
        assertEquals("timeout=75", v("sent_http_keep_alive"));
        r.headersOut.status = 101;
        assertEquals("upgrade", v("sent_http_connection"));
        assertNull(v("sent_http_transfer_encoding"));
        r.chunked = true;
        assertEquals("chunked", v("sent_http_transfer_encoding"));
    }
}
