package jinx.http.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import jinx.http.spi.BodyFilter;
import jinx.http.spi.HeaderFilter;
import jinx.kernel.Rc;

import org.junit.jupiter.api.Test;

class FilterLinksTest {

    @Test
    void headerLinksRunTheirFilterThenTheRestEachLinkAClassOfItsOwn() {
        List<String> ran = new ArrayList<>();
        HeaderFilter.Next end = r -> {
            ran.add("end");
            return Rc.OK;
        };
        HeaderFilter.Next second = FilterLinks.header((r, next) -> {
            ran.add("second");
            return next.filter(r);
        }, end);
        HeaderFilter.Next first = FilterLinks.header((r, next) -> {
            ran.add("first");
            return next.filter(r);
        }, second);

        assertEquals(Rc.OK, first.filter(null));
        assertEquals(List.of("first", "second", "end"), ran);
        assertNotEquals(first.getClass(), second.getClass(), "each link is its own class: its own call profile");
        assertTrue(first.getClass().isHidden());
    }

    @Test
    void bodyLinksPassTheBuffersAndAFilterMayStopTheChain() {
        List<String> ran = new ArrayList<>();
        BodyFilter.Next end = (r, in) -> {
            ran.add("end");
            return Rc.OK;
        };
        BodyFilter.Next stop = FilterLinks.body((r, in, next) -> {
            ran.add("stop");
            return Rc.AGAIN;
        }, end);
        BodyFilter.Next first = FilterLinks.body((r, in, next) -> {
            ran.add("first " + (in == null));
            return next.filter(r, in);
        }, stop);

        assertEquals(Rc.AGAIN, first.filter(null, null));
        assertEquals(List.of("first true", "stop"), ran);
        assertNotEquals(first.getClass(), stop.getClass());
    }
}
