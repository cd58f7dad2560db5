package jinx.kernel;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

import jinx.kernel.spi.Conf;

/**
 * The core module's configuration, nginx's {@code ngx_core_conf_t}: the main-context directives that shape the
 * processes. Fields are set while the configuration is parsed and filled with nginx's defaults after; from then
 * on they are read only.
 */
public final class CoreConf {

    /** {@code daemon}: 1 or 0; default 1. */
    public int daemon = Conf.UNSET;
    /** {@code master_process}: 1 or 0; default 1. */
    public int masterProcess = Conf.UNSET;
    /** {@code timer_resolution} in ms; default 0 (off). */
    public long timerResolution = Conf.UNSET_LONG;
    /** {@code worker_shutdown_timeout} in ms; default 0 (none). */
    public long shutdownTimeout = Conf.UNSET_LONG;
    /** {@code worker_processes}; default 1; {@code auto} is the number of CPUs. */
    public int workerProcesses = Conf.UNSET;
    /** {@code worker_warmup} in ms, 0 for off (the default). */
    public long warmUp = Conf.UNSET_LONG;
    /** Whether {@code worker_processes} was {@code auto}. */
    public boolean workerProcessesAuto;
    /** {@code worker_priority}, a nice value; default 0. */
    public int priority;
    /** Whether {@code worker_priority} was given. */
    public boolean prioritySet;
    /** {@code worker_rlimit_nofile}; unset: left alone. */
    public int rlimitNofile = Conf.UNSET;
    /** {@code worker_rlimit_core} in bytes; unset: left alone. */
    public long rlimitCore = Conf.UNSET_LONG;
    /** {@code worker_cpu_affinity} masks, one per worker (the last serves the rest); empty: none. */
    public final List<BitSet> cpuAffinity = new ArrayList<>();
    /** Whether {@code worker_cpu_affinity} was {@code auto}. */
    public boolean cpuAffinityAuto;
    /** {@code user}'s name; null when the master does not run as root. */
    public String user;
    /** {@code user}'s group name. */
    public String group;
    /** {@code user}'s uid; -1 when unset. */
    public int uid = Conf.UNSET;
    /** {@code user}'s gid; -1 when unset. */
    public int gid = Conf.UNSET;
    /** {@code pid}: the pid file; default {@code logs/jinx.pid} under the prefix. */
    public Path pid;
    /** {@code working_directory}; null: left alone. */
    public Path workingDirectory;
    /** {@code env}: variables to keep ({@code NAME}) or set ({@code NAME=value}) for the workers. */
    public final List<String> env = new ArrayList<>();
}
