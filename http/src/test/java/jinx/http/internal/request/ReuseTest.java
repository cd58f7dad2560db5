package jinx.http.internal.request;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Request objects are reused by the loop ({@link BufferPool#request}): a reused request must be exactly what a new
 * one is. Every field, of {@link CoreRequest}, {@link HttpRequest} and the objects they own, is compared by
 * reflection with a new request's, so a field added later without its reset fails here.
 */
class ReuseTest {

    private static final String SERVER = "server {\n listen 127.0.0.1:8080;\n server_name localhost;\n"
        + " location / { return 200 \"ok $arg_a $http_x_test $cookie_c\\n\"; }\n"
        + " location /file { root html; }\n"
        + " location ~ ^/re/(?<name>.+)$ { return 200 \"$name\\n\"; }\n}\n";

    /** Fields that differ by design: the time, and what reuse keeps (the write filter's state, an empty list). */
    private static final Set<String> SKIPPED = Set.of("startMsec", "writeState", "spareCleanups");

    private EngineFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    @Test
    @Timeout(30)
    void aReusedRequestIsANewRequest() throws Exception {
        f = EngineFixture.socketless("sendfile on;\n" + SERVER);
        java.nio.file.Files.writeString(f.prefix().resolve("html/file"), "0123456789");
        try (LocalConnection lc = f.connect()) {
            String raw = f.exchange(lc, "GET /?a=1 HTTP/1.1\r\nHost: localhost\r\nX-Test: t\r\nCookie: c=2\r\n"
                + "User-Agent: Mozilla/4.0 (compatible; MSIE 6.0)\r\n\r\n"
                + "GET /re/x HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: \"x\"\r\n\r\n"
                + "GET /file HTTP/1.1\r\nHost: localhost\r\nRange: bytes=1-2\r\n"
                + "If-Modified-Since: Thu, 01 Jan 1970 00:00:00 GMT\r\n\r\n"
                + "GET /file HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", 4);
            assertEquals(4, Responses.split(raw).size(), raw);
            HttpConnection hc = HttpConnection.of(lc.server());
            assertTrue(hc.pool.spareRequests() > 0, "a served request waits for reuse");
            CoreRequest reused = hc.pool.request(hc);
            CoreRequest fresh = new CoreRequest(hc);
            assertNotSame(fresh, reused);
            assertSameState("request", fresh, reused, new IdentityHashMap<>());
            hc.pool.recycle(reused);
        }
    }

    /** Compares two objects of the request's own graph field by field; other objects by identity or equality. */
    private static void assertSameState(String path, Object fresh, Object reused, Map<Object, Object> seen)
            throws IllegalAccessException {
        if (fresh == null || reused == null) {
            assertSame(fresh, reused, path);
            return;
        }
        assertEquals(fresh.getClass(), reused.getClass(), path);
        if (seen.put(fresh, reused) != null) {
            return;
        }
        Class<?> type = fresh.getClass();
        if (type.isArray()) {
            if (path.endsWith("lowcaseHeader") || path.endsWith("captures.offsets")) {
                // scratch: the parser's lower-cased name and the capture offsets are written before they are read
                // (offsets only below the capture count, which is compared), and may have grown
                return;
            }
            int n = java.lang.reflect.Array.getLength(fresh);
            assertEquals(n, java.lang.reflect.Array.getLength(reused), path + ".length");
            for (int i = 0; i < n; i++) {
                Object a = java.lang.reflect.Array.get(fresh, i);
                Object b = java.lang.reflect.Array.get(reused, i);
                if (type.getComponentType().isPrimitive()) {
                    assertEquals(a, b, path + "[" + i + "]");
                } else {
                    assertSame(a, b, path + "[" + i + "]");
                }
            }
            return;
        }
        for (Field field : fields(type)) {
            if (SKIPPED.contains(field.getName())) {
                continue;
            }
            field.setAccessible(true);
            Object a = field.get(fresh);
            Object b = field.get(reused);
            String at = path + "." + field.getName();
            if (field.getType().isPrimitive() || a instanceof String || b instanceof String) {
                assertEquals(a, b, at);
            } else if (a instanceof HttpHeaders ha && b instanceof HttpHeaders hb) {
                assertEquals(ha.entries().size(), hb.entries().size(), at + " entries");
            } else if (owned(a) || owned(b)) {
                assertSameState(at, a, b, seen);
            } else if (a instanceof Object[] || b instanceof Object[]) {
                assertSameState(at, a, b, seen);
            } else {
                assertSame(a, b, at);
            }
        }
    }

    /** Objects a request owns: its own state, compared field by field. */
    private static boolean owned(Object o) {
        if (o == null) {
            return false;
        }
        String name = o.getClass().getName();
        return name.startsWith("jinx.http.") && !name.contains("Lambda") && !(o instanceof HttpConnection)
            && !name.contains("Conf") || o.getClass().isArray() && o.getClass().getComponentType().isPrimitive();
    }

    private static List<Field> fields(Class<?> type) {
        List<Field> all = new ArrayList<>();
        for (Class<?> t = type; t != null && t != Object.class; t = t.getSuperclass()) {
            for (Field field : t.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers())) {
                    all.add(field);
                }
            }
        }
        return all;
    }
}
