package jinx.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import jinx.kernel.ConfException;
import jinx.kernel.internal.cli.DirectiveDocs;
import jinx.kernel.internal.cli.Main;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;

/**
 * {@code docs/directives.md} is what the directive tables of the built-in modules produce (every module of the
 * distribution is on this module's test class path: the kernel, both event methods, HTTP and the proxy), and every built-in directive is documented.
 * {@code -Djinx.docs.write=true} rewrites the file instead of comparing.
 */
class DirectiveDocsTest {

    private static final Path FILE = Path.of(System.getProperty("jinx.distribution", ".."))
        .resolve(DirectiveDocs.FILE).toAbsolutePath().normalize();

    private static List<JinxModule> builtins() throws ConfException {
        return DirectiveDocs.builtins(Main.discover());
    }

    @Test
    void committedFileIsWhatTheTablesProduce() throws IOException, ConfException {
        String generated = DirectiveDocs.markdown(builtins());
        if (Boolean.getBoolean("jinx.docs.write")) {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, generated, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(FILE), () -> FILE + " is missing; generate it with: " + DirectiveDocs.REGENERATE);
        String committed = Files.readString(FILE, StandardCharsets.UTF_8);
        if (!committed.equals(generated)) {
            List<String> a = committed.lines().toList();
            List<String> b = generated.lines().toList();
            int line = 0;
            while (line < a.size() && line < b.size() && a.get(line).equals(b.get(line))) {
                line++;
            }
            String was = line < a.size() ? a.get(line) : "(end of file)";
            String now = line < b.size() ? b.get(line) : "(end of file)";
            throw new AssertionError(FILE + " is out of date with the directive tables (first difference at line "
                + (line + 1) + ": file has \"" + was + "\", tables give \"" + now + "\"); regenerate it with: "
                + DirectiveDocs.REGENERATE);
        }
    }

    @Test
    void everyBuiltinDirectiveIsDocumented() throws ConfException {
        List<String> undocumented = new ArrayList<>();
        int count = 0;
        for (JinxModule m : builtins()) {
            for (Directive<?> d : m.directives()) {
                count++;
                if (d.syntax().isEmpty() || d.description() == null || d.description().isBlank()) {
                    undocumented.add(m.name() + ":" + d.name());
                }
            }
        }
        assertEquals(List.of(), undocumented, "directives without syntax or description");
        assertTrue(count > 100, "only " + count + " directives found: are the built-in modules on the path?");
    }

    @Test
    void sectionsCarryNginxStyleSyntaxDefaultAndContexts() throws ConfException {
        String md = DirectiveDocs.markdown(builtins());
        assertTrue(md.contains("""
            <a id="http_core-keepalive_timeout"></a>
            ### keepalive_timeout

                Syntax:   keepalive_timeout timeout [header_timeout];
                Default:  keepalive_timeout 75s;
                Context:  http, server, location
                Module:   http_core
            """), md);
        assertTrue(md.contains("""
                Syntax:   location [ = | ~ | ~* | ^~ ] uri { ... }
                          location @name { ... }
                Default:  —
                Context:  server, location
            """), md);
        assertTrue(md.contains("    Syntax:   break;\n"), md);
        // error_log is both errlog's (main) and http_core's: one section each
        assertTrue(md.contains("<a id=\"errlog-error_log\"></a>"), md);
        assertTrue(md.contains("<a id=\"http_core-error_log\"></a>"), md);
        // only the built-in modules, each section once, in BuiltinOrder's order
        List<String> sections = md.lines().filter(l -> l.startsWith("## ")).map(l -> l.substring(3)).toList();
        List<String> ordered = new ArrayList<>(BuiltinOrder.NAMES);
        ordered.retainAll(sections);
        assertEquals(ordered, sections);
        assertTrue(sections.containsAll(List.of("core", "event_core", "epoll", "http_core", "http_rewrite")),
            sections::toString);
    }
    @Test
    void ifContextsAreAdvertisedOnlyWithIf() throws ConfException {
        // jinx -l and the tables name server_if and location_if: they exist only because "if" opens them
        Set<String> advertised = new TreeSet<>();
        Set<String> ifContexts = new TreeSet<>();
        for (JinxModule m : builtins()) {
            for (Directive<?> d : m.directives()) {
                for (Ctx c : d.contexts()) {
                    if (c.name().endsWith("_if")) {
                        advertised.add(m.name() + ":" + d.name());
                    }
                    if (d.name().equals("if")) {
                        ifContexts.add(c.name());
                    }
                }
            }
        }
        assertTrue(advertised.size() > 10, advertised::toString);
        assertEquals(Set.of("server", "location"), ifContexts, "the contexts where \"if\" opens a block");
    }
}
