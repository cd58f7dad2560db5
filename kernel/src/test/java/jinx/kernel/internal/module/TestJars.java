package jinx.kernel.internal.module;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jinx.kernel.spi.ApiVersion;

/**
 * Builds real module jars during a test, as a third party would: sources compiled against the kernel with
 * {@code --module-path}, then packed with {@link JarOutputStream}. Reusable by any test that needs "a module with
 * directive X" for {@code load_module}.
 *
 * <p>The kernel's module path comes from the system properties {@code jinx.kernel.classes} (the kernel's
 * {@code target/classes}, an exploded module) and {@code jinx.runtime.path} (its runtime dependencies), which
 * the kernel's pom gives surefire; run these tests through Maven.
 */
public final class TestJars {

    /** The system property naming the kernel's exploded module. */
    public static final String KERNEL_CLASSES = "jinx.kernel.classes";

    /** The system property naming the kernel's runtime dependency jars, path-separator separated. */
    public static final String RUNTIME_PATH = "jinx.runtime.path";

    /** The name of the provider class {@link #simpleModule} writes. */
    public static final String SIMPLE_CLASS = "TestModule";

    private TestJars() {
    }

    /**
     * Returns the module path on which {@code jinx.kernel} resolves: its classes, then its runtime dependencies.
     *
     * @return the entries
     * @throws IllegalStateException when the test was not started by Maven
     */
    public static List<Path> kernelModulePath() {
        String classes = System.getProperty(KERNEL_CLASSES);
        String runtime = System.getProperty(RUNTIME_PATH);
        if (classes == null || runtime == null) {
            throw new IllegalStateException("system properties " + KERNEL_CLASSES + " and " + RUNTIME_PATH
                                            + " are not set: run this test through Maven");
        }
        List<Path> path = new ArrayList<>();
        path.add(Path.of(classes));
        for (String entry : runtime.split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                path.add(Path.of(entry));
            }
        }
        return path;
    }

    /**
     * Compiles a module against the kernel and writes it as {@code dir/<moduleName>.jar}.
     *
     * @param dir the directory the jar is written to, created if need be; nothing else is written there
     * @param moduleName the JPMS module name, also the jar's file name
     * @param sources source paths relative to the module root ({@code module-info.java},
     *     {@code a/b/C.java}) to their text
     * @param modulePath more module path entries, for modules that require other test modules
     * @return the jar
     * @throws IOException when a file cannot be written
     * @throws AssertionError with the compiler's diagnostics when the sources do not compile
     */
    public static Path jar(Path dir, String moduleName, Map<String, String> sources, Path... modulePath)
        throws IOException {
        return jar(dir, moduleName, null, sources, modulePath);
    }

    /**
     * Compiles a module against the kernel with a JPMS module version ({@code javac --module-version}), which is
     * the version {@code jinx -m} and {@code jinx -V} print for it, and writes it as {@code dir/<moduleName>.jar}.
     *
     * @param dir the directory the jar is written to, created if need be; nothing else is written there
     * @param moduleName the JPMS module name, also the jar's file name
     * @param version the module version ({@code "2.3"}), or null for none
     * @param sources source paths relative to the module root to their text
     * @param modulePath more module path entries, for modules that require other test modules
     * @return the jar
     * @throws IOException when a file cannot be written
     * @throws AssertionError with the compiler's diagnostics when the sources do not compile
     */
    public static Path jar(Path dir, String moduleName, String version, Map<String, String> sources,
                           Path... modulePath) throws IOException {
        // Scratch files stay out of dir, which may be a directory of jars for load_module.
        Path work = Files.createTempDirectory("jinx-" + moduleName + "-");
        try {
            Path src = work.resolve("src");
            Path classes = work.resolve("classes");
            List<Path> files = new ArrayList<>();
            for (Map.Entry<String, String> e : sources.entrySet()) {
                Path file = src.resolve(e.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
                files.add(file);
            }
            Files.createDirectories(classes);
            compile(files, classes, version, modulePath);
            Files.createDirectories(dir);
            Path jar = dir.resolve(moduleName + ".jar");
            writeJar(classes, jar);
            return jar;
        } finally {
            delete(work);
        }
    }

    /**
     * Returns the {@code module-info.java} of a module that provides a {@code JinxModule}.
     *
     * @param moduleName the module's name
     * @param provider the provider's fully qualified class name, or null to provide nothing
     * @param requires more modules required besides {@code jinx.kernel}
     * @return the source text
     */
    public static String moduleInfo(String moduleName, String provider, String... requires) {
        StringBuilder s = new StringBuilder("module " + moduleName + " {\n    requires jinx.kernel;\n");
        for (String r : requires) {
            s.append("    requires ").append(r).append(";\n");
        }
        if (provider != null) {
            s.append("    provides jinx.kernel.spi.JinxModule with ").append(provider).append(";\n");
        }
        return s.append("}\n").toString();
    }

    /**
     * Returns the sources of a simple {@code CORE} module, with {@link #simpleModule(String, String, int, int,
     * String, String)} and no extra members.
     *
     * @param moduleName the JPMS module name, also the Java package of its class
     * @param name what {@code name()} returns
     * @param major the API major version {@code builtFor()} states
     * @param minor the API minor version {@code builtFor()} states
     * @param directive the name of its one directive, allowed in the main context, taking one argument
     * @return source paths to text, for {@link #jar}
     */
    public static Map<String, String> simpleModule(String moduleName, String name, int major, int minor,
                                                   String directive) {
        return simpleModule(moduleName, name, major, minor, directive, "");
    }

    /**
     * Returns the sources of a simple {@code CORE} module: class {@code <moduleName>.TestModule}, which is its own
     * {@code CoreModule} context, creates a conf object {@code TestModule.Conf} with a {@code String text} field
     * and has one directive that stores its argument there.
     *
     * @param moduleName the JPMS module name, also the Java package of its class
     * @param name what {@code name()} returns
     * @param major the API major version {@code builtFor()} states
     * @param minor the API minor version {@code builtFor()} states
     * @param directive the name of its one directive, allowed in the main context, taking one argument
     * @param members more members for the class, such as
     *     {@code public List<String> after() { return List.of("core"); }} or a constructor
     * @return source paths to text, for {@link #jar}
     */
    public static Map<String, String> simpleModule(String moduleName, String name, int major, int minor,
                                                   String directive, String members) {
        String java = String.join("\n",
            "package " + moduleName + ";",
            "",
            "import java.util.List;",
            "import java.util.Set;",
            "",
            "import jinx.kernel.Cycle;",
            "import jinx.kernel.spi.ApiVersion;",
            "import jinx.kernel.spi.Arity;",
            "import jinx.kernel.spi.CoreModule;",
            "import jinx.kernel.spi.Ctx;",
            "import jinx.kernel.spi.Directive;",
            "import jinx.kernel.spi.JinxModule;",
            "import jinx.kernel.spi.ModuleType;",
            "",
            "public final class " + SIMPLE_CLASS + " implements JinxModule, CoreModule {",
            "",
            "    public static final class Conf {",
            "        public String text;",
            "",
            "        @Override",
            "        public String toString() {",
            "            return text;",
            "        }",
            "    }",
            "",
            "    private static final List<Directive<?>> DIRECTIVES = List.of(",
            "        Directive.of(" + quote(directive) + ", Set.of(Ctx.MAIN), Arity.TAKE1, Conf.class,",
            "                     (cf, conf) -> conf.text = cf.arg(1)));",
            "",
            "    @Override public String name() { return " + quote(name) + "; }",
            "    @Override public ModuleType type() { return ModuleType.CORE; }",
            "    @Override public ApiVersion builtFor() { return ApiVersion.of(" + major + ", " + minor + "); }",
            "    @Override public List<Directive<?>> directives() { return DIRECTIVES; }",
            "    @Override public Object context() { return this; }",
            "    @Override public Object createConf(Cycle cycle) { return new Conf(); }",
            "",
            members,
            "}",
            "");
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put("module-info.java", moduleInfo(moduleName, moduleName + "." + SIMPLE_CLASS));
        sources.put(moduleName.replace('.', '/') + "/" + SIMPLE_CLASS + ".java", java);
        return sources;
    }

    /**
     * Builds the jar of a simple module ({@link #simpleModule(String, String, int, int, String)}) at the current
     * API version, its JPMS name {@code jinx.test.<name>}.
     *
     * @param dir the directory the jar is written to
     * @param name what {@code name()} returns, a Java identifier
     * @param directive the name of its one directive
     * @return the jar
     * @throws IOException when a file cannot be written
     */
    public static Path simpleModuleJar(Path dir, String name, String directive) throws IOException {
        String moduleName = "jinx.test." + name;
        return jar(dir, moduleName, simpleModule(moduleName, name, ApiVersion.MAJOR, ApiVersion.MINOR, directive));
    }

    /**
     * Returns the sources of a {@code CORE} module that owns a block holding the modules of a type of its own, as
     * {@code events {}} holds the event modules: class {@code <moduleName>.BlockModule}, whose one directive
     * {@code block} (main context, no arguments) is a {@link jinx.kernel.spi.TypedBlock} for the modules of type
     * {@code type}, its contents the context {@code ctx}. Opening the block fixes the module list, so a
     * {@code load_module} after it is "specified too late".
     *
     * @param moduleName the JPMS module name, also the Java package of its class
     * @param name what {@code name()} returns
     * @param block the block directive's name ({@code "testblock"})
     * @param type the name of the module type inside ({@code "TEST"})
     * @param ctx the name of the block's context ({@code "testblock"})
     * @return source paths to text, for {@link #jar}
     */
    public static Map<String, String> blockModule(String moduleName, String name, String block, String type,
                                                  String ctx) {
        String java = String.join("\n",
            "package " + moduleName + ";",
            "",
            "import java.util.List;",
            "import java.util.Set;",
            "",
            "import jinx.kernel.Cycle;",
            "import jinx.kernel.spi.ApiVersion;",
            "import jinx.kernel.spi.Arity;",
            "import jinx.kernel.spi.CoreModule;",
            "import jinx.kernel.spi.Ctx;",
            "import jinx.kernel.spi.Directive;",
            "import jinx.kernel.spi.JinxModule;",
            "import jinx.kernel.spi.ModuleType;",
            "import jinx.kernel.spi.TypedBlock;",
            "import jinx.kernel.spi.TypedConfs;",
            "",
            "public final class BlockModule implements JinxModule, CoreModule {",
            "",
            "    private static final ModuleType TYPE = ModuleType.of(" + quote(type) + ");",
            "",
            "    private static final List<Directive<?>> DIRECTIVES = List.of(",
            "        Directive.of(" + quote(block) + ", Set.of(Ctx.MAIN), Arity.BLOCK | Arity.NOARGS,",
            "                     TypedConfs.class, TypedBlock.handler(TYPE, Ctx.of(" + quote(ctx) + "))));",
            "",
            "    @Override public String name() { return " + quote(name) + "; }",
            "    @Override public ModuleType type() { return ModuleType.CORE; }",
            "    @Override public ApiVersion builtFor() {",
            "        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);",
            "    }",
            "    @Override public List<Directive<?>> directives() { return DIRECTIVES; }",
            "    @Override public Object context() { return this; }",
            "    @Override public Object createConf(Cycle cycle) { return new TypedConfs(TYPE); }",
            "}",
            "");
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put("module-info.java", moduleInfo(moduleName, moduleName + ".BlockModule"));
        sources.put(moduleName.replace('.', '/') + "/BlockModule.java", java);
        return sources;
    }

    /**
     * Returns the sources of an event-method module, the module-path twin of
     * {@link jinx.kernel.testsuite.FakeEventModule}: class {@code <moduleName>.EventMethodModule}, of type
     * {@code EVENT}, usable, priority 50, whose table does nothing. Put on the module path, it is a built-in
     * module that lets {@code events {}} find a method where no real one is built yet.
     *
     * @param moduleName the JPMS module name, also the Java package of its class
     * @param name what {@code name()} returns
     * @param method what {@code methodName()} returns
     * @return source paths to text, for {@link #jar}
     */
    public static Map<String, String> eventModule(String moduleName, String name, String method) {
        String java = String.join("\n",
            "package " + moduleName + ";",
            "",
            "import jinx.kernel.Connection;",
            "import jinx.kernel.Cycle;",
            "import jinx.kernel.Event;",
            "import jinx.kernel.EventLoop;",
            "import jinx.kernel.spi.ApiVersion;",
            "import jinx.kernel.spi.EventActions;",
            "import jinx.kernel.spi.EventModule;",
            "import jinx.kernel.spi.JinxModule;",
            "import jinx.kernel.spi.ModuleType;",
            "",
            "public final class EventMethodModule implements JinxModule, EventModule {",
            "    @Override public String name() { return " + quote(name) + "; }",
            "    @Override public ModuleType type() { return EventModule.EVENT; }",
            "    @Override public ApiVersion builtFor() {",
            "        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);",
            "    }",
            "    @Override public Object context() { return this; }",
            "    @Override public String methodName() { return " + quote(method) + "; }",
            "    @Override public boolean isUsable() { return true; }",
            "    @Override public int priority() { return 50; }",
            "    @Override public EventActions createActions(Cycle cycle, Object conf) {",
            "        return new EventActions() {",
            "            @Override public void init(EventLoop loop) { }",
            "            @Override public void done() { }",
            "            @Override public void add(Event ev, int kind, int flags) { }",
            "            @Override public void del(Event ev, int kind, int flags) { }",
            "            @Override public void addConnection(Connection c) { }",
            "            @Override public void delConnection(Connection c, int flags) { }",
            "            @Override public void notify(Runnable handler) { }",
            "            @Override public void processEvents(long timer, int flags) { }",
            "            @Override public int flags() { return USE_LEVEL_EVENT; }",
            "        };",
            "    }",
            "}",
            "");
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put("module-info.java", moduleInfo(moduleName, moduleName + ".EventMethodModule"));
        sources.put(moduleName.replace('.', '/') + "/EventMethodModule.java", java);
        return sources;
    }

    private static void compile(List<Path> files, Path classes, String version, Path... modulePath) {
        // java.util.spi.ToolProvider, not javax.tools: maven-compiler-plugin compiles the tests patched into
        // jinx.kernel, which does not read java.compiler; java.base is read by every module.
        ToolProvider javac = ToolProvider.findFirst("javac")
            .orElseThrow(() -> new IllegalStateException("no javac tool: the tests need a JDK"));
        List<Path> mp = new ArrayList<>(kernelModulePath());
        mp.addAll(Arrays.asList(modulePath));
        List<String> args = new ArrayList<>(List.of(
            "--release", "17",
            "--module-path", mp.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)),
            "-d", classes.toString(),
            "-encoding", "UTF-8",
            "-proc:none",
            "-nowarn"));
        if (version != null) {
            args.addAll(List.of("--module-version", version));
        }
        for (Path f : files) {
            args.add(f.toString());
        }
        StringWriter diagnostics = new StringWriter();
        try (PrintWriter out = new PrintWriter(diagnostics)) {
            int rc = javac.run(out, out, args.toArray(new String[0]));
            out.flush();
            if (rc != 0) {
                throw new AssertionError("test module does not compile (javac exit " + rc + "):\n" + diagnostics);
            }
        }
    }

    private static void writeJar(Path classes, Path jar) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(classes)) {
            files = walk.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
        try (OutputStream out = Files.newOutputStream(jar);
             JarOutputStream jos = new JarOutputStream(out, manifest)) {
            for (Path f : files) {
                String entry = classes.relativize(f).toString().replace(File.separatorChar, '/');
                jos.putNextEntry(new JarEntry(entry));
                Files.copy(f, jos);
                jos.closeEntry();
            }
        }
    }

    private static void delete(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.delete(p);
            }
        }
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
