package jinx.kernel.internal.cycle;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import jinx.kernel.ConfException;
import jinx.kernel.CoreConf;
import jinx.kernel.internal.cycle.CycleFixture.TestConf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ConfParser}: {@code include} (missing files, globs, relative names, recursion), {@code -g}
 * directives, and configurations that are very large or not text at all.
 */
class ConfParserTest {

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

    private static List<String> env(KernelCycle cycle) {
        return cycle.conf("core", CoreConf.class).env;
    }

    // ---- include

    @Test
    @Timeout(10)
    void includeOfMissingFileSaysWhatOpenSaidWhereTheIncludeIs() throws Exception {
        ConfException e = fx.fail("daemon off;\ninclude missing.conf;\n");

        // nginx: open() "/abs/missing.conf" failed (2: No such file or directory) in /abs/nginx.conf:2
        Path missing = fx.confFile().resolveSibling("missing.conf");
        assertEquals(fx.at("open() \"" + missing + "\" failed (2: No such file or directory)", 2), e.getMessage());
    }

    @Test
    @Timeout(10)
    void missingMainFileHasNoPlace() {
        ConfException e = fx.fail(fx.confFile(), fx.standard(), null);

        assertEquals("open() \"" + fx.confFile() + "\" failed (2: No such file or directory)", e.getMessage());
    }

    @Test
    @Timeout(10)
    void globMatchingNothingIsNoError() throws Exception {
        KernelCycle cycle = fx.build("include sites/*.conf;\ninclude nodir*/x.conf;\nenv AFTER;\n");

        assertEquals(List.of("AFTER"), env(cycle));
    }

    @Test
    @Timeout(10)
    void globIncludesItsMatchesInSortedOrder() throws Exception {
        // written out of order; the hidden file and the other suffix are not matched, as glob(3)
        fx.write("conf/parts/c.conf", "env C;\n");
        fx.write("conf/parts/a.conf", "env A;\n");
        fx.write("conf/parts/10.conf", "env TEN;\n");
        fx.write("conf/parts/b.conf", "env B;\n");
        fx.write("conf/parts/.hidden.conf", "env HIDDEN;\n");
        fx.write("conf/parts/d.txt", "env TXT;\n");
        fx.write("conf/block/2.conf", "a_list two;\n");
        fx.write("conf/block/1.conf", "a_list one;\n");

        KernelCycle cycle = fx.build("include parts/*.conf;\ntestblock {\n    include block/?.conf;\n}\n");

        assertEquals(List.of("TEN", "A", "B", "C"), env(cycle));
        assertEquals(List.of("one", "two"), cycle.conf("tmod_a", TestConf.class).list);
        List<Path> files = new ArrayList<>();
        for (KernelCycle.ConfFile f : cycle.files()) {
            files.add(f.path());
        }
        Path conf = fx.confFile().getParent();
        assertEquals(List.of(fx.confFile(), conf.resolve("parts/10.conf"), conf.resolve("parts/a.conf"),
            conf.resolve("parts/b.conf"), conf.resolve("parts/c.conf"), conf.resolve("block/1.conf"),
            conf.resolve("block/2.conf")), files, "the files read, in the order read (for -T)");
    }

    @Test
    @Timeout(10)
    void includeIsRelativeToTheMainConfigurationsDirectory() throws Exception {
        // conf/jinx.conf includes conf/sub/first.conf, which includes "second.conf"
        fx.write("conf/sub/first.conf", "include second.conf;\n");
        fx.write("conf/second.conf", "env MAIN_CONF_DIR;\n");
        fx.write("conf/sub/second.conf", "env INCLUDING_FILE_DIR;\n");
        fx.write("second.conf", "env PREFIX;\n");

        KernelCycle cycle = fx.build("include sub/first.conf;\n");

        assertEquals(List.of("MAIN_CONF_DIR"), env(cycle));
    }

