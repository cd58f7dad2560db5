package jinx.kernel;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ErrorLog}: nginx's line format, levels per target, the early log, reopening and capturing stderr.
 */
class ErrorLogTest {

    /** nginx's {@code ngx_log_error_core()}: {@code yyyy/MM/dd HH:mm:ss [level] pid#tid: [*conn ]message}. */
    private static final Pattern LINE = Pattern.compile(
        "(\\d{4})/(\\d{2})/(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2}) \\[([a-z]+)\\] (\\d+)#(\\d+): (.*)");

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream stderr = new PrintStream(errBytes, true, StandardCharsets.ISO_8859_1);
    private final List<ErrorLog> logs = new ArrayList<>();

    @AfterEach
    void close() {
        logs.forEach(ErrorLog::close);
    }

    private ErrorLog open(ErrorLog.Target... targets) throws IOException {
        ErrorLog log = ErrorLog.open(List.of(targets), stderr);
        logs.add(log);
        return log;
    }

    private ErrorLog early(Path file) {
        ErrorLog log = ErrorLog.early(stderr, file);
        logs.add(log);
        return log;
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.ISO_8859_1);
    }

    private String stderrText() {
        return errBytes.toString(StandardCharsets.ISO_8859_1);
    }

    /** The messages of the lines, after {@code pid#tid: }; fails on a line not in nginx's format. */
    private static List<String> messages(List<String> lines) {
        List<String> messages = new ArrayList<>();
        for (String line : lines) {
            Matcher m = LINE.matcher(line);
            assertTrue(m.matches(), line);
            messages.add("[" + m.group(7) + "] " + m.group(10));
        }
        return messages;
    }

    @Test
    @Timeout(10)
    void lineHasNginxsFormat() throws IOException {
        Path file = tmp.resolve("error.log");
        ErrorLog log = open(new ErrorLog.Target(file, LogLevel.ERROR));

        log.error("something failed");
        log.log(LogLevel.ERROR, 42, "client closed connection");

        List<String> lines = lines(file);
        assertEquals(2, lines.size(), lines.toString());
        Matcher m = LINE.matcher(lines.get(0));
        assertTrue(m.matches(), lines.get(0));
        assertEquals("error", m.group(7));
        assertEquals(Long.toString(ProcessHandle.current().pid()), m.group(8));
        assertEquals(Long.toString(Thread.currentThread().getId()), m.group(9));
        assertEquals("something failed", m.group(10));
        int month = Integer.parseInt(m.group(2));
        assertTrue(month >= 1 && month <= 12, lines.get(0));
        assertEquals(List.of("[error] something failed", "[error] *42 client closed connection"),
            messages(lines));
        assertTrue(Files.readString(file, StandardCharsets.ISO_8859_1).endsWith("connection\n"));
    }

    @Test
    @Timeout(10)
    void eachTargetHasItsOwnLevel() throws IOException {
        Path warn = tmp.resolve("warn.log");
        Path info = tmp.resolve("info.log");
        ErrorLog log = open(new ErrorLog.Target(warn, LogLevel.WARN), new ErrorLog.Target(info, LogLevel.INFO));

        log.emerg("m1");
        log.alert("m2");
        log.log(LogLevel.CRIT, "m3");
        log.error("m4");
        log.warn("m5");
        log.notice("m6");
        log.log(LogLevel.INFO, "m7");
        log.log(LogLevel.DEBUG, "m8");

        assertEquals(List.of("[emerg] m1", "[alert] m2", "[crit] m3", "[error] m4", "[warn] m5"),
            messages(lines(warn)));
        assertEquals(List.of("[emerg] m1", "[alert] m2", "[crit] m3", "[error] m4", "[warn] m5", "[notice] m6",
            "[info] m7"), messages(lines(info)));
        assertTrue(log.isEnabled(LogLevel.INFO));
        assertFalse(log.isEnabled(LogLevel.DEBUG));
        assertEquals(List.of(new ErrorLog.Target(warn, LogLevel.WARN), new ErrorLog.Target(info, LogLevel.INFO)),
            log.targets());
        assertEquals("", stderrText());
    }

    @Test
    @Timeout(10)
    void stderrTargetWritesWholeLinesToStderr() throws IOException {
        Path file = tmp.resolve("error.log");
        ErrorLog log = open(new ErrorLog.Target(null, LogLevel.NOTICE), new ErrorLog.Target(file, LogLevel.ERROR));

        log.notice("to stderr only");
        log.error("to both");

        assertEquals(List.of("[notice] to stderr only", "[error] to both"),
            messages(List.of(stderrText().split("\n"))));
        assertEquals(List.of("[error] to both"), messages(lines(file)));
        assertEquals("stderr notice", log.targets().get(0).toString());
    }

    @Test
    @Timeout(10)
    void earlyLogCopiesWarnAndAboveToStderrAndNoticeToItsFile() throws IOException {
        Path file = tmp.resolve("error.log");
        ErrorLog log = early(file);

        log.emerg("cannot go on");
        log.warn("careful");
        log.notice("just so you know");
        log.log(LogLevel.INFO, "chatter");

        // nginx's ngx_log_init() log: "nginx: [emerg] ..." on stderr up to warn, whole lines in the file up to notice
        assertEquals("jinx: [emerg] cannot go on\njinx: [warn] careful\n", stderrText());
        assertEquals(List.of("[emerg] cannot go on", "[warn] careful", "[notice] just so you know"),
            messages(lines(file)));
        assertEquals(List.of(new ErrorLog.Target(file, LogLevel.NOTICE)), log.targets());
    }

    @Test
    @Timeout(10)
    void earlyLogWithoutFileWritesItsLinesToStderrOnce() {
        ErrorLog log = early(null);

        log.emerg("cannot go on");
        log.notice("just so you know");
        log.log(LogLevel.INFO, "chatter");

        // -e stderr: stderr is the log's file, and nginx writes no "nginx: [emerg]" copy of a line already there
        assertEquals(List.of("[emerg] cannot go on", "[notice] just so you know"),
            messages(List.of(stderrText().split("\n"))));
    }

    @Test
    @Timeout(10)
    void earlyLogWhoseFileCannotBeOpenedSaysSoAndUsesStderr() {
        Path file = tmp.resolve("no/such/dir/error.log");
        ErrorLog log = early(file);

        assertEquals("jinx: [alert] could not open error log file: open() \"" + file
            + "\" failed (2: No such file or directory)\n", stderrText());
        errBytes.reset();
        log.emerg("still said");
        assertEquals(List.of("[emerg] still said"), messages(List.of(stderrText().split("\n"))));
    }

    @Test
    @Timeout(10)
    void unopenableFileSaysWhatOpenSaid() {
        Path file = tmp.resolve("missing/error.log");
        Path dir = tmp.resolve("a-directory");

        IOException e = assertThrows(IOException.class,
            () -> open(new ErrorLog.Target(null, LogLevel.ERROR), new ErrorLog.Target(file, LogLevel.ERROR)));
        assertEquals("open() \"" + file + "\" failed (2: No such file or directory)", e.getMessage());

        IOException isDir = assertThrows(IOException.class, () -> {
            Files.createDirectories(dir);
            open(new ErrorLog.Target(dir, LogLevel.ERROR));
        });
        assertEquals("open() \"" + dir + "\" failed (21: Is a directory)", isDir.getMessage());
    }

    @Test
    @Timeout(10)
    void reopenAfterRenameCreatesTheFileAnew() throws IOException {
        Path file = tmp.resolve("error.log");
        Path rotated = tmp.resolve("error.log.1");
        ErrorLog log = open(new ErrorLog.Target(file, LogLevel.ERROR));
        log.error("before rotation");
        Files.move(file, rotated);
        log.error("still to the renamed file");

        log.reopen();
        log.error("after reopen");

        assertEquals(List.of("[error] before rotation", "[error] still to the renamed file"),
            messages(lines(rotated)));
        assertEquals(List.of("[error] after reopen"), messages(lines(file)));
    }

    @Test
    @Timeout(10)
    void reopenAppendsToAnExistingFile() throws IOException {
        Path file = tmp.resolve("error.log");
        Files.writeString(file, "old line\n");
        ErrorLog log = open(new ErrorLog.Target(file, LogLevel.ERROR));

        log.reopen();
        log.error("new line");

        List<String> lines = lines(file);
        assertEquals("old line", lines.get(0));
        assertEquals(List.of("[error] new line"), messages(lines.subList(1, lines.size())));
    }

    @Test
    @Timeout(10)
    void reopenOfAFileThatCannotBeCreatedFailsAndKeepsTheOthers() throws IOException {
        Path dir = tmp.resolve("d");
        Files.createDirectories(dir);
        Path gone = dir.resolve("error.log");
        Path kept = tmp.resolve("kept.log");
        ErrorLog log = open(new ErrorLog.Target(gone, LogLevel.ERROR), new ErrorLog.Target(kept, LogLevel.ERROR));
        Files.delete(gone);
        Files.delete(dir);

        IOException e = assertThrows(IOException.class, log::reopen);
        assertEquals("open() \"" + gone + "\" failed (2: No such file or directory)", e.getMessage());
        log.error("after a failed reopen");
        assertEquals(List.of("[error] after a failed reopen"), messages(lines(kept)));
    }

    @Test
    @Timeout(10)
    void closedLogWritesNothingAndThrowsNothing() throws IOException {
        Path file = tmp.resolve("error.log");
        ErrorLog log = open(new ErrorLog.Target(file, LogLevel.ERROR));
        log.error("open");

        log.close();
        log.error("closed");

        assertEquals(List.of("[error] open"), messages(lines(file)));
    }

    @Test
    @Timeout(10)
    void captureStderrSendsSystemErrToTheFirstFile() throws IOException {
        Path file = tmp.resolve("error.log");
        Path rotated = tmp.resolve("error.log.1");
        ErrorLog log = open(new ErrorLog.Target(null, LogLevel.ERROR), new ErrorLog.Target(file, LogLevel.ERROR));
        PrintStream saved = System.err;
        try {
            log.captureStderr();
            System.err.println("printed by a library");
            System.err.write('!');
            System.err.println();
            Files.move(file, rotated);
            log.reopen();
            System.err.println("after reopen");
        } finally {
            System.setErr(saved);
        }

        assertEquals(List.of("printed by a library", "!"), lines(rotated));
        assertEquals(List.of("after reopen"), lines(file), "the captured stream follows the reopened file");
        assertEquals("", stderrText(), "the stderr target got nothing");
    }

    @Test
    @Timeout(10)
    void captureStderrWithoutFileLeavesSystemErrAlone() throws IOException {
        ErrorLog log = open(new ErrorLog.Target(null, LogLevel.ERROR));
        PrintStream saved = System.err;
        try {
            log.captureStderr();
            assertTrue(System.err == saved);
        } finally {
            System.setErr(saved);
        }
    }
}
