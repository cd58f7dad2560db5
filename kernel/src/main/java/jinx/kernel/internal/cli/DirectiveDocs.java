package jinx.kernel.internal.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import jinx.kernel.ConfException;
import jinx.kernel.internal.core.BuiltinOrder;
import jinx.kernel.internal.module.ModuleSorter;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;

/**
 * {@code docs/directives.md}, generated from the directive tables of the built-in modules, and the pieces of it
 * that {@code jinx -l} prints too. nginx keeps its directive reference by hand beside the code; here the table
 * that the dispatcher reads is the only source, and a test fails when the committed file differs.
 *
 * <p>Run as a program it writes the file: {@code DirectiveDocs [file]} (default {@code docs/directives.md}),
 * with every built-in module on the class or module path.
 */
public final class DirectiveDocs {

    /** Where the generated file lives, relative to the project's root. */
    public static final String FILE = "docs/directives.md";

    /** How to bring the file up to date, for the freshness check's message. */
    public static final String REGENERATE = "mvn -B -q -o test -pl checks -am -Dtest=DirectiveDocsTest "
        + "-Dsurefire.failIfNoSpecifiedTests=false -Djinx.docs.write=true";

    /** The contexts in the order nginx's documentation lists them; others follow by name. */
    private static final List<String> CONTEXT_ORDER = List.of("main", "events", "http", "server", "server_if",
        "location", "location_if", "limit_except", "upstream", "stream", "types", "any");

    private DirectiveDocs() {
    }

    /**
     * Writes the documentation of the built-in modules found on the path.
     *
     * @param args the file to write, {@value #FILE} when absent
     * @throws IOException when the file cannot be written
     * @throws ConfException when the built-in modules cannot be ordered
     */
    public static void main(String[] args) throws IOException, ConfException {
        Path file = Path.of(args.length > 0 ? args[0] : FILE);
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, markdown(builtins(Main.discover())), StandardCharsets.UTF_8);
    }

    /**
     * Keeps the built-in modules (those {@link BuiltinOrder} names: not test modules, not contrib jars) and puts
     * them in their order.
     *
     * @param found the modules discovered
     * @return the built-in ones, ordered
     * @throws ConfException when they cannot be ordered
     */
    public static List<JinxModule> builtins(List<JinxModule> found) throws ConfException {
        List<JinxModule> builtins = new ArrayList<>();
        for (JinxModule m : found) {
            if (BuiltinOrder.NAMES.contains(m.name())) {
                builtins.add(m);
            }
        }
        return ModuleSorter.sort(builtins, BuiltinOrder.NAMES);
    }

    /**
     * The syntax lines as nginx's documentation prints them: name, arguments, and {@code ;} unless a block.
     *
     * @param d the directive
     * @return one line per form; empty when the table gives none
     */
    public static List<String> syntax(Directive<?> d) {
        List<String> lines = new ArrayList<>();
        for (String form : d.syntax()) {
            String line = form.isEmpty() ? d.name() : d.name() + " " + form;
            lines.add(line.endsWith("}") ? line : line + ";");
        }
        return lines;
    }

    /**
     * The default as nginx's documentation prints it: {@code name arguments;}, without the {@code ;} after a
     * block.
     *
     * @param d the directive
     * @return the line, or null when there is no default
     */
    public static String defaults(Directive<?> d) {
        if (d.defaults() == null) {
            return null;
        }
        String line = d.defaults().isEmpty() ? d.name() : d.name() + " " + d.defaults();
        return line.endsWith("}") ? line : line + ";";
    }

    /**
     * The contexts in nginx's order: main, events, http, server, location ...
     *
     * @param d the directive
     * @return the contexts' names
     */
    public static List<String> contexts(Directive<?> d) {
        List<String> names = new ArrayList<>();
        for (Ctx ctx : d.contexts()) {
            names.add(ctx.name());
        }
        names.sort(Comparator.comparingInt(DirectiveDocs::contextRank).thenComparing(Comparator.naturalOrder()));
        return names;
    }

    private static int contextRank(String name) {
        int i = CONTEXT_ORDER.indexOf(name);
        return i < 0 ? CONTEXT_ORDER.size() : i;
    }

    /**
     * Renders the whole file.
     *
     * @param modules the modules, in the order to list them
     * @return the Markdown text
     */
    public static String markdown(List<JinxModule> modules) {
        StringBuilder md = new StringBuilder();
        md.append("# Directives\n\n")
            .append("<!-- Generated from the directive tables by jinx.kernel.internal.cli.DirectiveDocs: ")
            .append("do not edit.\n")
            .append("     Regenerate with: ").append(REGENERATE).append(" -->\n\n")
            .append("Every directive of the built-in modules, module by module in their resolved order, generated ")
            .append("from the\ndirective tables (`Directive.syntax`, `defaults`, `describe`); `jinx -l` prints the ")
            .append("same data for the modules\nof a configuration, `load_module` jars included. Contexts are ")
            .append("named as in the tables: `server_if` and\n`location_if` are an `if` block in a server and in a ")
            .append("location, `any` is anywhere.\n\n");
        md.append("| Directive | Module | Contexts |\n|---|---|---|\n");
        for (JinxModule m : modules) {
            for (Directive<?> d : m.directives()) {
                md.append("| [").append(d.name()).append("](#").append(anchor(m, d)).append(") | ")
                    .append(m.name()).append(" | ").append(String.join(", ", contexts(d))).append(" |\n");
            }
        }
        for (JinxModule m : modules) {
            if (m.directives().isEmpty()) {
                continue;
            }
            md.append("\n## ").append(m.name()).append("\n");
            for (Directive<?> d : m.directives()) {
                section(md, m, d);
            }
        }
        return md.toString();
    }

    private static void section(StringBuilder md, JinxModule m, Directive<?> d) {
        md.append("\n<a id=\"").append(anchor(m, d)).append("\"></a>\n### ").append(d.name()).append("\n\n");
        List<String> syntax = syntax(d);
        for (int i = 0; i < syntax.size(); i++) {
            md.append(i == 0 ? "    Syntax:   " : "              ").append(syntax.get(i)).append("\n");
        }
        String defaults = defaults(d);
        md.append("    Default:  ").append(defaults == null ? "—" : defaults).append("\n")
            .append("    Context:  ").append(String.join(", ", contexts(d))).append("\n")
            .append("    Module:   ").append(m.name()).append("\n");
        if (d.description() != null) {
            md.append("\n").append(d.description()).append("\n");
        }
        if (d.note() != null) {
            md.append("\n*In Jinx:* ").append(d.note()).append("\n");
        }
    }

    private static String anchor(JinxModule m, Directive<?> d) {
        return m.name() + "-" + d.name();
    }
}