    @Test
    @Timeout(10)
    void sameFileMayBeIncludedTwiceOneAfterTheOther() throws Exception {
        fx.write("conf/x.conf", "env X;\n");

        KernelCycle cycle = fx.build("include x.conf;\ninclude x.conf;\n");

        assertEquals(List.of("X", "X"), env(cycle));
    }

    @Test
    @Timeout(10)
    void includeOfItselfIsRecursive() throws Exception {
        ConfException e = fx.fail("env A;\ninclude jinx.conf;\n");

        assertEquals(fx.at("include of \"" + fx.confFile() + "\" is recursive", 2), e.getMessage());
    }

    @Test
    @Timeout(10)
    void includeLoopThroughOtherFilesIsRecursive() throws Exception {
        Path a = fx.write("conf/a.conf", "include b.conf;\n");
        Path b = fx.write("conf/b.conf", "\n\ninclude a.conf;\n");

        ConfException e = fx.fail("include a.conf;\n");

        assertEquals("include of \"" + a + "\" is recursive in " + b + ":3", e.getMessage());
    }

    @Test
    @Timeout(10)
    void globMatchingTheIncludingFileIsRecursive() throws Exception {
        fx.write("conf/extra.conf", "env EXTRA;\n");

        ConfException e = fx.fail("include *.conf;\n");

        assertEquals(fx.at("include of \"" + fx.confFile() + "\" is recursive", 1), e.getMessage());
    }

    @Test
    @Timeout(10)
    void deepChainOfIncludesIsNoRecursion() throws Exception {
        for (int i = 0; i < 100; i++) {
            fx.write("conf/chain/" + i + ".conf", "include chain/" + (i + 1) + ".conf;\n");
        }
        fx.write("conf/chain/100.conf", "env END;\n");

        KernelCycle cycle = fx.build("include chain/0.conf;\n");

        assertEquals(List.of("END"), env(cycle));
        assertEquals(102, cycle.files().size());
    }

    @Test
    @Timeout(10)
    void errorInIncludedFileNamesThatFileAndLine() throws Exception {
        Path bad = fx.write("conf/bad.conf", "env A;\n\nfoo bar;\n");

        ConfException e = fx.fail("include bad.conf;\n");

        assertEquals("unknown directive \"foo\" in " + bad + ":3", e.getMessage());
    }

    @Test
    @Timeout(10)
    void closingBraceAtTheTopOfAnIncludedFileIsUnexpectedEvenInABlock() throws Exception {
        Path close = fx.write("conf/close.conf", "a_str x;\n}\n");

        ConfException e = fx.fail("testblock {\n    include close.conf;\n}\n");

        assertEquals("unexpected \"}\" in " + close + ":2", e.getMessage());
    }

    // ---- -g

    @Test
    @Timeout(10)
    void paramsAreParsedBeforeTheFile() throws Exception {
        fx.params = "env FROM_G; worker_processes 3;";

        KernelCycle cycle = fx.build("env FROM_FILE;\n");

        assertEquals(List.of("FROM_G", "FROM_FILE"), env(cycle));
        assertEquals(3, cycle.conf("core", CoreConf.class).workerProcesses);
    }

    @Test
    @Timeout(10)
    void paramsMayIncludeRelativeToTheMainConfigurationsDirectory() throws Exception {
        fx.write("conf/extra.conf", "env EXTRA;\n");
        fx.params = "include extra.conf;";

        KernelCycle cycle = fx.build("env FILE;\n");

        assertEquals(List.of("EXTRA", "FILE"), env(cycle));
    }

