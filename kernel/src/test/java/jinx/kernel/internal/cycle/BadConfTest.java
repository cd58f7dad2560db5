package jinx.kernel.internal.cycle;

import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import jinx.kernel.ConfException;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every configuration error the dispatcher, the tokenizer and the value slots report, each with its full
 * message, nginx's text followed by {@code in <absolute file>:<line>}.
 */
class BadConfTest {

    @TempDir
    Path tmp;

    private CycleFixture fx;

    @BeforeEach
    void fixture() {
        fx = new CycleFixture(tmp);
    }

    @AfterEach
    void closeLogs() {
        fx.close();
    }

    /** The configuration, nginx's text of the error, and the line it names. */
    static Stream<Arguments> errors() {
        return Stream.of(
            // the dispatcher (ngx_conf_handler)
            Arguments.of("daemon off;\nfoo bar;\n", "unknown directive \"foo\"", 2),
            Arguments.of("a_flag on;\n", "\"a_flag\" directive is not allowed here", 1),
            Arguments.of("testblock {\n    worker_processes 2;\n}\n",
                "\"worker_processes\" directive is not allowed here", 2),
            Arguments.of("\n\nworker_processes 1 2;\n", "invalid number of arguments in \"worker_processes\" directive",
                3),
            Arguments.of("daemon;\n", "invalid number of arguments in \"daemon\" directive", 1),
            Arguments.of("daemon on off;\n", "invalid number of arguments in \"daemon\" directive", 1),
            Arguments.of("env;\n", "invalid number of arguments in \"env\" directive", 1),
            Arguments.of("include;\n", "invalid number of arguments in \"include\" directive", 1),
            Arguments.of("error_log;\n", "invalid number of arguments in \"error_log\" directive", 1),
            Arguments.of("testblock x {\n}\n", "invalid number of arguments in \"testblock\" directive", 1),
            Arguments.of("daemon on;\ndaemon off;\n", "\"daemon\" directive is duplicate", 2),
            Arguments.of("testblock {\n    a_size 1k;\n    a_size 2k;\n}\n", "\"a_size\" directive is duplicate", 3),
            Arguments.of("testblock;\n", "directive \"testblock\" has no opening \"{\"", 1),
            Arguments.of("daemon off {\n}\n", "directive \"daemon\" is not terminated by \";\"", 1),
            // nesting (ngx_conf_parse)
            Arguments.of("}\n", "unexpected \"}\"", 1),
            Arguments.of("daemon off;\n}\n", "unexpected \"}\"", 2),
            Arguments.of("testblock {\n}\n}\n", "unexpected \"}\"", 3),
            Arguments.of("testblock {\n    a_flag on;\n", "unexpected end of file, expecting \"}\"", 3),
            Arguments.of("testblock {", "unexpected end of file, expecting \"}\"", 1),
            // the tokenizer (ngx_conf_read_token)
            Arguments.of("daemon \"off;\n\n", "unexpected end of file, expecting \";\" or \"}\"", 3),
            Arguments.of("daemon 'off;", "unexpected end of file, expecting \";\" or \"}\"", 1),
            Arguments.of("daemon off", "unexpected end of file, expecting \";\" or \"}\"", 1),
            Arguments.of("daemon off\n", "unexpected end of file, expecting \";\" or \"}\"", 2),
            Arguments.of("testblock {\n    a_flag on\n}\n", "unexpected \"}\"", 3),
            Arguments.of(";\n", "unexpected \";\"", 1),
            Arguments.of("daemon \"off\"x;\n", "unexpected \"x\"", 1),
            // values (the ngx_conf_set_*_slot functions and the core module's handlers)
            Arguments.of("testblock {\n    a_size 10x;\n}\n", "\"a_size\" directive invalid value", 2),
            Arguments.of("testblock { a_size 1g; }\n", "\"a_size\" directive invalid value", 1),
            Arguments.of("testblock { a_size -1; }\n", "\"a_size\" directive invalid value", 1),
            Arguments.of("testblock { a_msec 5q; }\n", "\"a_msec\" directive invalid value", 1),
            Arguments.of("testblock { a_msec 1y; }\n", "\"a_msec\" directive invalid value", 1),
            Arguments.of("testblock { a_msec 1s1m; }\n", "\"a_msec\" directive invalid value", 1),
            Arguments.of("timer_resolution fast;\n", "\"timer_resolution\" directive invalid value", 1),
            Arguments.of("worker_shutdown_timeout 10x;\n", "\"worker_shutdown_timeout\" directive invalid value", 1),
            Arguments.of("worker_warmup on;\n", "\"worker_warmup\" directive invalid value", 1),
            Arguments.of("worker_rlimit_core 1t;\n", "\"worker_rlimit_core\" directive invalid value", 1),
            Arguments.of("testblock { a_number 12a; }\n", "\"a_number\" directive invalid number", 1),
            Arguments.of("testblock { a_number 99999999999; }\n", "\"a_number\" directive invalid number", 1),
            Arguments.of("worker_rlimit_nofile -1;\n", "\"worker_rlimit_nofile\" directive invalid number", 1),
            Arguments.of("worker_processes many;\n", "\"worker_processes\" directive invalid value", 1),
            Arguments.of("worker_priority high;\n", "\"worker_priority\" directive invalid number", 1),
            Arguments.of("worker_priority -;\n", "\"worker_priority\" directive invalid number", 1),
            Arguments.of("daemon yes;\n", "invalid value \"yes\" in \"daemon\" directive, it must be \"on\" or \"off\"",
                1),
            Arguments.of("testblock { a_flag 1; }\n",
                "invalid value \"1\" in \"a_flag\" directive, it must be \"on\" or \"off\"", 1),
            Arguments.of("testblock {\n    a_mode sometimes;\n}\n", "invalid value \"sometimes\"", 2),
            Arguments.of("worker_cpu_affinity 0102;\n", "invalid character \"2\" in \"worker_cpu_affinity\"", 1),
            Arguments.of("worker_cpu_affinity auto 01 10;\n",
                "invalid number of arguments in \"worker_cpu_affinity\" directive", 1),
            Arguments.of("worker_cpu_affinity " + "0".repeat(1025) + ";\n",
                "\"worker_cpu_affinity\" supports up to 1024 CPUs only", 1),
            Arguments.of("error_log stderr verbose;\n", "invalid log level \"verbose\"", 1),
            Arguments.of("error_log stderr warn error;\n", "duplicate log level \"error\"", 1),
            Arguments.of("error_log syslog:server=127.0.0.1;\n", "\"syslog\" logging is not supported", 1),
            // a NUL byte in a file name (ConfFuzzTest's finding, issue #36): the file system refuses the name
            // (nginx's C strings would end the name there), so the directive refuses it at its own line
            Arguments.of("daemon off;\nerror_log \"logs/a\0b\";\n", "\"error_log\" directive invalid value", 2),
            Arguments.of("pid \"a\0b\";\n", "\"pid\" directive invalid value", 1),
            Arguments.of("\nworking_directory \"/tmp/a\0b\";\n", "\"working_directory\" directive invalid value", 2),
            Arguments.of("include \"a\0b\";\n", "\"include\" directive invalid value", 1));
    }

