/**
 * Shared memory zones: memfd mappings addressed by offsets ({@code ZoneMemory}, nginx's
 * {@code src/os/unix/ngx_shmem.c}), the zone header and slab allocator ({@code Slab}, {@code src/core/ngx_slab.c}),
 * the pid-owned lock ({@code Shmtx}, {@code src/core/ngx_shmtx.c}) and a cycle's list of zones with reuse across
 * a reload ({@code ZoneTable}, {@code ngx_shared_memory_add()} and the shared memory parts of
 * {@code ngx_init_cycle()} in {@code src/core/ngx_cycle.c}). The API is {@link jinx.kernel.SharedZone},
 * {@link jinx.kernel.ZoneLock}, {@link jinx.kernel.SlabPool} and {@link jinx.kernel.SharedAcceptMutex}.
 */
package jinx.kernel.internal.shm;
