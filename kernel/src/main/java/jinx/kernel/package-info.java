/**
 * The kernel's API, what protocol modules build on: nginx's {@code src/core} and {@code src/event} as types.
 *
 * <ul>
 *   <li>Cycles and configuration: {@link jinx.kernel.Cycle} ({@code ngx_cycle.c}), {@link jinx.kernel.CoreConf}
 *       ({@code ngx_core_conf_t}), {@link jinx.kernel.ConfException} (errors worded as nginx's, with
 *       {@code in <file>:<line>}), {@link jinx.kernel.LoadedModule}, {@link jinx.kernel.Listening}
 *       ({@code ngx_listening_t}).</li>
 *   <li>The event loop: {@link jinx.kernel.EventLoop} ({@code ngx_event.c}'s
 *       {@code ngx_process_events_and_timers()}), {@link jinx.kernel.Event}, {@link jinx.kernel.EventHandler},
 *       {@link jinx.kernel.EventTimers} and {@link jinx.kernel.TimerTree} ({@code ngx_event_timer.c},
 *       {@code ngx_rbtree.c}), {@link jinx.kernel.PostedQueue} ({@code ngx_event_posted.c}),
 *       {@link jinx.kernel.EventAccept} ({@code ngx_event_accept.c}), {@link jinx.kernel.CachedTime}
 *       ({@code ngx_times.c}), {@link jinx.kernel.LoopLocal}.</li>
 *   <li>Connections and buffers: {@link jinx.kernel.Connection} and {@link jinx.kernel.ConnectionSlots}
 *       ({@code ngx_connection.c}), {@link jinx.kernel.ConnectionIo} and {@link jinx.kernel.SocketIo}
 *       ({@code src/os/unix/ngx_recv.c}, {@code ngx_writev_chain.c}, {@code ngx_linux_sendfile_chain.c}),
 *       {@link jinx.kernel.MemoryConnection} (the socketless path), {@link jinx.kernel.Buf} and
 *       {@link jinx.kernel.BufChain} ({@code ngx_buf.h}), {@link jinx.kernel.Rc} ({@code ngx_core.h}).</li>
 *   <li>Shared memory: {@link jinx.kernel.SharedZone} ({@code ngx_shm_zone_t}), {@link jinx.kernel.SlabPool}
 *       ({@code ngx_slab.c}), {@link jinx.kernel.ZoneLock} ({@code ngx_shmtx.c}),
 *       {@link jinx.kernel.SharedAcceptMutex} ({@code ngx_accept_mutex}).</li>
 *   <li>Logging and embedding: {@link jinx.kernel.ErrorLog} and {@link jinx.kernel.LogLevel} ({@code ngx_log.c}),
 *       {@link jinx.kernel.Embedded} (one server inside another program's JVM).</li>
 * </ul>
 *
 * <p>Threads: what belongs to a loop (events, timers, connections, buffers) is that loop's thread's alone; the one
 * door in from another thread is {@link jinx.kernel.EventLoop#notify(Runnable)}.
 */
package jinx.kernel;
