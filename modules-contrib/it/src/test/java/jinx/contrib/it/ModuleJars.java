package jinx.contrib.it;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Builds a module jar at test time from source, against the built kernel and HTTP jars: the way a module author's
 * build would, so that two versions of one module can be told apart by what they answer.
 */
final class ModuleJars {

    private ModuleJars() {
    }

    /**
     * The source of a module {@code upgrade_probe} whose CONTENT handler answers every request with
     * {@code text}.
     */
    static String probeSource(String text) {
        return "package jinx.test.upgrade;\n"
            + "import java.nio.ByteBuffer;\n"
            + "import java.util.List;\n"
            + "import jinx.http.HttpRequest;\n"
            + "import jinx.http.spi.*;\n"
            + "import jinx.kernel.*;\n"
            + "import jinx.kernel.spi.*;\n"
            + "public final class ProbeModule implements JinxModule, HttpModule {\n"
            + "  public String name() { return \"upgrade_probe\"; }\n"
            + "  public ModuleType type() { return HttpCtx.HTTP; }\n"
            + "  public ApiVersion builtFor() { return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR); }\n"
            + "  public Object context() { return this; }\n"
            + "  public List<String> before() { return List.of(\"http_index\"); }\n"
            + "  public void postconfiguration(HttpConfig cf) throws ConfException {\n"
            + "    cf.addPhaseHandler(Phase.CONTENT, ProbeModule::handle);\n"
            + "  }\n"
            + "  private static int handle(HttpRequest r) {\n"
            + "    byte[] bytes = \"" + text + "\\n\".getBytes();\n"
            + "    r.headersOut.status = 200;\n"
            + "    r.headersOut.contentLengthN = bytes.length;\n"
            + "    int rc = r.sendHeader();\n"
            + "    if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) { return rc; }\n"
            + "    ByteBuffer data = ByteBuffer.allocateDirect(bytes.length);\n"
            + "    data.put(bytes).flip();\n"
            + "    Buf b = Buf.of(data);\n"
            + "    b.last = true;\n"
            + "    b.lastInChain = true;\n"
            + "    return r.outputFilter(BufChain.of(b));\n"
            + "  }\n"
            + "}\n";
    }

    /**
     * Compiles the module {@code jinx.test.upgrade} with {@code source} as its one class and writes its jar.
     *
     * @param work a scratch directory
     * @param source the class {@code jinx.test.upgrade.ProbeModule}
     * @param jar where the jar goes
     */
    static void build(Path work, String source, Path jar) throws IOException {
        Path src = work.resolve("src");
        Path classes = work.resolve("classes");
        Files.createDirectories(src.resolve("jinx/test/upgrade"));
        Files.createDirectories(classes);
        Files.writeString(src.resolve("module-info.java"), "module jinx.test.upgrade {\n requires jinx.http;\n"
            + " provides jinx.kernel.spi.JinxModule with jinx.test.upgrade.ProbeModule;\n}\n");
        Files.writeString(src.resolve("jinx/test/upgrade/ProbeModule.java"), source);
        Path dist = Server.distribution();
        List<String> path = new ArrayList<>(List.of(dist.resolve("kernel/target/jinx-kernel.jar").toString(),
            dist.resolve("http/target/jinx-http.jar").toString()));
        try (Stream<Path> libs = Files.list(dist.resolve("kernel/target/lib"))) {
            libs.forEach(p -> path.add(p.toString()));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter out = new StringWriter();
        List<String> args = List.of("--release", "17", "--module-path", String.join(java.io.File.pathSeparator, path),
            "-d", classes.toString());
        boolean ok;
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
            ok = javac.getTask(out, files, null, args, null, files.getJavaFileObjects(src.resolve("module-info.java"),
                src.resolve("jinx/test/upgrade/ProbeModule.java"))).call();
        }
        if (!ok) {
            throw new IOException("javac failed: " + out);
        }
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out2 = new JarOutputStream(file, manifest);
             Stream<Path> walk = Files.walk(classes)) {
            for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
                out2.putNextEntry(new JarEntry(classes.relativize(p).toString().replace('\\', '/')));
                out2.write(Files.readAllBytes(p));
                out2.closeEntry();
            }
        }
    }
}
