package jinx.http.internal.modules;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.http.internal.request.EngineFixture;

import static jinx.http.internal.modules.StaticModuleTest.get;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The random_index module: every regular file of the directory is picked in time, dot files, directories and
 * links never; an empty directory falls through to {@code index}; a missing one is 404.
 */
class RandomIndexModuleTest {

    @TempDir
    Path root;

    private EngineFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    @Test
    @Timeout(30)
    void picksRegularFilesAtRandom() throws Exception {
        Files.createDirectories(root.resolve("r/sub"));
        Files.createDirectories(root.resolve("empty"));
        Files.writeString(root.resolve("r/a.txt"), "A");
        Files.writeString(root.resolve("r/b.txt"), "B");
        Files.writeString(root.resolve("r/.hidden"), "H");
        Files.createSymbolicLink(root.resolve("r/link"), root.resolve("r/a.txt"));
        Files.writeString(root.resolve("empty/.x"), "X");
        f = EngineFixture.modules("server { listen 127.0.0.1:8080; root " + root + "; location / { random_index on; } "
            + "location /empty/ { random_index on; index nothing; } }");
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200 && seen.size() < 2; i++) {
            seen.add(f.get(get("/r/")).body());
        }
        assertEquals(Set.of("A", "B"), seen);
        assertEquals(403, f.get(get("/empty/")).status());
        assertEquals(404, f.get(get("/missing/")).status());
        assertEquals(405, f.get("DELETE /r/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").status());
    }
}
