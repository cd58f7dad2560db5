/**
 * The kernel's implementation, not exported: the command line and the master, worker and single processes
 * ({@code cli}, {@code process}: {@code src/core/nginx.c}, {@code src/os/unix/ngx_process_cycle.c}), the
 * configuration parser ({@code conf}: {@code ngx_conf_file.c}), the cycle's construction and reload
 * ({@code cycle}: {@code ngx_cycle.c}), the core, errlog and include modules ({@code core}), the event modules'
 * common part ({@code event}: {@code ngx_event.c}), module discovery and {@code load_module} ({@code module}:
 * {@code ngx_module.c}), and shared memory ({@code shm}: {@code ngx_shmem.c}, {@code ngx_slab.c}). This package
 * itself holds {@link jinx.kernel.internal.IoErrors}, which words Java's I/O exceptions as nginx's
 * {@code (errno: text)}.
 */
package jinx.kernel.internal;