    @ParameterizedTest(name = "{index}: {1}")
    @MethodSource("errors")
    @Timeout(10)
    void errorHasNginxTextAndPlace(String conf, String text, int line) throws Exception {
        ConfException e = fx.fail(conf);

        assertEquals(fx.at(text, line), e.getMessage());
        assertEquals(text, e.text());
        assertEquals(fx.confFile().toString(), e.file());
        assertEquals(line, e.line());
    }

    @Test
    @Timeout(10)
    void duplicateAcrossAnInclude() throws Exception {
        Path inc = fx.write("conf/inc.conf", "env B;\n\ndaemon on;\n");

        ConfException e = fx.fail("daemon off;\ninclude inc.conf;\n");

        assertEquals("\"daemon\" directive is duplicate in " + inc + ":3", e.getMessage());
    }

    @Test
    @Timeout(10)
    void duplicateAcrossAnIncludeInsideTheBlock() throws Exception {
        Path inc = fx.write("conf/inc.conf", "a_str two;\n");

        ConfException e = fx.fail("testblock {\n    a_str one;\n    include inc.conf;\n}\n");

        assertEquals("\"a_str\" directive is duplicate in " + inc + ":1", e.getMessage());
    }

    @Test
    @Timeout(10)
    void duplicateAcrossParamsAndFile() throws Exception {
        fx.params = "worker_processes 2;";

        ConfException e = fx.fail("\nworker_processes 4;\n");

        assertEquals(fx.at("\"worker_processes\" directive is duplicate", 2), e.getMessage());
    }

    @Test
    @Timeout(10)
    void sameDirectiveInTwoContextsIsNoDuplicate() throws Exception {
        // a_str once in the block, c_str once in main: each context counts its own
        KernelCycle cycle = fx.build("c_str x;\ntestblock { a_str x; b_str x; }\n");

        assertEquals("x", cycle.conf("tmod_b", CycleFixture.TestConf.class).str);
    }
}
