package jinx.kernel.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The merge helpers, as nginx's {@code ngx_conf_merge_*_value} macros: the child's value if set, else the
 * parent's, else the default.
 */
class ConfTest {

    @Test
    void mergeTakesChildThenParentThenDefault() {
        assertEquals(3, Conf.merge(3, 5, 7));
        assertEquals(5, Conf.merge(Conf.UNSET, 5, 7));
        assertEquals(7, Conf.merge(Conf.UNSET, Conf.UNSET, 7));
        // 0 is a value (off, no time), not unset
        assertEquals(0, Conf.merge(0, 5, 7));
        assertEquals(5L, Conf.merge(Conf.UNSET_LONG, 5L, 7L));
        assertEquals(7L, Conf.merge(Conf.UNSET_LONG, Conf.UNSET_LONG, 7L));
        assertEquals("p", Conf.merge(null, "p", "d"));
        assertEquals("d", Conf.merge((String) null, null, "d"));
        assertEquals(9, Conf.init(Conf.UNSET, 9));
        assertEquals(2L, Conf.init(2L, 9L));
    }

    @Test
    void mergeBitmaskTreatsNoBitAsUnset() {
        assertEquals(0b010, Conf.mergeBitmask(0b010, 0b100, 0b001));
        assertEquals(0b100, Conf.mergeBitmask(0, 0b100, 0b001));
        assertEquals(0b001, Conf.mergeBitmask(0, 0, 0b001));
    }
}
