package jinx.kernel.internal.event;

import java.util.ArrayList;
import java.util.List;

import jinx.kernel.SharedZone;
import jinx.kernel.spi.Conf;

/**
 * The {@code event_core} module's configuration, nginx's {@code ngx_event_conf_t}.
 */
public final class EventCoreConf {

    /** {@code worker_connections}; default 512. */
    public int connections = Conf.UNSET;
    /** {@code use}: the event method's name; default the usable method with the best priority. */
    public String use;
    /** {@code multi_accept}: 1 or 0; default 0. */
    public int multiAccept = Conf.UNSET;
    /** {@code accept_mutex}: 1 or 0; default 0. */
    public int acceptMutex = Conf.UNSET;
    /** {@code accept_mutex_delay} in ms; default 500. */
    public long acceptMutexDelay = Conf.UNSET_LONG;
    /** The accept mutex's zone when {@code accept_mutex} is on under a master, else null. */
    public SharedZone acceptMutexZone;
    /** {@code debug_connection}: addresses or CIDR blocks whose connections log at debug level. */
    public final List<String> debugConnection = new ArrayList<>();
}
