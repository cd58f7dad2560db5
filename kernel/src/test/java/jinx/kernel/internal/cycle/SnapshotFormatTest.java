package jinx.kernel.internal.cycle;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.os.Files;
import jinx.kernel.os.Platform;
import jinx.kernel.os.Syscalls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link ConfSnapshot}'s binary format ({@link SnapshotCodec}): every part survives a round trip, bytes that are
 * not text and names that are not ASCII included; damaged, truncated and other-version input is refused; and the
 * descriptor helpers write into a file descriptor and read back from one whatever its offset (a temporary file,
 * and a memfd when {@code jinx.kernel.os.Files.memfdCreate} exists).
 */
class SnapshotFormatTest {

    @TempDir
    Path tmp;

    private static ConfSnapshot sample() {
        BitSet mask = new BitSet();
        mask.set(1);
        mask.set(130);
        byte[] binary = new byte[256];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) i;
        }
        return new ConfSnapshot(Versions.JINX, Path.of("/srv/jinx"), Path.of("/srv/jinx/conf/jinx.conf"),
            "pid x.pid; worker_processes 2;", "logs/e.log",
            List.of(new KernelCycle.ConfFile(Path.of("/srv/jinx/conf/jinx.conf"), "env A;\n".getBytes()),
                new KernelCycle.ConfFile(Path.of("/srv/jinx/conf/été.types"), binary),
                new KernelCycle.ConfFile(Path.of("/srv/jinx/conf/empty.conf"), new byte[0])),
            List.of(new ConfSnapshot.Glob(Path.of("/srv/jinx/conf/*.types"), List.of(Path.of("/srv/jinx/conf/été.types"))),
                new ConfSnapshot.Glob(Path.of("/srv/jinx/conf/none/*"), List.of())),
            List.of(new ConfSnapshot.ModuleJar(Path.of("/srv/jinx/modules/echo.jar"),
                Path.of("/srv/jinx/cache/modules/ab12.jar"), "ab12")),
            List.of(new ConfSnapshot.ListenSocket("127.0.0.1:0", "127.0.0.1:40001", false, -1),
                new ConfSnapshot.ListenSocket("[::1]:8080", "[::1]:8080", true, 3),
                new ConfSnapshot.ListenSocket("unix:/run/j.sock", "unix:/run/j.sock", false, -1)),
            new ConfSnapshot.Resolved(12, "www", "staff", 33, 50, List.of(mask, new BitSet())));
    }

    private static byte[] bytes(ConfSnapshot s) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        s.write(out);
        return out.toByteArray();
    }

    private static ConfSnapshot read(byte[] b) throws IOException {
        return ConfSnapshot.read(new ByteArrayInputStream(b));
    }

    /** Records compare arrays by identity: the files are compared by content here. */
    private static void assertSame(ConfSnapshot expected, ConfSnapshot actual) {
        assertEquals(expected.files().size(), actual.files().size());
        for (int i = 0; i < expected.files().size(); i++) {
            assertEquals(expected.files().get(i).path(), actual.files().get(i).path());
            assertArrayEquals(expected.files().get(i).content(), actual.files().get(i).content());
        }
        assertEquals(expected.jinxVersion(), actual.jinxVersion());
        assertEquals(expected.prefix(), actual.prefix());
        assertEquals(expected.confFile(), actual.confFile());
        assertEquals(expected.params(), actual.params());
        assertEquals(expected.errorLog(), actual.errorLog());
        assertEquals(expected.globs(), actual.globs());
        assertEquals(expected.jars(), actual.jars());
        assertEquals(expected.listening(), actual.listening());
        assertEquals(expected.resolved(), actual.resolved());
    }

    @Test
    @Timeout(10)
    void everyPartSurvivesARoundTrip() throws Exception {
        ConfSnapshot s = sample();
        assertSame(s, read(bytes(s)));
        assertArrayEquals(bytes(s), bytes(read(bytes(s))), "the format is deterministic");
    }

    @Test
    @Timeout(10)
    void absentPartsStayAbsent() throws Exception {
        ConfSnapshot s = new ConfSnapshot(Versions.JINX, Path.of("/p"), Path.of("/p/conf/jinx.conf"), null, null,
            List.of(), List.of(), List.of(), List.of(), null);
        ConfSnapshot back = read(bytes(s));
        assertSame(s, back);
        assertNull(back.params());
        assertNull(back.errorLog());
        assertNull(back.resolved());
    }

    @Test
    @Timeout(10)
    void startsWithItsMagicAndVersion() throws Exception {
        ByteBuffer b = ByteBuffer.wrap(bytes(sample()));
        assertEquals(SnapshotCodec.MAGIC, b.getInt());
        assertEquals(SnapshotCodec.VERSION, b.getInt());
    }

    @Test
    @Timeout(10)
    void damagedInputIsRefused() throws Exception {
        byte[] good = bytes(sample());

        byte[] other = good.clone();
        other[0] = 'X';
        assertEquals("not a configuration snapshot", assertThrows(IOException.class, () -> read(other)).getMessage());

        byte[] newer = good.clone();
        ByteBuffer.wrap(newer).putInt(4, SnapshotCodec.VERSION + 1);
        assertEquals("configuration snapshot format " + (SnapshotCodec.VERSION + 1) + ", expected "
            + SnapshotCodec.VERSION, assertThrows(IOException.class, () -> read(newer)).getMessage());

        for (int cut : new int[] {0, 3, 8, 20, good.length / 2, good.length - 4, good.length - 1}) {
            byte[] truncated = Arrays.copyOf(good, cut);
            assertEquals("truncated configuration snapshot",
                assertThrows(IOException.class, () -> read(truncated)).getMessage(), "cut at " + cut);
        }

        byte[] noEnd = good.clone();
        noEnd[noEnd.length - 1] ^= 1;
        assertEquals("damaged configuration snapshot: no end mark",
            assertThrows(IOException.class, () -> read(noEnd)).getMessage());

        ByteArrayOutputStream hugeCount = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(hugeCount);
        out.writeInt(SnapshotCodec.MAGIC);
        out.writeInt(SnapshotCodec.VERSION);
        for (String s : new String[] {"v", "/p", "/p/c"}) {
            out.writeInt(s.length());
            out.writeBytes(s);
        }
        out.writeInt(-1);
        out.writeInt(-1);
        out.writeInt(Integer.MAX_VALUE);
        assertEquals("damaged configuration snapshot: " + Integer.MAX_VALUE + " entries",
            assertThrows(IOException.class, () -> read(hugeCount.toByteArray())).getMessage());
    }

    @Test
    @Timeout(10)
    @EnabledOnOs(OS.LINUX)
    void writesIntoADescriptorAndReadsItBackWhateverItsOffset() throws Exception {
        Path file = tmp.resolve("snapshot");
        int fd = Files.open(file.toString(), Platform.O_RDWR | Platform.O_CREAT | Platform.O_CLOEXEC, 0600);
        try {
            ConfSnapshot s = sample();
            s.writeTo(fd);
            assertSame(s, ConfSnapshot.readFrom(fd));
            assertSame(s, ConfSnapshot.readFrom(fd));
            assertArrayEquals(bytes(s), java.nio.file.Files.readAllBytes(file));

            // written again, shorter: the file holds the new snapshot only
            ConfSnapshot small = new ConfSnapshot(Versions.JINX, Path.of("/p"), Path.of("/p/c"), null, null,
                List.of(), List.of(), List.of(), List.of(), null);
            small.writeTo(fd);
            assertSame(small, ConfSnapshot.readFrom(fd));
        } finally {
            Syscalls.close(fd);
        }
        assertThrows(IllegalArgumentException.class, () -> ConfSnapshot.readFrom(-1));
    }

    @Test
    @Timeout(10)
    @EnabledOnOs(OS.LINUX)
    void writesIntoAMemfd() throws Exception {
        Method memfd;
        try {
            memfd = Files.class.getMethod("memfdCreate", String.class, int.class);
        } catch (NoSuchMethodException e) {
            memfd = null;
        }
        assumeTrue(memfd != null, "jinx.kernel.os.Files.memfdCreate is not there yet");
        int fd = (int) memfd.invoke(null, "jinx-snapshot", 0);
        try {
            ConfSnapshot s = sample();
            s.writeTo(fd);
            assertSame(s, ConfSnapshot.readFrom(fd));
        } finally {
            Syscalls.close(fd);
        }
    }
}
