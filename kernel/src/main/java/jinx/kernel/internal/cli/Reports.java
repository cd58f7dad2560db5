package jinx.kernel.internal.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.LoadedModule;
import jinx.kernel.internal.cycle.KernelCycle;
import jinx.kernel.internal.cycle.Versions;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.Directive;

/**
 * What {@code -v}, {@code -V}, {@code -h}, {@code -T}, {@code -m} and {@code -l} print.
 */
final class Reports {

    /** The widest line {@code -l} prints, but for a single word longer than that. */
    static final int WIDTH = 120;
    private static final String INDENT = "    ";

    private Reports() {
    }

    static void version(PrintStream err) {
        err.print("jinx version: jinx/" + Versions.JINX + "\n");
    }

    static void help(PrintStream err) {
        err.print("""
            Usage: jinx [-?hvVtTqml] [-s signal] [-p prefix]
                        [-e filename] [-c filename] [-g directives]

            Options:
              -?,-h         : this help
              -v            : show version and exit
              -V            : show version, configure options and modules, then exit
              -t            : test configuration and exit
              -T            : test configuration, dump it and exit
              -q            : suppress non-error messages during configuration testing
              -s signal     : send signal to a master process: stop, quit, reopen, reload
              -p prefix     : set prefix path (default: the distribution's root)
              -e filename   : set error log file (default: logs/error.log)
              -c filename   : set configuration file (default: conf/jinx.conf)
              -g directives : set global directives out of configuration file
              -m            : list the modules in their resolved order and exit
              -l [name]     : list every directive (or module name's, or directive name) with its contexts,
                              syntax, default and description, and exit

            """);
    }

