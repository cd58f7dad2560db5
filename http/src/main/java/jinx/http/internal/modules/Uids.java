package jinx.http.internal.modules;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Base64;
import java.util.Locale;

/**
 * The identifiers of the userid module, made as nginx's {@code ngx_http_userid_create_uid()} makes them: 16 bytes,
 * four 32-bit words. Version 2 ({@code userid on}) writes each word in network order: the service (or the local
 * IPv4 address, the last four bytes of an IPv6 one), the time, the worker's start value and a sequence starting at
 * {@code 0x03030302} and stepping by {@code 0x100}. Version 1 ({@code userid v1}) writes the service (0 when unset),
 * the time, the start value and a sequence starting at 1, each in the host's (little-endian) order, as nginx on
 * x86 does. The start value is nginx's {@code ((usec / 20) << 16) | pid}, taken when the worker starts.
 *
 * <p>One instance per worker, used on its loop thread only: the sequences are the worker's, as nginx's statics are
 * the process's. Tests give the start value and the time, so a cookie can be compared byte for byte with one
 * nginx made.
 */
final class Uids {

    /** nginx's first version 2 sequence number. */
    static final int SEQUENCE_V2 = 0x03030302;

    private static final String[] WEEK = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
        "Nov", "Dec"};

    private final int startValue;
    private int sequencerV1 = 1;
    private int sequencerV2 = SEQUENCE_V2;

    /**
     * A generator.
     *
     * @param startValue the worker's start value, {@link #startValue(long, long)}
     */
    Uids(int startValue) {
        this.startValue = startValue;
    }

    /**
     * nginx's {@code ngx_http_userid_init_worker()}: the most significant part of the microseconds that fits 16 bits,
     * or-ed with the pid.
     *
     * @param micros the microseconds of the current second
     * @param pid the worker's pid
     * @return the start value
     */
    static int startValue(long micros, long pid) {
        return (int) ((micros / 20) << 16 | pid);
    }

    /**
     * Makes a version 1 identifier.
     *
     * @param service {@code userid_service}, or -1 when unset
     * @param time the time in seconds
     * @return the 16 bytes
     */
    byte[] v1(long service, long time) {
        byte[] uid = new byte[16];
        little(uid, 0, service < 0 ? 0 : (int) service);
        little(uid, 4, (int) time);
        little(uid, 8, startValue);
        little(uid, 12, sequencerV1);
        sequencerV1 += 0x100;
        return uid;
    }

    /**
     * Makes a version 2 identifier.
     *
     * @param first the first four bytes: the service in network order or the local address
     * @param time the time in seconds
     * @return the 16 bytes
     */
    byte[] v2(byte[] first, long time) {
        byte[] uid = new byte[16];
        System.arraycopy(first, 0, uid, 0, 4);
        big(uid, 4, (int) time);
        big(uid, 8, startValue);
        big(uid, 12, sequencerV2);
        sequencerV2 += 0x100;
        // nginx starts again where the sequence wraps (compared as unsigned 32-bit numbers)
        if (Integer.compareUnsigned(sequencerV2, SEQUENCE_V2) < 0) {
            sequencerV2 = SEQUENCE_V2;
        }
        return uid;
    }

    /**
     * The service as nginx's {@code htonl(conf->service)} leaves it in memory.
     *
     * @param service the service
     * @return four bytes, most significant first
     */
    static byte[] network(long service) {
        byte[] b = new byte[4];
        big(b, 0, (int) service);
        return b;
    }

    /**
     * nginx's {@code ngx_http_userid_variable()}: {@code name=} and the four words as eight hexadecimal digits
     * each, a word read in the host's (little-endian) order.
     *
     * @param name the cookie's name
     * @param uid the 16 bytes
     * @return the value of {@code $uid_got} or {@code $uid_set}
     */
    static String text(String name, byte[] uid) {
        StringBuilder sb = new StringBuilder(name.length() + 33).append(name).append('=');
        for (int w = 0; w < 16; w += 4) {
            int v = (uid[w] & 0xff) | (uid[w + 1] & 0xff) << 8 | (uid[w + 2] & 0xff) << 16 | (uid[w + 3] & 0xff) << 24;
            sb.append(String.format(Locale.ROOT, "%08X", v));
        }
        return sb.toString();
    }

    /**
     * nginx's {@code ngx_encode_base64()} of the 16 bytes: 22 characters and {@code ==}.
     *
     * @param uid the bytes
     * @return 24 characters
     */
    static String encode(byte[] uid) {
        return Base64.getEncoder().encodeToString(uid);
    }

    /**
     * nginx's {@code ngx_http_cookie_time()}: {@code Thu, 31-Dec-37 23:55:55 GMT}, a two-digit year up to 2037.
     *
     * @param seconds the time
     * @return the text
     */
    static String cookieTime(long seconds) {
        ZonedDateTime t = Instant.ofEpochSecond(seconds).atZone(ZoneOffset.UTC);
        int year = t.getYear();
        return String.format(Locale.ROOT, year > 2037 ? "%s, %02d-%s-%d %02d:%02d:%02d GMT"
                : "%s, %02d-%s-%02d %02d:%02d:%02d GMT", WEEK[t.getDayOfWeek().getValue() - 1], t.getDayOfMonth(),
            MONTHS[t.getMonthValue() - 1], year > 2037 ? year : year % 100, t.getHour(), t.getMinute(), t.getSecond());
    }

    private static void big(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    private static void little(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
        b[at + 2] = (byte) (v >>> 16);
        b[at + 3] = (byte) (v >>> 24);
    }
}
