package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ConfException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code load_module} half of the snapshot that runs on the class path: {@link ModuleCache} copies a jar or a
 * directory of jars once under its hash and reuses the copy; the master's source ({@link SnapshotRecorder}) loads
 * and records the copy; a worker's source ({@link SnapshotReplay}) hands out the recorded copy whatever happened to
 * the jar on disk, and refuses a copy whose content changed. The load through the cache itself needs the module
 * path: {@link AttachModulePathTest}.
 */
class ModuleCacheTest {

    @TempDir
    Path tmp;

    private Path jar(String name, String content) throws IOException {
        Path file = tmp.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.ISO_8859_1);
        return file;
    }

    private static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    private Path prefix() {
        return tmp.resolve("prefix");
    }

    @Test
    @Timeout(10)
    void aJarIsCopiedOnceUnderItsHash() throws Exception {
        Path jar = jar("modules/echo.jar", "version one");
        ModuleCache.Entry first = ModuleCache.store(prefix(), jar);
        String sha = sha256("version one".getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(sha, first.sha256());
        assertEquals(prefix().resolve("cache/modules/" + sha + "/echo.jar"), first.cached());
        assertArrayEquals(Files.readAllBytes(jar), Files.readAllBytes(first.cached()));

        Object inode = Files.getAttribute(first.cached(), "unix:ino");
        ModuleCache.Entry again = ModuleCache.store(prefix(), jar);
        assertEquals(first, again);
        assertEquals(inode, Files.getAttribute(again.cached(), "unix:ino"), "the copy is reused, not made again");

        Files.writeString(jar, "version two");
        ModuleCache.Entry second = ModuleCache.store(prefix(), jar);
        assertNotEquals(first.cached(), second.cached());
        assertEquals("version one", Files.readString(first.cached()), "the old copy stays for the old workers");
        assertEquals("version two", Files.readString(second.cached()));
        try (Stream<Path> list = Files.list(prefix().resolve(ModuleCache.DIR))) {
            assertEquals(2, list.count(), "no temporary file left behind");
        }
    }

    @Test
    @Timeout(10)
    void aDamagedCopyIsMadeAgain() throws Exception {
        Path jar = jar("modules/echo.jar", "good");
        ModuleCache.Entry entry = ModuleCache.store(prefix(), jar);
        Files.writeString(entry.cached(), "bad");
        assertNotEquals(entry.sha256(), ModuleCache.digest(entry.cached()));
        assertEquals(entry, ModuleCache.store(prefix(), jar));
        assertEquals("good", Files.readString(entry.cached()));
    }

    @Test
    @Timeout(10)
    void aDirectoryOfJarsIsCopiedAsADirectory() throws Exception {
        Path dir = tmp.resolve("modules/echo");
        jar("modules/echo/echo.jar", "echo");
        jar("modules/echo/dep.jar", "dep");
        jar("modules/echo/README", "not a jar");
        ModuleCache.Entry entry = ModuleCache.store(prefix(), dir);
        assertEquals(prefix().resolve("cache/modules/" + entry.sha256()), entry.cached());
        try (Stream<Path> list = Files.list(entry.cached())) {
            assertEquals(List.of("dep.jar", "echo.jar"), list.map(p -> p.getFileName().toString()).sorted().toList());
        }
        assertEquals("dep", Files.readString(entry.cached().resolve("dep.jar")));
        assertEquals(entry.sha256(), ModuleCache.digest(entry.cached()));
        assertEquals(entry.sha256(), ModuleCache.digest(dir), "the hash of what the directory loads");
        assertEquals(entry, ModuleCache.store(prefix(), dir));

        Files.writeString(dir.resolve("dep.jar"), "dep 2");
        ModuleCache.Entry changed = ModuleCache.store(prefix(), dir);
        assertNotEquals(entry.sha256(), changed.sha256());
        assertEquals("dep", Files.readString(entry.cached().resolve("dep.jar")));

        // a renamed jar is another directory
        Files.move(dir.resolve("dep.jar"), dir.resolve("dep2.jar"));
        assertNotEquals(changed.sha256(), ModuleCache.store(prefix(), dir).sha256());
    }

    @Test
    @Timeout(10)
    void theMasterLoadsTheCopyAndTheWorkerGetsTheSameCopy() throws Exception {
        Path jar = jar("modules/echo.jar", "version one");
        SnapshotRecorder master = new SnapshotRecorder(prefix());
        Path loaded = master.moduleJar(jar);
        assertTrue(loaded.startsWith(prefix().resolve(ModuleCache.DIR)), loaded.toString());
        ConfSnapshot.ModuleJar recorded = new ConfSnapshot.ModuleJar(jar, loaded,
            sha256("version one".getBytes(StandardCharsets.ISO_8859_1)));

        Path missing = tmp.resolve("modules/none.jar");
        assertSame(missing, master.moduleJar(missing), "the loader reports a missing jar in nginx's words");

        // the jar is replaced on disk after the master sealed its snapshot
        Files.writeString(jar, "version two, with other code");
        ConfSnapshot s = new ConfSnapshot(Versions.JINX, prefix(), prefix().resolve("conf/jinx.conf"), null, null,
            List.of(), List.of(), List.of(recorded), List.of(), null);
        SnapshotReplay worker = new SnapshotReplay(s);
        Path got = worker.moduleJar(jar);
        assertEquals(loaded, got);
        assertEquals("version one", Files.readString(got));
        worker.checkUsed();

        // a copy changed in the cache is refused, not loaded
        Files.writeString(loaded, "tampered");
        ConfException e = assertThrows(ConfException.class, () -> new SnapshotReplay(s).moduleJar(jar));
        assertEquals("load_module \"" + jar + "\" failed (cached copy \"" + loaded + "\" changed: sha256 "
            + sha256("tampered".getBytes(StandardCharsets.ISO_8859_1)) + " instead of " + recorded.sha256() + ")",
            e.getMessage());

        Files.delete(loaded);
        e = assertThrows(ConfException.class, () -> new SnapshotReplay(s).moduleJar(jar));
        assertEquals("load_module \"" + jar + "\" failed (cached copy \"" + loaded
            + "\": 2: No such file or directory)", e.getMessage());

        e = assertThrows(ConfException.class, () -> new SnapshotReplay(s).moduleJar(missing));
        assertEquals("configuration snapshot mismatch: module \"" + missing + "\" is not the next one it holds",
            e.getMessage());

        e = assertThrows(ConfException.class, () -> new SnapshotReplay(s).checkUsed());
        assertEquals("configuration snapshot mismatch: 0 files, 0 patterns and 1 modules in it were not used",
            e.getMessage());
    }

    @Test
    @Timeout(10)
    void aCacheThatCannotBeWrittenFailsTheLoad() throws Exception {
        Path jar = jar("modules/echo.jar", "x");
        // the cache's directory is a file: nothing can be stored under it
        jar("prefix/cache/modules", "in the way");
        ConfException e = assertThrows(ConfException.class, () -> new SnapshotRecorder(prefix()).moduleJar(jar));
        assertTrue(e.getMessage().startsWith("load_module \"" + jar + "\" failed ("), e.getMessage());
    }
}
