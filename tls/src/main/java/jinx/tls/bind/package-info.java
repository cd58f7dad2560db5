/**
 * The jnr-ffi binding of OpenSSL 3: {@link jinx.tls.bind.LibSsl} ({@code libssl.so.3}),
 * {@link jinx.tls.bind.LibCrypto} ({@code libcrypto.so.3}) and the callback types they take
 * ({@link jinx.tls.bind.SslCallbacks}). Each method mirrors the C prototype of OpenSSL 3.0's {@code ssl.h},
 * {@code err.h}; pointers are {@code @intptr_t long} addresses, so that a call allocates nothing.
 *
 * <p>Not API: exported because jnr-ffi generates the implementation outside this module. Only the facade
 * {@code jinx.tls.internal.OpenSsl} loads and calls it; nothing here retries, checks or allocates.
 */
package jinx.tls.bind;
