/**
 * A module for the integration test of a reload inside the running workers whose new cycle throws in the worker
 * (issue #35), packed into a jar at test time and loaded with {@code load_module}.
 */
package jinx.http.it.twice;
