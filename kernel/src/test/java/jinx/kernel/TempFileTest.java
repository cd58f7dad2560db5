package jinx.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TempFile} and {@link TempPath}: nginx's hashed names, the file unlinked at creation unless persistent,
 * chains of direct and heap buffers written at the end with {@code pwrite}/{@code pwritev}, and
 * {@code ngx_add_path()}'s check of levels.
 */
class TempFileTest {

    @TempDir
    Path dir;

    @Test
    void hashedNamesTakeTheLevelsFromTheEndOfTheNumber() {
        assertEquals("/t/3/12/0000000123", new TempPath(Path.of("/t"), new int[] {1, 2}).hashedName("0000000123"));
        assertEquals("/t/0000000123", new TempPath(Path.of("/t"), new int[0]).hashedName("0000000123"));
    }

    @Test
    void writesChainsAtTheEndAndIsUnlinkedAtOnce() throws Exception {
        TempFile f = TempFile.create(new TempPath(dir.resolve("p"), new int[] {1, 2}), false, false);
        try {
            assertTrue(f.name().matches(Pattern.quote(dir.resolve("p").toString()) + "/\\d/\\d\\d/\\d{10}"), f.name());
            assertFalse(Files.exists(Path.of(f.name())), "unlinked at creation");
            Buf a = Buf.of(direct("hello, "));
            Buf heap = Buf.of(ByteBuffer.wrap("temporary ".getBytes(StandardCharsets.ISO_8859_1)));
            Buf flag = new Buf();
            flag.flush = true;
            Buf b = Buf.of(direct("file"));
            BufChain chain = BufChain.of(a);
            chain.next = BufChain.of(heap);
            chain.next.next = BufChain.of(flag);
            chain.next.next.next = BufChain.of(b);
            assertEquals(21, f.write(chain));
            assertEquals(0, a.size() + heap.size() + b.size(), "the buffers are consumed");
            assertEquals(4, f.write(BufChain.of(Buf.of(direct("!end")))));
            assertEquals(25, f.offset());
            String got = Files.readString(Path.of("/proc/self/fd/" + f.fd()), StandardCharsets.ISO_8859_1);
            assertEquals("hello, temporary file!end", got);
        } finally {
            f.close();
        }
        f.close();
    }

    @Test
    void aPersistentCleanFileGoesAtClose() throws Exception {
        TempFile f = TempFile.create(new TempPath(dir, new int[0]), true, true);
        assertTrue(Files.exists(Path.of(f.name())));
        f.close();
        assertFalse(Files.exists(Path.of(f.name())));
    }

    @Test
    void theSamePathWithOtherLevelsIsRefused() throws Exception {
        TempPath a = new TempPath(Path.of("/t"), new int[] {1});
        a.checkSameLevels(new TempPath(Path.of("/t"), new int[] {1}));
        ConfException e = assertThrows(ConfException.class,
            () -> new TempPath(Path.of("/t"), new int[] {2}).checkSameLevels(a));
        assertEquals("the default path name \"/t\" has the same name as another default path, but the different "
            + "levels, you need to redefine one of them in http section", e.getMessage());
    }

    private static ByteBuffer direct(String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        return ByteBuffer.allocateDirect(b.length + 8).put(b).flip();
    }
}
