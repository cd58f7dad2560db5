package jinx.kernel.spi;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.ObjIntConsumer;
import java.util.function.ObjLongConsumer;

import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Ready-made directive handlers for the common kinds of value: nginx's {@code ngx_conf_set_*_slot} functions of
 * {@code src/core/ngx_conf_file.c}, with nginx's error texts. Each reads the directive's arguments from index 1
 * and hands the parsed value to a setter:
 *
 * <pre>{@code
 * Directive.of("worker_connections", Set.of(EVENTS), Arity.TAKE1, EventConf.class,
 *              Slots.number((c, v) -> c.connections = v))
 * }</pre>
 *
 * <p>The dispatcher has checked the arity and refused duplicates, so the handlers check values only (nginx's
 * slots also return {@code "is duplicate"}; that check lives in the dispatcher here).
 */
public final class Slots {

    /**
     * Receives the value of an {@code on}/{@code off} directive.
     *
     * @param <C> the conf object's type
     */
    @FunctionalInterface
    public interface FlagSetter<C> {

        /**
         * Stores the flag.
         *
         * @param conf the conf object
         * @param on true for {@code on}, false for {@code off}
         */
        void set(C conf, boolean on);
    }

    /**
     * Receives the two arguments of a key-value directive.
     *
     * @param <C> the conf object's type
     */
    @FunctionalInterface
    public interface KeyValSetter<C> {

        /**
         * Stores the pair.
         *
         * @param conf the conf object
         * @param key the first argument
         * @param value the second argument
         */
        void set(C conf, String key, String value);
    }

    private Slots() {
    }

    /**
     * {@code ngx_conf_set_flag_slot}: one argument, {@code on} or {@code off} in any case.
     *
     * @param setter receives the flag
     * @param <C> the conf object's type
     * @return the handler
     */
    public static <C> DirectiveHandler<C> flag(FlagSetter<C> setter) {
        Objects.requireNonNull(setter, "setter");
        return (cf, conf) -> {
            String v = cf.arg(1);
            if (equalsIgnoreAsciiCase(v, "on")) {
                setter.set(conf, true);
            } else if (equalsIgnoreAsciiCase(v, "off")) {
                setter.set(conf, false);
            } else {
                throw new ConfException("invalid value \"" + v + "\" in \"" + cf.name()
                                        + "\" directive, it must be \"on\" or \"off\"");
            }
        };
    }

    /**
     * {@code ngx_conf_set_str_slot}: the first argument as it is.
     *
     * @param setter receives the argument
     * @param <C> the conf object's type
     * @return the handler
     */
    public static <C> DirectiveHandler<C> str(BiConsumer<C, String> setter) {
        Objects.requireNonNull(setter, "setter");
        return (cf, conf) -> setter.accept(conf, cf.arg(1));
    }

    /**
     * {@code ngx_conf_set_str_array_slot}: the first argument, once for each time the directive stands; declare
     * the directive {@link Directive#multi()}.
     *
     * @param setter receives each argument, to be appended
     * @param <C> the conf object's type
     * @return the handler
     */
    public static <C> DirectiveHandler<C> strArray(BiConsumer<C, String> setter) {
        Objects.requireNonNull(setter, "setter");
        return (cf, conf) -> setter.accept(conf, cf.arg(1));
    }

    /**
     * {@code ngx_conf_set_keyval_slot}: the first two arguments, once for each time the directive stands.
     *
     * @param setter receives each pair, to be appended
     * @param <C> the conf object's type
     * @return the handler
     */
    public static <C> DirectiveHandler<C> keyval(KeyValSetter<C> setter) {
        Objects.requireNonNull(setter, "setter");
        return (cf, conf) -> setter.set(conf, cf.arg(1), cf.arg(2));
    }

