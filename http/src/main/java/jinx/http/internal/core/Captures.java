package jinx.http.internal.core;

import java.util.regex.Matcher;

/**
 * The groups of the last regex that matched for a request ({@code $1} ... {@code $9}, named captures): nginx's
 * {@code r->captures}, {@code r->ncaptures} and {@code r->captures_data}. A request keeps one and reuses it; a
 * match fills it without allocating once its array is large enough.
 */
public final class Captures {

    /**
     * A request that keeps its captures: the engine's request implements it, and the variables of named groups
     * ({@code (?<name>...)} gives {@code $name}) read the request's captures through it.
     */
    public interface Holder {

        /**
         * Returns the request's captures.
         *
         * @return the captures, never null
         */
        Captures captures();
    }

    private CharSequence subject;
    private int[] offsets = new int[20];
    private int count;
    private HttpRegex regex;

    /**
     * An empty set of captures.
     */
    public Captures() {
    }

    /**
     * Forgets the captures.
     */
    public void clear() {
        subject = null;
        count = 0;
        regex = null;
    }

    /**
     * Returns the number of groups, the whole match (group 0) included; 0 when nothing matched.
     *
     * @return the count
     */
    public int count() {
        return count;
    }

    /**
     * Returns the string the regex matched against.
     *
     * @return the subject, or null
     */
    public CharSequence subject() {
        return subject;
    }

    /**
     * Returns the regex that matched.
     *
     * @return the regex, or null
     */
    public HttpRegex regex() {
        return regex;
    }

    /**
     * Returns where a group starts.
     *
     * @param group the group, 0 for the whole match
     * @return the offset in the subject, or -1 when the group took no part in the match or does not exist
     */
    public int start(int group) {
        return group < count ? offsets[2 * group] : -1;
    }

    /**
     * Returns where a group ends.
     *
     * @param group the group
     * @return the offset after the group's last character, or -1
     */
    public int end(int group) {
        return group < count ? offsets[2 * group + 1] : -1;
    }

    /**
     * Returns a group's text ({@code $n}): the empty string for a group that took no part or does not exist, as
     * nginx's script code copies nothing for it.
     *
     * @param group the group
     * @return the text
     */
    public String group(int group) {
        int s = start(group);
        return s < 0 ? "" : subject.subSequence(s, end(group)).toString();
    }

    /**
     * Returns a named group's text.
     *
     * @param name the name as written in the regex
     * @return the text, or null when the last regex has no group of that name
     */
    public String group(String name) {
        if (regex == null) {
            return null;
        }
        int g = regex.groupOf(name);
        return g < 0 ? null : group(g);
    }

    void set(HttpRegex re, CharSequence text, Matcher m) {
        int n = m.groupCount() + 1;
        if (offsets.length < 2 * n) {
            offsets = new int[2 * n];
        }
        for (int g = 0; g < n; g++) {
            offsets[2 * g] = m.start(g);
            offsets[2 * g + 1] = m.end(g);
        }
        count = n;
        subject = text;
        regex = re;
    }
}
