package jinx.contrib.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import jinx.testkit.JinxClient;
import jinx.testkit.JinxExtension;
import jinx.testkit.Response;

/**
 * The {@code hello} module through the test kit: a real server on a free port of 127.0.0.1, in this JVM.
 */
@Timeout(30)
class HelloModuleTest {

    @RegisterExtension
    static final JinxExtension JINX = JinxExtension.create()
        .module(HelloModule::new)
        .http("hello_repeat 2;")
        .server("location = /hello { hello; }\n"
            + "location = /once { hello \"Hi $arg_name\"; hello_repeat 1; }\n"
            + "location = /count { hello \"count $hello_count\"; hello_repeat 1; }\n"
            + "location / { return 200 \"not hello\\n\"; }");

    @Test
    void greetsWithTheInheritedRepeat() throws Exception {
        Response r = JINX.client().get("/hello");
        assertEquals(200, r.status(), r.head());
        assertEquals("text/plain", r.header("Content-Type"));
        assertEquals("Hello, world\nHello, world\n", r.body());
        assertEquals("26", r.header("Content-Length"));
    }

    @Test
    void textWithVariablesAndOwnRepeat() throws Exception {
        assertEquals("Hi jinx\n", JINX.client().get("/once?name=jinx").body());
    }

    @Test
    void otherLocationsAreNotAnswered() throws Exception {
        assertEquals("not hello\n", JINX.client().get("/other").body());
    }

    @Test
    void variableCountsGreetings() throws Exception {
        String first = JINX.client().get("/count").body();
        String second = JINX.client().get("/count").body();
        long a = Long.parseLong(first.trim().substring("count ".length()));
        long b = Long.parseLong(second.trim().substring("count ".length()));
        assertEquals(a + 1, b, first + second);
    }

    @Test
    void headHasNoBodyAndPostIsRefused() throws Exception {
        try (JinxClient.Session s = JINX.client().open()) {
            s.send("HEAD /hello HTTP/1.1\r\nHost: localhost\r\n\r\n");
            String raw = s.readAll();
            assertTrue(raw.startsWith("HTTP/1.1 200 OK\r\n"), raw);
            assertTrue(raw.endsWith("\r\n\r\n"), raw);
        }
        Response post = JINX.client().request("POST /hello HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n"
            + "Connection: close\r\n\r\n");
        assertEquals(405, post.status());
    }

    @Test
    void keepAliveServesSeveralGreetings() throws Exception {
        try (JinxClient.Session s = JINX.client().open()) {
            s.send("GET /once?name=a HTTP/1.1\r\nHost: localhost\r\n\r\nGET /once?name=b HTTP/1.1\r\n"
                + "Host: localhost\r\n\r\n");
            List<Response> rs = s.responses(2);
            assertEquals(2, rs.size(), s.received());
            assertEquals("Hi a\n", rs.get(0).body());
            assertEquals("Hi b\n", rs.get(1).body());
        }
    }

    @Test
    void badRepeatIsAConfigurationError() throws Exception {
        JinxExtension.create().module(HelloModule::new)
            .assertConfError("hello_repeat 0;", "invalid value \"0\" in \"hello_repeat\" directive");
    }

    @Test
    void helloOutsideALocationIsNotAllowed() throws Exception {
        JinxExtension.create().module(HelloModule::new)
            .assertConfError("hello;", "\"hello\" directive is not allowed here");
    }

    @Test
    void eachGreetingIsInTheAccessLog() throws Exception {
        JINX.client().get("/once?name=log");
        String line = JINX.accessLog().await("\"GET /once?name=log HTTP/1.1\"");
        assertTrue(line.contains("\"GET /once?name=log HTTP/1.1\" 200 7 "), line);
    }
}
