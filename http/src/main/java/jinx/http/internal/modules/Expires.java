package jinx.http.internal.modules;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;

import jinx.http.HeadersOut;
import jinx.http.HttpHeaders;
import jinx.http.HttpRequest;
import jinx.http.internal.variables.TimeFormats;
import jinx.kernel.ConfException;
import jinx.kernel.spi.ConfValues;

/**
 * An {@code expires} setting and what it writes: nginx's {@code ngx_http_expires_t} with
 * {@code ngx_http_parse_expires()} and {@code ngx_http_set_expires()}.
 *
 * @param type the kind of setting
 * @param time seconds: after the access or the modification (negative for the past), or the time of day for
 *     {@code @time}
 */
record Expires(Type type, long time) {

    /** The kinds of {@code expires}: nginx's {@code NGX_HTTP_EXPIRES_*}. */
    enum Type {
        /** {@code off}. */
        OFF,
        /** {@code epoch}. */
        EPOCH,
        /** {@code max}. */
        MAX,
        /** A time after the access. */
        ACCESS,
        /** {@code modified}: a time after the file's modification. */
        MODIFIED,
        /** {@code @time}: the next such time of day. */
        DAILY,
        /** Not set at this level. */
        UNSET
    }

    /** Not set. */
    static final Expires UNSET = new Expires(Type.UNSET, 0);
    /** {@code expires off}. */
    static final Expires OFF = new Expires(Type.OFF, 0);
    /** A value with variables after the access, parsed per request. */
    static final Expires ACCESS_UNPARSED = new Expires(Type.ACCESS, 0);
    /** {@code modified} and a value with variables, parsed per request. */
    static final Expires MODIFIED_UNPARSED = new Expires(Type.MODIFIED, 0);

    private static final long DAY = 24 * 60 * 60;

    /**
     * nginx's {@code ngx_http_parse_expires()}.
     *
     * @param text the value: {@code epoch}, {@code max}, {@code off}, {@code @time}, {@code [+|-]time}
     * @param modified whether {@code modified} came before it
     * @return the setting
     * @throws ConfException nginx's reason, without the directive's name
     */
    static Expires parse(String text, boolean modified) throws ConfException {
        if (!modified) {
            switch (text) {
                case "epoch":
                    return new Expires(Type.EPOCH, 0);
                case "max":
                    return new Expires(Type.MAX, 0);
                case "off":
                    return OFF;
                default:
                    break;
            }
        }
        Type type = modified ? Type.MODIFIED : Type.ACCESS;
        boolean minus = false;
        String v = text;
        if (v.startsWith("@")) {
            v = v.substring(1);
            if (modified) {
                throw new ConfException("daily time cannot be used with \"modified\" parameter");
            }
            type = Type.DAILY;
        } else if (v.startsWith("+")) {
            v = v.substring(1);
        } else if (v.startsWith("-")) {
            v = v.substring(1);
            minus = true;
        }
        long t = ConfValues.parseTime(v, true);
        if (t == -1) {
            throw new ConfException("invalid value");
        }
        if (type == Type.DAILY && t > DAY) {
            throw new ConfException("daily time value must be less than 24 hours");
        }
        return new Expires(type, minus ? -t : t);
    }

    /**
     * Writes {@code Expires} and {@code Cache-Control} (the first one kept and rewritten, the others removed):
     * nginx's {@code ngx_http_set_expires()} once the setting is known.
     *
     * @param r the request
     * @param negative the configured time is negative: always {@code no-cache}
     */
    void apply(HttpRequest r, boolean negative) {
        HeadersOut h = r.headersOut;
        HttpHeaders.Entry e = h.expires;
        if (e == null || e.removed) {
            e = h.headers.add("Expires", "");
            h.expires = e;
        }
        HttpHeaders.Entry cc = h.cacheControl;
        if (cc == null || cc.removed) {
            cc = h.headers.add("Cache-Control", "");
            h.cacheControl = cc;
        } else {
            for (HttpHeaders.Entry more = cc.next; more != null; more = more.next) {
                more.removed = true;
            }
        }
        if (type == Type.EPOCH) {
            e.value = "Thu, 01 Jan 1970 00:00:01 GMT";
            cc.value = "no-cache";
            return;
        }
        if (type == Type.MAX) {
            e.value = "Thu, 31 Dec 2037 23:55:55 GMT";
            // 10 years (nginx)
            cc.value = "max-age=315360000";
            return;
        }
        if (time == 0 && type != Type.DAILY) {
            e.value = r.loop().httpTime();
            cc.value = "max-age=0";
            return;
        }
        long now = r.loop().wallMillis() / 1000;
        long expiresTime;
        long maxAge;
        if (type == Type.DAILY) {
            expiresTime = nextTime(now, time);
            maxAge = expiresTime - now;
        } else if (type == Type.ACCESS || h.lastModifiedTime == -1) {
            maxAge = time;
            expiresTime = now + time;
        } else {
            expiresTime = h.lastModifiedTime + time;
            maxAge = expiresTime - now;
        }
        e.value = TimeFormats.http(expiresTime);
        cc.value = negative || maxAge < 0 ? "no-cache" : "max-age=" + maxAge;
    }

    /**
     * nginx's {@code ngx_next_time()}: the next moment, in local time, that is {@code when} seconds after
     * midnight; tomorrow's when today's has passed.
     */
    private static long nextTime(long now, long when) {
        ZoneId zone = ZoneId.systemDefault();
        LocalDate today = Instant.ofEpochSecond(now).atZone(zone).toLocalDate();
        LocalTime at = LocalTime.ofSecondOfDay(Math.min(when, DAY - 1));
        long next = ZonedDateTime.of(today, at, zone).toEpochSecond();
        if (when >= DAY) {
            next += when - (DAY - 1);
        }
        if (next - now > 0) {
            return next;
        }
        return ZonedDateTime.of(today.plusDays(1), at, zone).toEpochSecond() + (when >= DAY ? 1 : 0);
    }
}
