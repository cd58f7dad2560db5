package jinx.kernel.os;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * {@link MemoryAccess} through the Foreign Function and Memory API (Java 22+), the path that survives
 * {@code sun.misc.Unsafe}'s removal (issue #36). Every address is an offset into one {@code MemorySegment} that
 * spans the address space ({@code MemorySegment.NULL.reinterpret(Long.MAX_VALUE)}, a restricted method: the module
 * needs native access), read and written with the unaligned layouts' {@code VarHandle}s; the JIT compiles them to
 * plain loads and stores as it does Unsafe's.
 *
 * <p>The build targets Java 17, which has no {@code java.lang.foreign}: the handles are looked up reflectively
 * once, with the segment bound in, into {@code static final} method handles of primitive types only, which
 * {@code invokeExact} calls without boxing and the JIT inlines as constants. A direct buffer's address is read
 * by JNI ({@code GetDirectBufferAddress}, through jffi): {@code MemorySegment.ofBuffer} would allocate a segment
 * and a session per call.
 */
final class ForeignMemoryAccess extends MemoryAccess {

    private static final MethodHandle GET_BYTE;
    private static final MethodHandle PUT_BYTE;
    private static final MethodHandle GET_SHORT;
    private static final MethodHandle PUT_SHORT;
    private static final MethodHandle GET_INT;
    private static final MethodHandle PUT_INT;
    private static final MethodHandle GET_LONG;
    private static final MethodHandle PUT_LONG;
    /** {@code (byte[] src, int index, long address, int length)void} */
    private static final MethodHandle FROM_ARRAY;
    /** {@code (long address, byte[] dst, int index, int length)void} */
    private static final MethodHandle TO_ARRAY;
    /** {@code (long src, long dst, long length)void} */
    private static final MethodHandle COPY;
    private static final Throwable FAILURE;

    static {
        MethodHandle[] h = new MethodHandle[11];
        Throwable failure = null;
        try {
            lookUp(h);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            failure = e;
        }
        GET_BYTE = h[0];
        PUT_BYTE = h[1];
        GET_SHORT = h[2];
        PUT_SHORT = h[3];
        GET_INT = h[4];
        PUT_INT = h[5];
        GET_LONG = h[6];
        PUT_LONG = h[7];
        FROM_ARRAY = h[8];
        TO_ARRAY = h[9];
        COPY = h[10];
        FAILURE = failure;
    }

    private ForeignMemoryAccess() {
    }

    /**
     * Returns the implementation.
     *
     * @return it
     * @throws UnsupportedOperationException before Java 22, or when the segment could not be made
     */
    static ForeignMemoryAccess create() {
        if (FAILURE != null) {
            throw new UnsupportedOperationException("java.lang.foreign: " + FAILURE, FAILURE);
        }
        return new ForeignMemoryAccess();
    }

    private static void lookUp(MethodHandle[] h) throws ReflectiveOperationException {
        Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
        Class<?> valueLayout = Class.forName("java.lang.foreign.ValueLayout");
        Object all = segment.getMethod("reinterpret", long.class).invoke(segment.getField("NULL").get(null),
            Long.MAX_VALUE);
        String[] layouts = {"JAVA_BYTE", "JAVA_SHORT_UNALIGNED", "JAVA_INT_UNALIGNED", "JAVA_LONG_UNALIGNED"};
        Class<?>[] types = {byte.class, short.class, int.class, long.class};
        for (int i = 0; i < layouts.length; i++) {
            Object l = valueLayout.getField(layouts[i]).get(null);
            // (MemorySegment, long offset): the segment bound, the offset is the address
            VarHandle vh = (VarHandle) valueLayout.getMethod("varHandle").invoke(l);
            h[2 * i] = MethodHandles.insertArguments(vh.toMethodHandle(VarHandle.AccessMode.GET), 0, all)
                .asType(MethodType.methodType(types[i], long.class));
            h[2 * i + 1] = MethodHandles.insertArguments(vh.toMethodHandle(VarHandle.AccessMode.SET), 0, all)
                .asType(MethodType.methodType(void.class, long.class, types[i]));
        }
        Object javaByte = valueLayout.getField("JAVA_BYTE").get(null);
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        // MemorySegment.copy(Object srcArray, int srcIndex, MemorySegment dst, ValueLayout dstLayout, long dstOffset,
        // int elementCount)
        MethodHandle fromArray = lookup.findStatic(segment, "copy", MethodType.methodType(void.class, Object.class,
            int.class, segment, valueLayout, long.class, int.class));
        h[8] = MethodHandles.insertArguments(fromArray, 2, all, javaByte)
            .asType(MethodType.methodType(void.class, byte[].class, int.class, long.class, int.class));
        // MemorySegment.copy(MemorySegment src, ValueLayout srcLayout, long srcOffset, Object dstArray, int dstIndex,
        // int elementCount)
        MethodHandle toArray = lookup.findStatic(segment, "copy", MethodType.methodType(void.class, segment,
            valueLayout, long.class, Object.class, int.class, int.class));
        h[9] = MethodHandles.insertArguments(toArray, 0, all, javaByte)
            .asType(MethodType.methodType(void.class, long.class, byte[].class, int.class, int.class));
        // MemorySegment.copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long bytes)
        MethodHandle copy = lookup.findStatic(segment, "copy", MethodType.methodType(void.class, segment, long.class,
            segment, long.class, long.class));
        copy = MethodHandles.insertArguments(copy, 2, all);
        h[10] = MethodHandles.insertArguments(copy, 0, all);
    }

    @Override
    String name() {
        return "ffm";
    }

    @Override
    byte getByte(long address) {
        try {
            return (byte) GET_BYTE.invokeExact(address);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    void putByte(long address, byte value) {
        try {
            PUT_BYTE.invokeExact(address, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    short getShort(long address) {
        try {
            return (short) GET_SHORT.invokeExact(address);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    void putShort(long address, short value) {
        try {
            PUT_SHORT.invokeExact(address, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    int getInt(long address) {
        try {
            return (int) GET_INT.invokeExact(address);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    void putInt(long address, int value) {
        try {
            PUT_INT.invokeExact(address, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    long getLong(long address) {
        try {
            return (long) GET_LONG.invokeExact(address);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    void putLong(long address, long value) {
        try {
            PUT_LONG.invokeExact(address, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    long address(ByteBuffer direct) {
        return JffiMemoryAccess.IO.getDirectBufferAddress(direct);
    }

    @Override
    void put(long address, byte[] src, int offset, int length) {
        try {
            FROM_ARRAY.invokeExact(src, offset, address, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    void get(long address, byte[] dst, int offset, int length) {
        try {
            TO_ARRAY.invokeExact(address, dst, offset, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    void copy(long src, long dst, long length) {
        try {
            COPY.invokeExact(src, dst, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The handles throw only what the segment's checks throw, unchecked; anything else is a bug here. */
    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException) {
            return (RuntimeException) t;
        }
        if (t instanceof Error) {
            throw (Error) t;
        }
        return new IllegalStateException(t);
    }
}
