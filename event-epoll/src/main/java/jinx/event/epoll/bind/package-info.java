/**
 * The jnr-ffi binding of epoll(7): {@link jinx.event.epoll.bind.LibEpoll} and its loader.
 *
 * <p>Not API: exported because jnr-ffi generates the implementation outside this module. Only
 * {@code jinx.event.epoll}'s facade calls it; nothing here retries, checks or allocates.
 */
package jinx.event.epoll.bind;