    /**
     * {@code ngx_conf_set_num_slot}: a non-negative decimal number ({@link ConfValues#parseNumber}); otherwise
     * {@code "x" directive invalid number}.
     *
     * @param setter receives the number
     * @param <C> the conf object's type
     * @return the handler
     */
    public static <C> DirectiveHandler<C> number(ObjIntConsumer<C> setter) {
        Objects.requireNonNull(setter, "setter");
        return (cf, conf) -> {
            int n = ConfValues.parseNumber(cf.arg(1));
            if (n == -1) {
                throw new ConfException(invalid(cf, "invalid number"));
            }
            setter.accept(conf, n);
        };
    }

    /**
     * {@code ngx_conf_set_size_slot}: a size in bytes ({@link ConfValues#parseSize}); otherwise
     * {@code "x" directive invalid value}.
     *
     * @param setter receives the size
     * @param <C> the conf object's type
     * @return the handler
     */
    public static <C> DirectiveHandler<C> size(ObjLongConsumer<C> setter) {
        Objects.requireNonNull(setter, "setter");
        return (cf, conf) -> setter.accept(conf, checked(cf, ConfValues.parseSize(cf.arg(1))));
    }

    /**
     * {@code ngx_conf_set_off_slot}: a file offset in bytes ({@link ConfValues#parseOffset}); otherwise
     * {@code "x" directive invalid value}.
     *
     * @param setter receives the offset
     * @param <C> the conf object's type
     * @return the handler
     */
    public static <C> DirectiveHandler<C> offset(ObjLongConsumer<C> setter) {
        Objects.requireNonNull(setter, "setter");
        return (cf, conf) -> setter.accept(conf, checked(cf, ConfValues.parseOffset(cf.arg(1))));
    }

    /**
     * {@code ngx_conf_set_msec_slot}: a time in milliseconds ({@link ConfValues#parseTime}, a bare number being
     * seconds); otherwise {@code "x" directive invalid value}.
     *
     * @param setter receives the milliseconds
     * @param <C> the conf object's type
     * @return the handler
     */
    public static <C> DirectiveHandler<C> msec(ObjLongConsumer<C> setter) {
        Objects.requireNonNull(setter, "setter");
        return (cf, conf) -> setter.accept(conf, checked(cf, ConfValues.parseTime(cf.arg(1), false)));
    }

    /**
     * {@code ngx_conf_set_sec_slot}: a time in seconds ({@link ConfValues#parseTime}); otherwise
     * {@code "x" directive invalid value}.
     *
     * @param setter receives the seconds
     * @param <C> the conf object's type
     * @return the handler
     */
    public static <C> DirectiveHandler<C> sec(ObjLongConsumer<C> setter) {
        Objects.requireNonNull(setter, "setter");
        return (cf, conf) -> setter.accept(conf, checked(cf, ConfValues.parseTime(cf.arg(1), true)));
    }

    /**
     * {@code ngx_conf_set_enum_slot}: the first argument, one of the names of {@code values} in any ASCII case;
     * otherwise {@code invalid value "v"}.
     *
     * @param values the allowed names and their values; no two names may differ only by case
     * @param setter receives the value
     * @param <C> the conf object's type
     * @param <T> the values' type
     * @return the handler
     * @throws IllegalArgumentException when two names differ only by case
     */
    public static <C, T> DirectiveHandler<C> oneOf(Map<String, T> values, BiConsumer<C, T> setter) {
        Objects.requireNonNull(setter, "setter");
        Map<String, T> byName = byLowerName(values);
        return (cf, conf) -> {
            String v = cf.arg(1);
            T value = byName.get(toLowerAscii(v));
            if (value == null) {
                throw new ConfException("invalid value \"" + v + "\"");
            }
            setter.accept(conf, value);
        };
    }

    /**
     * {@link #oneOf} with the constants of an enum, named by their lower-cased names ({@code ON_DEMAND} is
     * {@code on_demand}).
     *
     * @param type the enum
     * @param setter receives the constant
     * @param <C> the conf object's type
     * @param <E> the enum
     * @return the handler
     */
    public static <C, E extends Enum<E>> DirectiveHandler<C> enumOf(Class<E> type, BiConsumer<C, E> setter) {
        Map<String, E> values = new HashMap<>();
        for (E e : type.getEnumConstants()) {
            values.put(toLowerAscii(e.name()), e);
        }
        return oneOf(values, setter);
    }

