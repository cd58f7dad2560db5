/**
 * Serving processes, nginx's {@code src/os/unix/ngx_process_cycle.c}, {@code ngx_process.c} and
 * {@code ngx_channel.c}: the single process of {@code master_process off} and a worker's cycle
 * ({@code SingleProcess}, with its in-process reload {@code InProcessReload}); the master ({@code MasterProcess}:
 * its loop and signal dispatch, {@code MasterWait}: the one set it waits on, {@code MasterChildren} and
 * {@code ProcessTable}: the children, {@code MasterReload}: a reload, {@code WorkerSpawner}: posix_spawn of a
 * worker JVM); the channel between them ({@code ProcessChannel}) and a worker's entry point ({@code WorkerMain}).
 */
package jinx.kernel.internal.process;
