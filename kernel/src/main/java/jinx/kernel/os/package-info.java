/**
 * OS bindings: jnr-ffi interfaces mirroring the C prototypes, and the one facade that calls them. Not API: the
 * package is exported only because jnr-ffi generates the binding implementations outside the kernel module.
 * Follows nginx's {@code src/os/unix}.
 */
package jinx.kernel.os;
