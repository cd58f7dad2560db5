package jinx.kernel.internal.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads what {@code jinx -l} prints back into entries, for the tests of the kernel and of the event methods: a
 * row per directive (cells two spaces or more apart), then its syntax, default and description, each an indented
 * line whose continuations are indented twice.
 */
public final class DirectiveListing {

    /**
     * One directive.
     *
     * @param cells the row: name, module, contexts, arity
     * @param syntax the syntax forms, {@code " or "} between them, {@code -} for none
     * @param defaults the default, {@code -} for none
     * @param text the description and note, or the empty string
     */
    public record Entry(List<String> cells, String syntax, String defaults, String text) {

        /**
         * Returns the note ({@code [jinx: ...]}) the description ends with.
         *
         * @return the note, or null
         */
        public String note() {
            int at = text.indexOf("[jinx: ");
            return at < 0 ? null : text.substring(at + 7, text.length() - 1);
        }
    }

    private DirectiveListing() {
    }

    /**
     * Parses the listing.
     *
     * @param out what {@code -l} printed, its header line included
     * @return the entries in order
     */
    public static List<Entry> parse(String out) {
        List<Entry> entries = new ArrayList<>();
        List<String> lines = out.lines().skip(1).toList();
        for (int i = 0; i < lines.size(); ) {
            List<String> cells = List.of(lines.get(i++).split("  +"));
            List<String> items = new ArrayList<>();
            while (i < lines.size() && lines.get(i).startsWith("    ")) {
                String line = lines.get(i++);
                if (line.startsWith("        ")) {
                    items.set(items.size() - 1, items.get(items.size() - 1) + " " + line.strip());
                } else {
                    items.add(line.strip());
                }
            }
            if (items.size() < 2 || !items.get(0).startsWith("syntax: ") || !items.get(1).startsWith("default: ")) {
                throw new AssertionError("no syntax and default under " + cells + " in\n" + out);
            }
            entries.add(new Entry(cells, items.get(0).substring(8), items.get(1).substring(9),
                items.size() > 2 ? items.get(2) : ""));
        }
        return entries;
    }
}
