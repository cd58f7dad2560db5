package jinx.kernel.internal.cycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.Syscalls;

/** The files a cycle writes: the master's descriptors by path, and a worker writing through the ones passed. */
class OpenFilesTest {

    @TempDir
    Path dir;

    @Test
    void theMasterRemembersEachPathsFirstFileInOrderAndItsDescriptor() throws IOException {
        OpenFiles files = new OpenFiles();
        Path a = dir.resolve("a.log");
        Path b = dir.resolve("b.log");
        try (WritableByteChannel fa = files.open(a); WritableByteChannel fb = files.open(b);
             WritableByteChannel again = files.open(dir.resolve("./a.log"))) {
            assertEquals(List.of(a, b), files.paths());
            assertTrue(files.fd(a) >= 0);
            assertTrue(files.fd(b) >= 0);
            write(fa, "one\n");
            write(again, "two\n");
            assertEquals("one\ntwo\n", Files.readString(a, StandardCharsets.ISO_8859_1));
            assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(a)));
        }
        assertEquals(-1, files.fd(a));
    }

    @Test
    void aWorkerWritesThroughTheDescriptorPassedForThePathNotThePath() throws IOException {
        Path log = dir.resolve("access.log");
        int masters = AppendFile.open(log).fd();
        // the path now names another file: the worker must write to the master's, as a descriptor received would
        Files.move(log, dir.resolve("access.log.1"));
        OpenFiles files = new OpenFiles();
        files.pass(Map.of(log, masters));
        try (WritableByteChannel f = files.open(log)) {
            write(f, "line\n");
        }
        assertFalse(Files.exists(log));
        assertEquals("line\n", Files.readString(dir.resolve("access.log.1"), StandardCharsets.ISO_8859_1));
        // a path not passed is opened as it is
        try (WritableByteChannel other = files.open(dir.resolve("other.log"))) {
            write(other, "x");
        }
        assertEquals("x", Files.readString(dir.resolve("other.log"), StandardCharsets.ISO_8859_1));
        files.closePassed();
        assertThrows(NativeIoException.class, () -> Syscalls.close(masters));
    }

    @Test
    void aFileThatCannotBeOpenedSaysSoInNginxsWords() {
        Path missing = dir.resolve("missing/x.log");
        IOException e = assertThrows(IOException.class, () -> new OpenFiles().open(missing));
        assertEquals("open() \"" + missing + "\" failed (2: No such file or directory)", e.getMessage());
    }

    private static void write(WritableByteChannel ch, String s) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }
}