    static void configure(PrintStream err, Path prefix, Path confFile) {
        err.print("built with Java " + Runtime.version().feature() + ", running on "
            + System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version") + "\n");
        // a distribution made by bin/jinx-build passes its arguments, as nginx prints ./configure's
        String build = System.getProperty("jinx.configure", "").strip();
        err.print("configure arguments: --prefix=" + prefix + "/ --conf-path=" + prefix.relativize(confFile)
            + " --error-log-path=logs/error.log --pid-path=logs/jinx.pid" + (build.isEmpty() ? "" : " " + build)
            + "\n");
    }

    /** The module list of {@code -V}: the configuration's when it can be read, else its error. */
    static void moduleSummary(PrintStream err, KernelCycle cycle, ConfException failure) {
        if (cycle == null) {
            err.print("modules: not listed, the configuration failed: " + failure.getMessage() + "\n");
            return;
        }
        List<String> words = new ArrayList<>();
        for (LoadedModule m : cycle.modules()) {
            words.add(m.name() + " (" + (m.isStatic() ? "static" : "loaded") + " " + m.version() + ", api "
                + m.module().builtFor() + ")");
        }
        err.print("modules: " + String.join(", ", words) + "\n");
    }

    /** {@code -T}: every file read, each once, as nginx's config dump. */
    static void dump(PrintStream out, KernelCycle cycle) {
        Set<Path> done = new HashSet<>();
        for (KernelCycle.ConfFile file : cycle.files()) {
            if (!done.add(file.path())) {
                continue;
            }
            out.print("# configuration file " + file.path() + ":\n");
            out.write(file.content(), 0, file.content().length);
            out.print("\n");
        }
        out.flush();
    }

    /** {@code -m}: the modules in their resolved order, which is also execution order. */
    static void modules(PrintStream out, KernelCycle cycle) {
        out.print("# modules in resolved order: a module runs after those above it (\"after\" = later here)\n");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"order", "index", "type#", "name", "type", "origin", "version", "api", "jar"});
        int order = 0;
        for (LoadedModule m : cycle.modules()) {
            rows.add(new String[] {String.valueOf(order++), String.valueOf(m.index()), String.valueOf(m.typeIndex()),
                m.name(), m.module().type().name(), m.isStatic() ? "static" : "loaded", m.version(),
                m.module().builtFor().toString(), m.isStatic() ? "" : m.jar().toString()});
        }
        table(out, rows);
        for (LoadedModule m : cycle.modules()) {
            List<String> lines = m.module().report(cycle);
            if (lines.isEmpty()) {
                continue;
            }
            out.print("\n# " + m.name() + "\n");
            for (String line : lines) {
                out.print(line + "\n");
            }
        }
        out.flush();
    }

    /**
     * {@code -l}: the directives of every module, from the directive tables: the data of {@code docs/directives.md}
     * ({@link DirectiveDocs}). A table row per directive (name, module, contexts, arity), then its syntax forms,
     * default and description on lines of their own, indented and wrapped at {@value #WIDTH} columns.
     *
     * @param out where to print
     * @param cycle the configuration's cycle
     * @param only a module's name or a directive's name to list alone, or null for all
     * @return false when {@code only} names no module and no directive
     */
    static boolean directives(PrintStream out, KernelCycle cycle, String only) {
        List<String[]> rows = new ArrayList<>();
        List<List<String>> details = new ArrayList<>();
        rows.add(new String[] {"directive", "module", "contexts", "arity"});
        details.add(List.of());
        for (LoadedModule m : cycle.modules()) {
            for (Directive<?> d : m.module().directives()) {
                if (only != null && !only.equals(m.name()) && !only.equals(d.name())) {
                    continue;
                }
                rows.add(new String[] {d.name(), m.name(), String.join(",", DirectiveDocs.contexts(d)),
                    Arity.describe(d.arity()) + (d.isMulti() ? "|MULTI" : "")});
                details.add(details(d));
            }
        }
        if (rows.size() == 1) {
            return false;
        }
        List<String> lines = table(rows);
        for (int i = 0; i < lines.size(); i++) {
            out.print(lines.get(i) + "\n");
            for (String line : details.get(i)) {
                out.print(line + "\n");
            }
        }
        out.flush();
        return true;
    }

    /** The lines under a directive's row: syntax, default, description with its note; indented, wrapped. */
    private static List<String> details(Directive<?> d) {
        List<String> lines = new ArrayList<>();
        List<String> syntax = DirectiveDocs.syntax(d);
        String defaults = DirectiveDocs.defaults(d);
        wrap(lines, "syntax: " + (syntax.isEmpty() ? "-" : String.join(" or ", syntax)));
        wrap(lines, "default: " + (defaults == null ? "-" : defaults));
        String text = d.description() == null ? "" : d.description();
        if (d.note() != null) {
            text = text + (text.isEmpty() ? "" : " ") + "[jinx: " + d.note() + "]";
        }
        if (!text.isEmpty()) {
            wrap(lines, text);
        }
        return lines;
    }

    /** Adds {@code text} as lines of at most {@link #WIDTH} columns, indented, broken between words. */
    private static void wrap(List<String> lines, String text) {
        StringBuilder line = new StringBuilder(INDENT);
        int words = 0;
        for (String word : text.split(" ")) {
            if (words > 0 && line.length() + 1 + word.length() > WIDTH) {
                lines.add(line.toString());
                // a continuation is indented twice, so that each item's first line stands out
                line.setLength(0);
                line.append(INDENT).append(INDENT);
                words = 0;
            }
            if (words++ > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        lines.add(line.toString());
    }

    /** Columns as wide as their widest cell, two spaces apart, no trailing blanks. */
    private static void table(PrintStream out, List<String[]> rows) {
        for (String line : table(rows)) {
            out.print(line + "\n");
        }
        out.flush();
    }

    private static List<String> table(List<String[]> rows) {
        List<String> lines = new ArrayList<>();
        int[] width = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(row[i]);
                if (i < row.length - 1) {
                    line.append(" ".repeat(width[i] - row[i].length() + 2));
                }
            }
            lines.add(line.toString().stripTrailing());
        }
        return lines;
    }
}
