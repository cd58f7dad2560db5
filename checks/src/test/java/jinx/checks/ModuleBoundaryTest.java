package jinx.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * DESIGN 1's rule, checked on the sources: a module written on exported API (the proxy, stream, TLS, the
 * third-party-style modules of {@code modules-contrib}, and every module but the kernel and HTTP) names no
 * {@code internal} package of another module, in an import or in a qualified name (a cast). The kernel and HTTP
 * are the platform and are exempt, as the proxy issue states.
 */
class ModuleBoundaryTest {

    private static final Path ROOT = Path.of(System.getProperty("jinx.distribution", "..")).toAbsolutePath()
        .normalize();
    private static final Pattern MODULE = Pattern.compile("(?m)^\\s*(?:open\\s+)?module\\s+([\\w.]+)\\s*\\{");
    private static final Pattern INTERNAL = Pattern.compile("\\b(jinx(?:\\.\\w+)*?)\\.internal\\b");
    private static final List<String> PLATFORM = List.of("jinx.kernel", "jinx.http");

    /** A Maven module's JPMS name and its main sources. */
    private record Unit(String name, Path sources) {
    }

    private static List<Unit> units() throws IOException {
        List<Unit> units = new ArrayList<>();
        try (Stream<Path> infos = Files.walk(ROOT, 6)) {
            for (Path info : infos.filter(p -> p.endsWith("src/main/java/module-info.java")).toList()) {
                if (info.toString().contains("/target/")) {
                    continue;
                }
                Matcher m = MODULE.matcher(Files.readString(info, StandardCharsets.UTF_8));
                if (m.find()) {
                    units.add(new Unit(m.group(1), info.getParent()));
                }
            }
        }
        return units;
    }

    /** The violations of one module: file, line and the internal package named. */
    static List<String> violations(String module, Path sources) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i).trim();
                    if (line.startsWith("*") || line.startsWith("//") || line.startsWith("/*")) {
                        continue;
                    }
                    Matcher m = INTERNAL.matcher(line);
                    while (m.find()) {
                        String owner = m.group(1);
                        if (!owner.equals(module) && !module.startsWith(owner + ".") && !owner.startsWith(module)) {
                            out.add(ROOT.relativize(f) + ":" + (i + 1) + " names " + owner + ".internal");
                        }
                    }
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return out;
    }

    @Test
    void noModuleButThePlatformNamesAnotherModulesInternals() throws IOException {
        List<Unit> units = units();
        assertTrue(units.stream().anyMatch(u -> u.name().equals("jinx.proxy")), "the proxy's sources: " + units);
        List<String> violations = new ArrayList<>();
        for (Unit u : units) {
            if (!PLATFORM.contains(u.name())) {
                violations.addAll(violations(u.name(), u.sources()));
            }
        }
        assertEquals(List.of(), violations);
    }

    /**
     * The rule for stream: {@code jinx.stream} requires neither {@code jinx.http} nor the HTTP proxy, only
     * the kernel and the protocol-neutral {@code jinx.proxy.upstream}, which itself requires the kernel alone; and
     * no stream source names an HTTP package.
     */
    @Test
    void streamNeedsNoHttp() throws IOException {
        Pattern requires = Pattern.compile("(?m)^\\s*requires\\s+(?:transitive\\s+|static\\s+)*([\\w.]+)\\s*;");
        for (String unit : List.of("stream", "upstream")) {
            String info = Files.readString(ROOT.resolve(unit + "/src/main/java/module-info.java"));
            Matcher m = requires.matcher(info);
            List<String> names = new ArrayList<>();
            while (m.find()) {
                names.add(m.group(1));
            }
            assertTrue(names.contains("jinx.kernel") || names.contains("jinx.proxy.upstream"), unit + ": " + names);
            assertTrue(!names.contains("jinx.http") && !names.contains("jinx.proxy"), unit + " requires " + names);
        }
        try (Stream<Path> files = Files.walk(ROOT.resolve("stream/src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                assertTrue(!text.contains("import jinx.http") && !text.contains("jinx.proxy.internal"),
                    ROOT.relativize(f) + " names HTTP");
            }
        }
    }

    @Test
    void theCheckSeesAnImportAndACast() throws IOException {
        Path dir = Files.createTempDirectory("jinx-boundary");
        try {
            Files.writeString(dir.resolve("A.java"), "package jinx.proxy.x;\n"
                + "import jinx.http.internal.request.CoreRequest;\n"
                + "// jinx.kernel.internal in a comment is fine\n"
                + "class A { Object f(Object r) { return (jinx.kernel.internal.cli.Main) r; } }\n"
                + "class B { jinx.proxy.internal.ProxyModule own; }\n");
            List<String> v = violations("jinx.proxy", dir);
            assertEquals(2, v.size(), v::toString);
            assertTrue(v.get(0).endsWith("A.java:2 names jinx.http.internal"), v::toString);
            assertTrue(v.get(1).endsWith("A.java:4 names jinx.kernel.internal"), v::toString);
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
