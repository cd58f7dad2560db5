package jinx.kernel.os;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every {@link MemoryAccess} this JVM has does what the others do (issue #36): the path without
 * {@code sun.misc.Unsafe} ({@code jffi} on every JDK, {@code ffm} on Java 22+) is tested on 17 and 25 alike, and
 * the probe picks the FFM API where it is final.
 */
@Timeout(10)
class MemoryAccessTest {

    private static List<MemoryAccess> available() {
        List<MemoryAccess> all = new ArrayList<>();
        for (String name : List.of("ffm", "unsafe", "jffi")) {
            try {
                all.add(MemoryAccess.of(name));
            } catch (UnsupportedOperationException e) {
                // not on this JVM: the tests below say which must be there
            }
        }
        return all;
    }

    @Test
    void theProbeTakesTheFfmApiFromJava22AndUnsafeBefore() {
        int feature = Runtime.version().feature();
        // the suite's JVMs on 22+ grant native access (the pom's java22 profile), as bin/jinx and the workers do
        assertEquals(feature >= 22 ? "ffm" : "unsafe", NativeMemory.access());
        assertEquals(feature >= 22 ? "ffm" : "unsafe", MemoryAccess.probe().name());
        assertEquals("jffi", MemoryAccess.of("jffi").name());
        assertThrows(IllegalArgumentException.class, () -> MemoryAccess.of("varhandles"));
    }

    @Test
    void theForeignApiIsThereFromJava22Only() {
        if (Runtime.version().feature() >= 22) {
            assertEquals("ffm", MemoryAccess.of("ffm").name());
        } else {
            assertThrows(UnsupportedOperationException.class, () -> MemoryAccess.of("ffm"));
        }
    }

    @Test
    void everyImplementationReadsAndWritesTheSameBytes() {
        List<MemoryAccess> all = available();
        assumeTrue(all.size() >= 2, "one implementation only");
        try (NativeMemory mem = new NativeMemory()) {
            long a = mem.allocate(64);
            ByteBuffer view = NativeMemory.view(a, 64);
            for (MemoryAccess m : all) {
                String n = m.name();
                NativeMemory.fill(a, 64, (byte) 0);
                // unaligned on purpose: struct fields in packed layouts and parsers' reads at any offset
                m.putInt(a + 1, 0x01020304);
                m.putLong(a + 9, -2L);
                m.putShort(a + 19, (short) 0x7f01);
                m.putByte(a + 21, (byte) 0xff);
                assertEquals(0x01020304, view.order(ByteOrder.nativeOrder()).getInt(1), n);
                assertEquals(-2L, view.getLong(9), n);
                assertEquals((short) 0x7f01, view.getShort(19), n);
                assertEquals((byte) 0xff, view.get(21), n);
                for (MemoryAccess other : all) {
                    assertEquals(0x01020304, other.getInt(a + 1), n + " then " + other.name());
                    assertEquals(-2L, other.getLong(a + 9), n + " then " + other.name());
                    assertEquals((short) 0x7f01, other.getShort(a + 19), n + " then " + other.name());
                    assertEquals((byte) 0xff, other.getByte(a + 21), n + " then " + other.name());
                }
                assertEquals(a, m.address(view), n);

                byte[] bytes = {1, 2, 3, 4, 5};
                m.put(a + 30, bytes, 1, 3);
                m.copy(a + 30, a + 40, 3);
                byte[] back = new byte[5];
                m.get(a + 40, back, 2, 3);
                assertArrayEquals(new byte[] {0, 0, 2, 3, 4}, back, n);
            }
        }
    }
}
