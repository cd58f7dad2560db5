package jinx.kernel.internal.cycle;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.internal.module.TestJars;
import jinx.kernel.spi.ApiVersion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code load_module} through the snapshot, end to end, where it works: on the module path, in child JVMs. A
 * "master" child builds a cycle to serve and writes its snapshot to a file; a "worker" child builds its cycle from
 * that file in attach mode. Between the two the jar on disk is replaced by one with other code and the
 * configuration is deleted: the worker still loads the master's code, from the master's copy in the module cache.
 * The next master build loads the new jar. The child is compiled here, against the kernel's internal packages.
 */
@Tag("slow")
@EnabledOnOs(OS.LINUX)
class AttachModulePathTest {

    private static final String CHILD = "jinx.attachtest.Child";

    private static final String CHILD_SOURCE = String.join("\n",
        "package jinx.attachtest;",
        "",
        "import java.io.InputStream;",
        "import java.io.OutputStream;",
        "import java.nio.file.Files;",
        "import java.nio.file.Path;",
        "import java.util.List;",
        "import java.util.function.Supplier;",
        "",
        "import jinx.kernel.ConfException;",
        "import jinx.kernel.CoreConf;",
        "import jinx.kernel.ErrorLog;",
        "import jinx.kernel.LoadedModule;",
        "import jinx.kernel.internal.core.BuiltinOrder;",
        "import jinx.kernel.internal.core.ErrlogCoreModule;",
        "import jinx.kernel.internal.core.IncludeConfModule;",
        "import jinx.kernel.internal.core.MainCoreModule;",
        "import jinx.kernel.internal.cycle.ConfSnapshot;",
        "import jinx.kernel.internal.cycle.CycleBuilder;",
        "import jinx.kernel.internal.cycle.CycleOptions;",
        "import jinx.kernel.internal.cycle.KernelCycle;",
        "import jinx.kernel.spi.JinxModule;",
        "",
        "public final class Child {",
        "    public static void main(String[] args) throws Exception {",
        "        Path prefix = Path.of(args[1]);",
        "        Path file = Path.of(args[2]);",
        "        ErrorLog early = ErrorLog.early(System.err, null);",
        "        Supplier<List<JinxModule>> modules = () -> List.of(new MainCoreModule(), new ErrlogCoreModule(),",
        "            new IncludeConfModule());",
        "        KernelCycle cycle;",
        "        try {",
        "            if (args[0].equals(\"master\")) {",
        "                CycleOptions o = new CycleOptions(prefix, prefix.resolve(\"conf/jinx.conf\"), null, \"stderr\",",
        "                    CycleOptions.Purpose.RUN, modules, BuiltinOrder.NAMES, System.err, early, null);",
        "                cycle = CycleBuilder.build(o, null);",
        "                try (OutputStream out = Files.newOutputStream(file)) {",
        "                    cycle.snapshot().write(out);",
        "                }",
        "            } else {",
        "                ConfSnapshot s;",
        "                try (InputStream in = Files.newInputStream(file)) {",
        "                    s = ConfSnapshot.read(in);",
        "                }",
        "                cycle = CycleBuilder.attach(s.workerOptions(modules, BuiltinOrder.NAMES, System.err, early),",
        "                    new int[0]);",
        "            }",
        "        } catch (ConfException e) {",
        "            System.out.println(\"error: \" + e.getMessage());",
        "            System.exit(1);",
        "            return;",
        "        }",
        "        StringBuilder names = new StringBuilder(\"modules:\");",
        "        for (LoadedModule m : cycle.modules()) {",
        "            names.append(' ').append(m.name());",
        "        }",
        "        System.out.println(names);",
        "        for (LoadedModule m : cycle.modules()) {",
        "            if (m.jar() == null) {",
        "                continue;",
        "            }",
        "            java.lang.Module jm = m.module().getClass().getModule();",
        "            System.out.println(\"module \" + m.name() + \" \" + m.version() + \" \"",
        "                + cycle.conf(m.module(), Object.class) + \" \" + m.jar());",
        "            System.out.println(\"from \" + jm.getLayer().configuration().findModule(jm.getName())",
        "                .orElseThrow().reference().location().orElseThrow());",
        "        }",
        "        System.out.println(\"workers \" + cycle.conf(MainCoreModule.NAME, CoreConf.class).workerProcesses);",
        "        for (KernelCycle.ConfFile f : cycle.files()) {",
        "            System.out.println(\"file \" + f.path() + \" \" + f.content().length);",
        "        }",
        "        cycle.log().close();",
        "    }",
        "}",
        "");

    @TempDir
    static Path work;

    private static Path classes;
    private static Path v1;
    private static Path v2;
    private static Path major;

    @TempDir
    Path tmp;

    /** What the child printed and returned. */
    private record Result(int exit, String out, String err) {
    }

    @BeforeAll
    static void build() throws IOException {
        v1 = TestJars.jar(work.resolve("v1"), "jinx.test.hello", "1.0", hello("-v1"));
        v2 = TestJars.jar(work.resolve("v2"), "jinx.test.hello", "2.0", hello("-v2"));
        major = TestJars.jar(work.resolve("major"), "jinx.test.major",
            TestJars.simpleModule("jinx.test.major", "major", 99, 0, "major_text"));
        classes = compileChild(work.resolve("child"));
    }

    /** The module {@code hello} whose code marks its conf: the text and the jar's suffix. */
    private static Map<String, String> hello(String suffix) {
        return TestJars.simpleModule("jinx.test.hello", "hello", ApiVersion.MAJOR, ApiVersion.MINOR, "hello_text",
            "    @Override public void initConf(Cycle cycle, Object conf) {\n"
            + "        ((Conf) conf).text = ((Conf) conf).text + \"" + suffix + "\";\n"
            + "    }\n");
    }

