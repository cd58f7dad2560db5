/**
 * A module for the integration test of a worker whose event loop an {@code Error} escapes (a module's bug, never
 * a client's request: those are answered), packed into a jar at test time and loaded with {@code load_module}.
 */
package jinx.http.it.crash;