    /**
     * {@code ngx_conf_set_bitmask_slot}: every argument one of the names of {@code masks} in any ASCII case; the
     * setter receives their bits or-ed. A name whose bits are already set is logged as a warning,
     * {@code duplicate value "v"}, and adds nothing; an unknown name is {@code invalid value "v"}.
     *
     * @param masks the allowed names and their bits; no two names may differ only by case
     * @param setter receives the bits of this directive's arguments
     * @param <C> the conf object's type
     * @return the handler
     * @throws IllegalArgumentException when two names differ only by case
     */
    public static <C> DirectiveHandler<C> bitmask(Map<String, Integer> masks, ObjIntConsumer<C> setter) {
        Objects.requireNonNull(setter, "setter");
        Map<String, Integer> byName = byLowerName(masks);
        return (cf, conf) -> {
            int bits = 0;
            for (String v : cf.args().subList(1, cf.args().size())) {
                Integer mask = byName.get(toLowerAscii(v));
                if (mask == null) {
                    throw new ConfException("invalid value \"" + v + "\"");
                }
                // As nginx: a name overlapping bits already set only warns, even if it has other bits too.
                if ((bits & mask) != 0) {
                    cf.log(LogLevel.WARN, "duplicate value \"" + v + "\"");
                } else {
                    bits |= mask;
                }
            }
            setter.accept(conf, bits);
        };
    }

    /**
     * A file name, resolved against the prefix with {@link ConfContext#resolve}, as nginx's
     * {@code ngx_conf_full_name()}. The argument's bytes are read as UTF-8, since configuration text is decoded
     * as ISO-8859-1; a name the file system refuses is {@code "x" directive invalid value}.
     *
     * @param setter receives the absolute path
     * @param <C> the conf object's type
     * @return the handler
     */
    public static <C> DirectiveHandler<C> path(BiConsumer<C, Path> setter) {
        Objects.requireNonNull(setter, "setter");
        return (cf, conf) -> {
            String name = new String(cf.arg(1).getBytes(ISO_8859_1), UTF_8);
            Path path;
            try {
                path = cf.resolve(name);
            } catch (InvalidPathException e) {
                // the message says it all: no cause, as every other slot's error
                throw new ConfException(invalid(cf, "invalid value"));
            }
            setter.accept(conf, path);
        };
    }

    private static long checked(ConfContext cf, long value) throws ConfException {
        if (value == -1) {
            throw new ConfException(invalid(cf, "invalid value"));
        }
        return value;
    }

    /** Formats a slot's short error as ngx_conf_handler() does with a string a slot returns. */
    private static String invalid(ConfContext cf, String what) {
        return "\"" + cf.name() + "\" directive " + what;
    }

    private static <T> Map<String, T> byLowerName(Map<String, T> values) {
        Map<String, T> byName = new HashMap<>();
        values.forEach((name, value) -> {
            Objects.requireNonNull(value, name);
            if (byName.put(toLowerAscii(name), value) != null) {
                throw new IllegalArgumentException("names differ only by case: " + name);
            }
        });
        return Map.copyOf(byName);
    }

    /** Lower-cases A to Z only, as ngx_strcasecmp() compares: no locale, no other letters. */
    private static String toLowerAscii(String s) {
        char[] chars = s.toCharArray();
        for (int i = 0; i < chars.length; i++) {
            if (chars[i] >= 'A' && chars[i] <= 'Z') {
                chars[i] |= 0x20;
            }
        }
        return new String(chars);
    }

    private static boolean equalsIgnoreAsciiCase(String s, String lower) {
        return toLowerAscii(s).equals(lower);
    }
}
