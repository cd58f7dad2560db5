package jinx.http.internal.parse;

/**
 * A URI split at its first {@code ?}: the path and the arguments.
 *
 * @param uri the path (for {@link HttpParser#parseUnsafeUri}, percent-decoded when it held a {@code %})
 * @param args the arguments after the {@code ?}; the empty string when there is none (for
 *     {@link HttpParser#parseUnsafeUri}, null when there is none: nginx leaves the caller's arguments alone)
 */
public record UriArgs(String uri, String args) {
}
