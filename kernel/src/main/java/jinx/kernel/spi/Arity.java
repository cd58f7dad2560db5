package jinx.kernel.spi;

import java.util.ArrayList;
import java.util.List;

/**
 * How many arguments a directive takes, and whether it opens a block: nginx's {@code NGX_CONF_NOARGS},
 * {@code NGX_CONF_TAKE1} ... {@code NGX_CONF_BLOCK}, as bits to be or-ed ({@code BLOCK | TAKE12}).
 */
public final class Arity {

    /** No arguments. */
    public static final int NOARGS = 0x1;
    /** One argument. */
    public static final int TAKE1 = 0x2;
    /** Two arguments. */
    public static final int TAKE2 = 0x4;
    /** Three arguments. */
    public static final int TAKE3 = 0x8;
    /** Four arguments. */
    public static final int TAKE4 = 0x10;
    /** Five arguments. */
    public static final int TAKE5 = 0x20;
    /** Six arguments. */
    public static final int TAKE6 = 0x40;
    /** Seven arguments. */
    public static final int TAKE7 = 0x80;
    /** The directive opens a block: {@code name args { ... }}. */
    public static final int BLOCK = 0x100;
    /** One argument, {@code on} or {@code off}. */
    public static final int FLAG = 0x200;
    /** Any number of arguments, none included. */
    public static final int ANY = 0x400;
    /** One argument or more. */
    public static final int ONE_MORE = 0x800;
    /** Two arguments or more. */
    public static final int TWO_MORE = 0x1000;

    /** One or two arguments. */
    public static final int TAKE12 = TAKE1 | TAKE2;
    /** One or three arguments. */
    public static final int TAKE13 = TAKE1 | TAKE3;
    /** Two or three arguments. */
    public static final int TAKE23 = TAKE2 | TAKE3;
    /** One, two or three arguments. */
    public static final int TAKE123 = TAKE1 | TAKE2 | TAKE3;
    /** One to four arguments. */
    public static final int TAKE1234 = TAKE1 | TAKE2 | TAKE3 | TAKE4;

    private static final int[] TAKE = {NOARGS, TAKE1, TAKE2, TAKE3, TAKE4, TAKE5, TAKE6, TAKE7};

    private Arity() {
    }

    /**
     * Tells whether {@code argc} arguments (the directive's name not counted) are allowed by {@code arity}, as
     * nginx's {@code ngx_conf_handler()} decides.
     *
     * @param arity the directive's arity bits
     * @param argc the number of arguments
     * @return true when the count is allowed
     */
    public static boolean accepts(int arity, int argc) {
        if ((arity & ANY) != 0) {
            return true;
        }
        if ((arity & FLAG) != 0) {
            return argc == 1;
        }
        if ((arity & ONE_MORE) != 0) {
            return argc >= 1;
        }
        if ((arity & TWO_MORE) != 0) {
            return argc >= 2;
        }
        return argc < TAKE.length && (arity & TAKE[argc]) != 0;
    }

    /**
     * Describes the arity in nginx's words, for {@code jinx -l}: {@code "TAKE12|BLOCK"}.
     *
     * @param arity the arity bits
     * @return its description
     */
    public static String describe(int arity) {
        List<String> words = new ArrayList<>();
        if ((arity & NOARGS) != 0) {
            words.add("NOARGS");
        }
        StringBuilder take = new StringBuilder();
        for (int n = 1; n < TAKE.length; n++) {
            if ((arity & TAKE[n]) != 0) {
                take.append(n);
            }
        }
        if (take.length() > 0) {
            words.add("TAKE" + take);
        }
        if ((arity & FLAG) != 0) {
            words.add("FLAG");
        }
        if ((arity & ANY) != 0) {
            words.add("ANY");
        }
        if ((arity & ONE_MORE) != 0) {
            words.add("1MORE");
        }
        if ((arity & TWO_MORE) != 0) {
            words.add("2MORE");
        }
        if ((arity & BLOCK) != 0) {
            words.add("BLOCK");
        }
        return String.join("|", words);
    }
}
