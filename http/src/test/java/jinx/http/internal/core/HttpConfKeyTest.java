package jinx.http.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import jinx.http.spi.HttpConfKey;
import jinx.kernel.spi.JinxModule;

/**
 * Typed keys on a module's confs: made from the module by the configuration, they find its main conf and cast
 * the conf objects a merge receives; a key of the wrong class fails at once.
 */
class HttpConfKeyTest {

    @RegisterExtension
    final HttpConfFixture fx = HttpConfFixture.inTempDir();

    @Test
    void aKeyFindsTheModulesConfs() throws Exception {
        HttpBlockConf block = fx.http("test_main m;\nserver { listen 8080; }");
        JinxModule a = block.cycle().module("http_test_a").module();
        HttpConf cf = new HttpConf(block);
        HttpConfKey<HttpConfFixture.TestMain> main = cf.confKey(a, HttpConfFixture.TestMain.class);
        assertEquals(block.cycle().module("http_test_a").typeIndex(), main.ctxIndex());
        assertSame(block.mainConf("http_test_a", HttpConfFixture.TestMain.class), cf.mainConf(main));
        assertEquals("m", cf.mainConf(main).value);

        HttpConfKey<HttpConfFixture.TestLoc> loc = cf.confKey(a, HttpConfFixture.TestLoc.class);
        Object raw = block.ctx().locConf[loc.ctxIndex()];
        assertSame(raw, loc.cast(raw));
        assertThrows(ClassCastException.class, () -> loc.cast(block.ctx().mainConf[loc.ctxIndex()]));
        assertThrows(IllegalArgumentException.class, () -> HttpConfKey.of(-1, String.class));
    }
}
