/**
 * The stream module SPI: what a module of type {@link jinx.stream.spi.StreamModule#STREAM} gives as its
 * {@code context()} ({@link jinx.stream.spi.StreamModule}, nginx's {@code ngx_stream_module_t}), the block's
 * configuration as its hooks see it ({@link jinx.stream.spi.StreamConfig}: phase handlers, variables, a server's
 * content handler), and the contexts its directives stand in ({@link jinx.stream.spi.StreamModule#MAIN},
 * {@link jinx.stream.spi.StreamModule#SRV}, {@link jinx.stream.spi.StreamModule#UPS}).
 *
 * <p>Lifecycle, as nginx's {@code ngx_stream_block()}: when {@code stream {}} opens, every stream module's
 * {@code createMainConf} and {@code createSrvConf}, then {@code preconfiguration}; every {@code server {}} creates
 * the server confs again; once the block is parsed, {@code initMainConf}, {@code mergeSrvConf} for each server,
 * {@code postconfiguration}, then the phase engine and the listening sockets are built.
 *
 * <p>Follows nginx's src/stream/ngx_stream.c and ngx_stream.h.
 */
package jinx.stream.spi;
