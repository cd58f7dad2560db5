package jinx.event.epoll;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import jinx.event.poll.PollEventModule;
import jinx.kernel.internal.cli.DirectiveListing;
import jinx.kernel.internal.cli.Main;
import jinx.kernel.internal.core.ErrlogCoreModule;
import jinx.kernel.internal.core.IncludeConfModule;
import jinx.kernel.internal.core.MainCoreModule;
import jinx.kernel.internal.event.EventCoreModule;
import jinx.kernel.internal.event.EventsCoreModule;
import jinx.kernel.spi.JinxModule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real {@code jinx} command, run in process with the kernel's built-in modules and both event methods, as
 * {@code bin/jinx} runs it with the event modules' jars: {@code -m} lists {@code epoll} and {@code poll} as
 * EVENT modules after {@code event_core}, {@code -l} lists their directives with those of {@code events {}},
 * and {@code -t} checks {@code use}.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(30)
class EventMethodsCliTest {

    @TempDir
    Path tmp;

    private Path conf;

    private record Result(int exit, String out, String err) {
    }

    @BeforeEach
    void prefix() throws IOException {
        Files.createDirectories(tmp.resolve("logs"));
        conf = tmp.resolve("conf/jinx.conf");
        Files.createDirectories(conf.getParent());
        Files.writeString(conf, "events { }\n");
    }

    private static List<JinxModule> modules() {
        return List.of(new MainCoreModule(), new ErrlogCoreModule(), new IncludeConfModule(),
            new EventsCoreModule(), new EventCoreModule(), new EpollEventModule(), new PollEventModule());
    }

    private Result jinx(String... args) {
        List<String> all = new ArrayList<>(List.of("-p", tmp.toString()));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.ISO_8859_1);
             PrintStream e = new PrintStream(err, true, StandardCharsets.ISO_8859_1)) {
            exit = new Main(o, e, EventMethodsCliTest::modules).run(all.toArray(new String[0]));
        }
        return new Result(exit, out.toString(StandardCharsets.ISO_8859_1), err.toString(StandardCharsets.ISO_8859_1));
    }

    /** The rows of a table, each cell trimmed, the header skipped. */
    private static List<List<String>> rows(String table, int skip) {
        List<List<String>> rows = new ArrayList<>();
        table.lines().skip(skip).forEach(line -> rows.add(List.of(line.trim().split("\\s+"))));
        return rows;
    }

    @Test
    void modulesListsBothMethodsAsEventModules() {
        Result r = jinx("-m");
        assertEquals("", r.err());
        assertEquals(0, r.exit());
        List<String> names = new ArrayList<>();
        for (List<String> row : rows(r.out(), 2)) {
            names.add(row.get(3));
            if (row.get(3).equals("epoll") || row.get(3).equals("poll")) {
                assertEquals(List.of("EVENT", "static"), row.subList(4, 6), row::toString);
            }
        }
        assertEquals(List.of("core", "errlog", "conf", "events", "event_core", "epoll", "poll"), names);
    }

    @Test
    void directivesListsTheEventsDirectives() {
        Result r = jinx("-l");
        assertEquals("", r.err());
        assertEquals(0, r.exit());
        List<String> lines = new ArrayList<>();
        // the first four columns (two spaces or more apart) and the note, which the description ends with
        for (DirectiveListing.Entry e : DirectiveListing.parse(r.out())) {
            lines.add(String.join(" ", e.cells()) + (e.note() == null ? "" : " " + e.note()));
        }
        List<String> expected = List.of(
            "events events main NOARGS|BLOCK",
            "worker_connections event_core events TAKE1",
            "use event_core events TAKE1",
            "multi_accept event_core events FLAG",
            "accept_mutex event_core events FLAG takes effect with several worker processes",
            "accept_mutex_delay event_core events TAKE1",
            "debug_connection event_core events TAKE1|MULTI parsed and checked; per-connection debug logging is not "
            + "built yet",
            "epoll_events epoll events TAKE1");
        int first = lines.indexOf(expected.get(0));
        assertTrue(first >= 0, r.out());
        assertEquals(expected, lines.subList(first, first + expected.size()), r.out());
        // poll has no directive of its own, as nginx's
        assertTrue(lines.stream().noneMatch(l -> l.split(" ")[1].equals("poll")), r.out());
        assertEquals(new Result(1, "", "jinx: module \"poll\" has no directives\n"), jinx("-l", "poll"));
        Result epoll = jinx("-l", "epoll");
        assertEquals(0, epoll.exit(), epoll.err());
        assertEquals(List.of("epoll_events"),
            DirectiveListing.parse(epoll.out()).stream().map(e -> e.cells().get(0)).toList());
    }

    @Test
    void testChecksUse() throws IOException {
        String ok = "jinx: the configuration file " + conf + " syntax is ok\n"
                    + "jinx: configuration file " + conf + " test is successful\n";
        for (String use : List.of("epoll", "poll")) {
            Files.writeString(conf, "events { use " + use + "; }\n");
            assertEquals(new Result(0, "", ok), jinx("-t"));
        }
        Files.writeString(conf, "events {\n    use kqueue;\n}\n");
        assertEquals(new Result(1, "", "jinx: [emerg] invalid event type \"kqueue\" in " + conf + ":2\n"
            + "jinx: configuration file " + conf + " test failed\n"), jinx("-t"));
    }
}
