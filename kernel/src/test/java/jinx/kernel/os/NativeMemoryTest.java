package jinx.kernel.os;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link NativeMemory}: slabs, views, field access, explicit freeing.
 */
@Timeout(10)
class NativeMemoryTest {

    @Test
    void slabsAreZeroedAndFreed() {
        try (NativeMemory mem = new NativeMemory()) {
            long a = mem.allocate(64);
            long b = mem.allocate(4096);
            assertTrue(a != 0 && b != 0);
            assertEquals(0L, NativeMemory.getLong(a + 56));
            assertEquals(2, mem.slabs());
            mem.free(a);
            assertEquals(1, mem.slabs());
            assertThrows(IllegalArgumentException.class, () -> mem.free(a));
            for (int i = 0; i < 20; i++) {
                mem.allocate(8);
            }
            assertEquals(21, mem.slabs());
            mem.close();
            assertEquals(0, mem.slabs());
            assertThrows(IllegalStateException.class, () -> mem.allocate(8));
        }
    }

    @Test
    void fieldsAndViewsShareTheMemory() {
        try (NativeMemory mem = new NativeMemory()) {
            long a = mem.allocate(32);
            NativeMemory.putInt(a, 0x01020304);
            NativeMemory.putLong(a + 8, -2L);
            NativeMemory.putShort(a + 16, (short) 0x7f01);
            NativeMemory.putByte(a + 18, (byte) 0xff);
            ByteBuffer view = NativeMemory.view(a, 32);
            assertEquals(ByteOrder.nativeOrder(), view.order());
            assertEquals(0x01020304, view.getInt(0));
            assertEquals(-2L, view.getLong(8));
            assertEquals((short) 0x7f01, view.getShort(16));
            view.put(20, (byte) 42);
            assertEquals(42, NativeMemory.getByte(a + 20));
            assertEquals(a, NativeMemory.address(view));
            assertEquals(0xffL, NativeMemory.getUnsigned(a + 18, 1));
            assertEquals(0xfffffffeL, NativeMemory.getUnsigned(a + 8, 4));
            NativeMemory.putUnsigned(a + 24, 2, 0x12345);
            assertEquals(0x2345, NativeMemory.getUnsigned(a + 24, 2));

            byte[] bytes = {1, 2, 3, 4, 5};
            NativeMemory.put(a, bytes, 1, 3);
            byte[] back = new byte[3];
            NativeMemory.get(a, back, 0, 3);
            assertArrayEquals(new byte[] {2, 3, 4}, back);
            NativeMemory.fill(a, 32, (byte) 0);
            assertEquals(0L, NativeMemory.getLong(a + 8));
        }
    }

    @Test
    void heapBuffersHaveNoAddress() {
        assertThrows(IllegalArgumentException.class, () -> NativeMemory.address(ByteBuffer.allocate(8)));
    }
}
