/**
 * The jnr-ffi binding of {@code poll(2)}.
 *
 * <p>Not API: the package is exported only because jnr-ffi generates the binding's implementation outside the
 * {@code jinx.event.poll} module (DESIGN section 1). Only {@code jinx.event.poll}'s own facade calls it.
 */
package jinx.event.poll.bind;
