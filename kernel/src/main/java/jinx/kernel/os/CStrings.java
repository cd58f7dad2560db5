package jinx.kernel.os;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * C strings and the NULL-terminated {@code char *} arrays {@code posix_spawnp} and {@code execve} take
 * ({@code argv}, {@code envp}). Java strings are byte strings here, one char per byte (ISO-8859-1), as the
 * configuration tokenizer makes them and as {@link Processes#environment()} and {@link Processes#commandLine()}
 * read them back, so bytes survive a round trip unchanged.
 */
final class CStrings {

    private static final int POINTER = Platform.SIZEOF_POINTER;

    private CStrings() {
    }

    /**
     * Returns a string's bytes with a terminating NUL.
     *
     * @param s the string, without NUL
     * @return the C string
     */
    static byte[] bytes(String s) {
        if (s.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a NUL byte in \"" + s.replace('\0', '?') + "\"");
        }
        byte[] b = new byte[s.length() + 1];
        byte[] chars = s.getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(chars, 0, b, 0, chars.length);
        return b;
    }

    /**
     * Builds a NULL-terminated array of C strings in one allocation: {@code n + 1} pointers, then the strings.
     * Free it with {@link NativeMemory#freeTemporary(long)}.
     *
     * @param strings the strings
     * @return the array's address ({@code char **})
     */
    static long array(List<String> strings) {
        int n = strings.size();
        byte[][] bytes = new byte[n][];
        long size = (long) (n + 1) * POINTER;
        for (int i = 0; i < n; i++) {
            bytes[i] = bytes(strings.get(i));
            size += bytes[i].length;
        }
        long block = NativeMemory.allocateTemporary(size);
        long p = block + (long) (n + 1) * POINTER;
        for (int i = 0; i < n; i++) {
            NativeMemory.putLong(block + (long) i * POINTER, p);
            NativeMemory.put(p, bytes[i], 0, bytes[i].length);
            p += bytes[i].length;
        }
        return block;
    }

    /**
     * Reads a NULL-terminated array of C strings.
     *
     * @param array its address ({@code char **})
     * @return the strings
     */
    static List<String> read(long array) {
        List<String> strings = new ArrayList<>();
        for (long p = array; ; p += POINTER) {
            long s = NativeMemory.getLong(p);
            if (s == 0) {
                return strings;
            }
            strings.add(read1(s));
        }
    }

    private static String read1(long s) {
        int len = 0;
        while (NativeMemory.getByte(s + len) != 0) {
            len++;
        }
        byte[] b = new byte[len];
        NativeMemory.get(s, b, 0, len);
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