    private static List<String> exports() {
        return List.of("--add-exports", "jinx.kernel/jinx.kernel.internal.cycle=ALL-UNNAMED",
            "--add-exports", "jinx.kernel/jinx.kernel.internal.core=ALL-UNNAMED");
    }

    private static String modulePath() {
        return TestJars.kernelModulePath().stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }

    private static Path compileChild(Path dir) throws IOException {
        Path src = dir.resolve("src/jinx/attachtest/Child.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, CHILD_SOURCE, StandardCharsets.UTF_8);
        Path out = Files.createDirectories(dir.resolve("classes"));
        ToolProvider javac = ToolProvider.findFirst("javac")
            .orElseThrow(() -> new IllegalStateException("no javac tool: the tests need a JDK"));
        List<String> args = new ArrayList<>(List.of("--module-path", modulePath(), "--add-modules", "jinx.kernel"));
        args.addAll(exports());
        args.addAll(List.of("-d", out.toString(), "-proc:none", "-nowarn", src.toString()));
        StringWriter diagnostics = new StringWriter();
        try (PrintWriter w = new PrintWriter(diagnostics)) {
            int rc = javac.run(w, w, args.toArray(new String[0]));
            w.flush();
            assertEquals(0, rc, () -> "the child does not compile:\n" + diagnostics);
        }
        return out;
    }

    private Result child(String mode, Path prefix, Path snapshot) throws Exception {
        String java = ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(jinx.kernel.internal.process.WorkerCommand.newerJvmOptions(Runtime.version().feature(), true));
        command.addAll(List.of("-p", modulePath(), "--add-modules", "ALL-MODULE-PATH"));
        command.addAll(exports());
        command.addAll(List.of("-cp", classes.toString(), CHILD, mode, prefix.toString(), snapshot.toString()));
        Process p = new ProcessBuilder(command).directory(prefix.toFile()).start();
        try {
            p.getOutputStream().close();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
            assertTrue(p.waitFor(50, TimeUnit.SECONDS), "the child did not exit");
            return new Result(p.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS));
        } finally {
            p.destroyForcibly();
        }
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path write(Path prefix, String name, String text) throws IOException {
        Path file = prefix.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.ISO_8859_1);
        return file;
    }

    private static String line(Result r, String start) {
        return r.out().lines().filter(l -> l.startsWith(start)).findFirst()
            .orElseThrow(() -> new AssertionError("no \"" + start + "\" in\n" + r.out() + r.err()));
    }

    @Test
    @Timeout(120)
    void theWorkerRunsTheMastersCodeWhateverTheDiskHoldsNow() throws Exception {
        Path prefix = tmp.toAbsolutePath().normalize();
        Path snapshot = prefix.resolve("snapshot");
        Path jar = prefix.resolve("modules/hello.jar");
        Files.createDirectories(jar.getParent());
        Files.copy(v1, jar);
        write(prefix, "conf/jinx.conf", "load_module modules/hello.jar;\nhello_text world;\ninclude conf.d/*.conf;\n");
        write(prefix, "conf/conf.d/w.conf", "worker_processes 3;\n");

        Result master = child("master", prefix, snapshot);
        assertEquals(0, master.exit(), master.out() + master.err());
        assertEquals("modules: core errlog conf hello", line(master, "modules:"));
        assertEquals("module hello 1.0 world-v1 " + jar, line(master, "module "), "-m still names the jar as written");
        String from = line(master, "from ");
        assertTrue(from.matches("from file://" + prefix.resolve(ModuleCache.DIR) + "/[0-9a-f]{64}/hello\\.jar"),
            "the master loads the cached copy: " + from);
        assertEquals("workers 3", line(master, "workers "));

        // a new jar and no configuration on disk: the worker needs neither
        Files.copy(v2, jar, StandardCopyOption.REPLACE_EXISTING);
        Files.delete(prefix.resolve("conf/conf.d/w.conf"));
        write(prefix, "conf/jinx.conf", "garbage\n");

        Result worker = child("worker", prefix, snapshot);
        assertEquals(0, worker.exit(), worker.out() + worker.err());
        assertEquals(master.out(), worker.out(), "the same modules, code, conf values and files");

        // the next master (a reload) reads the disk, and loads the new code from a copy of its own
        write(prefix, "conf/jinx.conf", "load_module modules/hello.jar;\nhello_text world;\n");
        Result reload = child("master", prefix, snapshot);
        assertEquals(0, reload.exit(), reload.out() + reload.err());
        assertEquals("module hello 2.0 world-v2 " + jar, line(reload, "module "));
        assertNotEquals(from, line(reload, "from "));
        assertTrue(Files.exists(Path.of(URI.create(from.substring(5)))), "the old copy stays");
    }

    @Test
    @Timeout(120)
    void loadErrorsNameTheJarAsWritten() throws Exception {
        Path prefix = tmp.toAbsolutePath().normalize();
        Path jar = prefix.resolve("modules/major.jar");
        Files.createDirectories(jar.getParent());
        Files.copy(major, jar);
        Path conf = write(prefix, "conf/jinx.conf", "load_module modules/major.jar;\n");
        Result r = child("master", prefix, prefix.resolve("snapshot"));
        assertEquals(1, r.exit(), r.out() + r.err());
        assertEquals("error: module \"" + jar + "\" is not binary compatible in " + conf + ":1\n", r.out());
        assertFalse(r.out().contains(ModuleCache.DIR));
    }
}
