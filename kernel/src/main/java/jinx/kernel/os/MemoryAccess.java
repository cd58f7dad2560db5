package jinx.kernel.os;

import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * How {@link NativeMemory} reads and writes native addresses: one of three implementations, chosen once per JVM
 * by {@link #probe()} (issue #36: {@code sun.misc.Unsafe}'s memory access is deprecated for removal, JEP 471).
 * <ul>
 *   <li>{@code ffm}: the Foreign Function and Memory API (final in Java 22) on one segment spanning the address
 *       space; compiled to plain loads and stores as Unsafe's are. Used on Java 22+ when this module has native
 *       access ({@code --enable-native-access}: {@code reinterpret} is a restricted method);</li>
 *   <li>{@code unsafe}: {@code sun.misc.Unsafe}, the fast path on Java 17 to 21, which have no final FFM API;</li>
 *   <li>{@code jffi}: jnr's own memory API (jffi's {@code MemoryIO}), everywhere and on neither; slower where jffi
 *       itself does not use Unsafe (a JNI call per access).</li>
 * </ul>
 * The system property {@value #PROPERTY} names one to use instead (the tests run each on every JDK they can).
 * {@link NativeMemory} holds the chosen one in a {@code static final} field, so the JIT knows its exact class and
 * inlines it.
 */
abstract class MemoryAccess {

    /** The property that chooses the implementation by name instead of the probe. */
    static final String PROPERTY = "jinx.memory";

    /**
     * Chooses the implementation for this JVM: {@value #PROPERTY} when set, else {@code ffm} on Java 22+ with
     * native access, else {@code unsafe} on Java 17 to 21 where it is there, else {@code jffi}.
     *
     * @return the implementation
     */
    static MemoryAccess probe() {
        String name = System.getProperty(PROPERTY, "");
        if (!name.isEmpty()) {
            return of(name);
        }
        int feature = Runtime.version().feature();
        if (feature >= 22 && nativeAccessEnabled()) {
            return of("ffm");
        }
        if (feature < 22 && unsafePresent()) {
            return of("unsafe");
        }
        return of("jffi");
    }

    /**
     * Returns the implementation of that name.
     *
     * @param name {@code ffm}, {@code unsafe} or {@code jffi}
     * @return a new instance
     * @throws IllegalArgumentException for another name
     * @throws UnsupportedOperationException when this JVM does not have it
     */
    static MemoryAccess of(String name) {
        switch (name) {
            case "ffm": return ForeignMemoryAccess.create();
            case "unsafe": return UnsafeMemoryAccess.create();
            case "jffi": return new JffiMemoryAccess();
            default: throw new IllegalArgumentException(PROPERTY + "=" + name + ": ffm, unsafe or jffi");
        }
    }

    /** Whether this module may call restricted methods without a warning (Java 22's Module.isNativeAccessEnabled). */
    private static boolean nativeAccessEnabled() {
        try {
            Method m = Module.class.getMethod("isNativeAccessEnabled");
            return (Boolean) m.invoke(MemoryAccess.class.getModule());
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    private static boolean unsafePresent() {
        try {
            Class.forName("sun.misc.Unsafe", false, MemoryAccess.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** @return the name {@link #of(String)} takes */
    abstract String name();

    abstract byte getByte(long address);

    abstract void putByte(long address, byte value);

    abstract short getShort(long address);

    abstract void putShort(long address, short value);

    abstract int getInt(long address);

    abstract void putInt(long address, int value);

    abstract long getLong(long address);

    abstract void putLong(long address, long value);

    /** @return a direct buffer's native address (of its first byte, not of its position) */
    abstract long address(ByteBuffer direct);

    /** Copies {@code length} bytes of {@code src} from {@code offset} to native memory (bounds checked before). */
    abstract void put(long address, byte[] src, int offset, int length);

    /** Copies {@code length} bytes of native memory into {@code dst} at {@code offset} (bounds checked before). */
    abstract void get(long address, byte[] dst, int offset, int length);

    /** Copies between native areas that do not overlap. */
    abstract void copy(long src, long dst, long length);
}