    @Test
    @Timeout(10)
    void paramErrorsSayCommandLine() throws Exception {
        fx.params = "daemon off; nope;";
        assertEquals("unknown directive \"nope\" in command line", fx.fail("").getMessage());

        fx.params = "worker_processes lots;";
        assertEquals("\"worker_processes\" directive invalid value in command line", fx.fail("").getMessage());

        fx.params = "a_flag on;";
        assertEquals("\"a_flag\" directive is not allowed here in command line", fx.fail("").getMessage());

        fx.params = "daemon off; daemon on;";
        assertEquals("\"daemon\" directive is duplicate in command line", fx.fail("").getMessage());

        fx.params = "}";
        assertEquals("unexpected \"}\" in command line", fx.fail("").getMessage());
    }

    @Test
    @Timeout(10)
    void paramWithABlockIsRefused() throws Exception {
        fx.params = "testblock { a_flag on; }";

        assertEquals("block directives are not supported in -g option in command line", fx.fail("").getMessage());
    }

    @Test
    @Timeout(10)
    void paramWithoutSemicolonEndsTheParameter() throws Exception {
        fx.params = "daemon off";

        // nginx's ngx_conf_read_token() words it so when the text is -g's, not a file's
        assertEquals("unexpected end of parameter, expecting \";\" in command line", fx.fail("").getMessage());
    }

    @Test
    @Timeout(10)
    void paramAndFileShareTheMainContextForDuplicates() throws Exception {
        fx.params = "daemon off;";

        // the classic: nginx -g "daemon off;" with daemon in nginx.conf
        assertEquals(fx.at("\"daemon\" directive is duplicate", 2), fx.fail("env A;\ndaemon on;\n").getMessage());
    }

    // ---- size and content

    @Test
    @Timeout(30)
    void tenMegabyteConfigurationIsParsedInSeconds() throws Exception {
        StringBuilder conf = new StringBuilder(11 << 20);
        int n = 0;
        conf.append("testblock {\n");
        while (conf.length() < 5 << 20) {
            conf.append("    a_list value_").append(n++).append(";  # a comment\n");
        }
        conf.append("}\n");
        int envs = 0;
        while (conf.length() < 10 << 20) {
            conf.append("env \"VAR_").append(envs++).append("=some value\";\n");
        }
        conf.append("worker_processes 2;\n");

        long start = System.nanoTime();
        KernelCycle cycle = fx.build(conf.toString());
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertEquals(n, cycle.conf("tmod_a", TestConf.class).list.size());
        assertEquals("value_" + (n - 1), cycle.conf("tmod_a", TestConf.class).list.get(n - 1));
        assertEquals(envs, env(cycle).size());
        assertEquals(2, cycle.conf("core", CoreConf.class).workerProcesses);
        assertTrue(millis < 20_000, "took " + millis + " ms");
    }

    @Test
    @Timeout(30)
    void binaryFileIsAConfigurationErrorNeverAnotherException() throws Exception {
        Pattern placed = Pattern.compile(".* in " + Pattern.quote(fx.confFile().toString()) + ":[0-9]+",
            Pattern.DOTALL);
        for (long seed = 0; seed < 50; seed++) {
            Random random = new Random(seed);
            byte[] content = new byte[seed == 0 ? 1 << 20 : 1 + random.nextInt(16 << 10)];
            random.nextBytes(content);
            fx.write("conf/jinx.conf", content);

            ConfException e = fx.fail(fx.confFile(), fx.standard(), null);

            assertNotNull(e.text(), "seed " + seed);
            assertTrue(placed.matcher(e.getMessage()).matches(), "seed " + seed + ": " + e.getMessage());
        }
    }

    @Test
    @Timeout(10)
    void textIsReadByteForByte() throws Exception {
        byte[] utf8 = "c_str \"caf\u00e9 \u2713\";\n".getBytes(StandardCharsets.UTF_8);
        fx.write("conf/jinx.conf", utf8);

        KernelCycle cycle = fx.build(fx.confFile(), fx.standard(), null);

        String value = cycle.conf("tcore", TestConf.class).str;
        assertEquals("caf\u00e9 \u2713", new String(value.getBytes(StandardCharsets.ISO_8859_1),
            StandardCharsets.UTF_8));
    }
}
