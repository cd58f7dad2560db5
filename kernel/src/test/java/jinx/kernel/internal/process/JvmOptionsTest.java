package jinx.kernel.internal.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JvmOptionsTest {

    @Test
    void linesApplyToBothOrToOneKindOfJvm() {
        JvmOptions o = JvmOptions.parse(List.of(
            "# a comment",
            "",
            "  -Xss1m  ",
            "master: -Xmx64m",
            "worker:-Xmx512m",
            "worker: -Dname=two words",
            "   # indented comment",
            "master:"));
        assertEquals(List.of("-Xss1m", "-Xmx64m"), o.master());
        assertEquals(List.of("-Xss1m", "-Xmx512m", "-Dname=two words"), o.worker());
    }

    @Test
    void theFileIsTheLaunchersElseTheEnvironmentsElseNone() {
        Map<String, String> env = Map.of(JvmOptions.FILE_ENV, "/etc/jinx/jvm.options");
        assertEquals(Path.of("/srv/bin/jvm.options"), JvmOptions.locate("/srv/bin/jvm.options", env));
        assertNull(JvmOptions.locate("", env), "the launcher found no file");
        assertEquals(Path.of("/etc/jinx/jvm.options"), JvmOptions.locate(null, env));
        assertNull(JvmOptions.locate(null, Map.of()));
    }

    @Test
    void readsAFileAndNamesOneItCannotRead(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("jvm.options"), "worker: -Xmx32m\n-XX:+UseSerialGC");
        assertEquals(List.of("-Xmx32m", "-XX:+UseSerialGC"), JvmOptions.read(file).worker());
        IOException e = assertThrows(IOException.class, () -> JvmOptions.read(dir.resolve("missing")));
        assertEquals("open() \"" + dir.resolve("missing") + "\" failed (2: No such file or directory)",
            e.getMessage());
    }
}
