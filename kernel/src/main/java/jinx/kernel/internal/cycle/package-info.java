/**
 * Cycles: building one configuration's modules, conf objects and logs from an optional old cycle, and the
 * directive dispatcher. Follows nginx's {@code src/core/ngx_cycle.c} ({@code ngx_init_cycle()}) and
 * {@code src/core/ngx_conf_file.c} ({@code ngx_conf_parse()}, {@code ngx_conf_handler()}).
 *
 * <p>Where nginx's workers inherit the master's cycle through {@code fork()}, a Jinx master seals what it built
 * from into a {@link jinx.kernel.internal.cycle.ConfSnapshot} (every configuration byte, glob expansions,
 * {@code load_module} jars copied into a content-addressed {@link jinx.kernel.internal.cycle.ModuleCache}, the
 * listening sockets, values resolved in the master), and a worker rebuilds the cycle from it with
 * {@link jinx.kernel.internal.cycle.CycleBuilder#attach}, reading through a
 * {@link jinx.kernel.internal.cycle.FileSource} that replays the snapshot instead of the disk. The files a cycle
 * writes are nginx's {@code cycle->open_files} ({@code ngx_conf_open_file()}): {@link
 * jinx.kernel.internal.cycle.OpenFiles} of {@link jinx.kernel.internal.cycle.AppendFile}s, whose descriptors a
 * reload in place sends to workers that dropped their privileges.
 */
package jinx.kernel.internal.cycle;
