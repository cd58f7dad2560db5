package jinx.contrib.echo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import jinx.kernel.ConfException;
import jinx.testkit.JinxClient;
import jinx.testkit.JinxExtension;
import jinx.testkit.Response;

/**
 * The echo module through the test kit, over sockets: the directives' output as echo-nginx-module documents it,
 * {@code echo_sleep} on a timer while the same worker serves others, {@code echo_exec} redirects.
 */
@Timeout(60)
class EchoModuleTest {

    @RegisterExtension
    static final JinxExtension JINX = JinxExtension.create()
        .module(EchoModule::new)
        .server("location = /hello { echo hello world; }\n"
            + "location = /parts { echo -n \"hello, \"; echo \"world!\"; }\n"
            + "location = /dash { echo -- -n is text; }\n"
            + "location = /empty { echo; }\n"
            + "location = /vars { echo \"uri=$uri arg=$arg_x\"; }\n"
            + "location = /dup { echo_duplicate 3 \"--\"; echo_duplicate 1 \" END \";\n"
            + "                  echo_duplicate 3 \"--\"; echo; }\n"
            + "location = /dupbad { echo_duplicate $arg_n x; }\n"
            + "location = /sleep { echo hello; echo_flush; echo_sleep 1.5; echo world; }\n"
            + "location = /badsleep { echo_sleep $arg_s; echo never; }\n"
            + "location = /fast { echo fast; }\n"
            + "location = /exec { echo dropped; echo_exec /target?a=1; }\n"
            + "location = /exec2 { echo_exec /target b=2; }\n"
            + "location = /execnamed { echo_exec @named; }\n"
            + "location = /sleepexec { echo_sleep 0.2; echo_exec /target; }\n"
            + "location = /target { echo \"target $uri $args\"; }\n"
            + "location @named { echo \"named $uri\"; }\n"
            + "location /nested { echo outer; location /nested/inner { } }");

    private static String body(String uri) throws Exception {
        Response r = JINX.client().get(uri);
        assertEquals(200, r.status(), r.head());
        return r.content();
    }

    @Test
    void echoJoinsWordsAndEndsWithANewline() throws Exception {
        Response r = JINX.client().get("/hello");
        assertEquals("hello world\n", r.content());
        assertEquals("chunked", r.header("Transfer-Encoding"));
        assertEquals("text/plain", r.header("Content-Type"));
        assertEquals("hello, world!\n", body("/parts"));
        assertEquals("-n is text\n", body("/dash"));
        assertEquals("\n", body("/empty"));
        assertEquals("uri=/vars arg=42\n", body("/vars?x=42"));
    }

    @Test
    void echoDuplicate() throws Exception {
        assertEquals("------ END ------\n", body("/dup"));
        assertEquals("xxxx", body("/dupbad?n=4"));
        assertEquals(500, JINX.client().get("/dupbad?n=-1").status());
        assertTrue(JINX.awaitLog("invalid size specified: \"-1\"").contains("[error]"));
    }

    @Test
    void echoSleepIsATimerAndTheWorkerServesOthersMeanwhile() throws Exception {
        try (JinxClient.Session slow = JINX.client().open()) {
            long start = System.nanoTime();
            slow.send("GET /sleep HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            // the flushed part arrives before the sleep ends
            String raw = slow.readUntil("hello\n");
            assertFalse(raw.contains("world"), raw);
            // the only loop thread is free: another request is answered while /sleep waits
            assertEquals("fast\n", body("/fast"));
            long fastMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            Response r = slow.response();
            long totalMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals("hello\nworld\n", r.content());
            assertTrue(totalMs >= 1400, "slept " + totalMs + " ms");
            assertTrue(fastMs < totalMs, "fast " + fastMs + " ms, slow " + totalMs + " ms");
        }
    }

    @Test
    void aClientThatLeavesDuringTheSleepCostsNothing() throws Exception {
        try (JinxClient.Session s = JINX.client().open()) {
            s.send("GET /sleep HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertTrue(s.readUntil("hello\n").contains("hello\n"), s.received());
        }
        Thread.sleep(2000);
        assertEquals("fast\n", body("/fast"));
        assertFalse(JINX.errorLog().contains("[alert]"), JINX.errorLog());
    }

    @Test
    void badSleepDurationIs400() throws Exception {
        assertEquals(400, JINX.client().get("/badsleep?s=abc").status());
        assertTrue(JINX.awaitLog("invalid sleep duration \"abc\"").contains("[error]"));
        assertEquals("never\n", body("/badsleep?s=0.01"));
    }

    @Test
    void echoExecRedirectsInternally() throws Exception {
        assertEquals("target /target a=1\n", body("/exec"));
        assertEquals("target /target b=2\n", body("/exec2"));
        assertEquals("named /execnamed\n", body("/execnamed"));
        assertEquals("target /target \n", body("/sleepexec"));
    }

    @Test
    void headGetsTheHeaderOnly() throws Exception {
        try (JinxClient.Session s = JINX.client().open()) {
            String raw = s.send("HEAD /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").readAll();
            assertTrue(raw.startsWith("HTTP/1.1 200 OK\r\n"), raw);
            assertTrue(raw.endsWith("\r\n\r\n"), raw);
        }
    }

    @Test
    void nestedLocationsDoNotInheritTheCommands() throws Exception {
        assertEquals("outer\n", body("/nested"));
        assertEquals(404, JINX.client().get("/nested/inner").status());
    }

    @Test
    void echoOutsideALocationIsRefused() throws Exception {
        try (JinxExtension bad = JinxExtension.create().module(EchoModule::new).server("echo hi;")) {
            ConfException e = assertThrows(ConfException.class, bad::start);
            assertTrue(e.getMessage().startsWith("\"echo\" directive is not allowed here in "), e.getMessage());
        }
        try (JinxExtension bad = JinxExtension.create().module(EchoModule::new)
                 .server("location / { echo_sleep; }")) {
            ConfException e = assertThrows(ConfException.class, bad::start);
            assertTrue(e.getMessage().startsWith("invalid number of arguments in \"echo_sleep\" directive in "),
                e.getMessage());
        }
    }
}
