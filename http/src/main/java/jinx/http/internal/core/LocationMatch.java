package jinx.http.internal.core;

/**
 * The result of {@link Locations#find}: the location chosen for a URI and the captures of the regex that chose
 * it. A request keeps one and reuses it for every lookup (internal redirects included), so a lookup allocates
 * nothing.
 */
public final class LocationMatch {

    /** The location conf chosen; its {@link HttpCoreLocConf#locConf} are the module confs of the request. */
    public HttpCoreLocConf loc;
    /** The groups of the regex location that matched; {@link Captures#count()} is 0 when none did. */
    public final Captures captures;
    /** The regex whose match was abandoned when {@link Locations#find} returned {@link jinx.kernel.Rc#ERROR}. */
    public HttpRegex failed;

    /**
     * A result holder with captures of its own.
     */
    public LocationMatch() {
        this(new Captures());
    }

    /**
     * A result holder that fills the request's captures.
     *
     * @param captures the captures to fill
     */
    public LocationMatch(Captures captures) {
        this.captures = captures;
    }
}
