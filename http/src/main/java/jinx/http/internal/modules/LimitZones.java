package jinx.http.internal.modules;

import java.util.HashMap;
import java.util.Map;

import jinx.http.spi.HttpConfig;
import jinx.http.spi.Phase;
import jinx.http.spi.PhaseHandler;
import jinx.http.spi.VariableGetter;
import jinx.kernel.ConfException;
import jinx.kernel.SharedZone;
import jinx.http.spi.ComplexValue;
import jinx.kernel.spi.ConfContext;

/**
 * The zones one limit module's zone directives ({@code limit_conn_zone}, {@code limit_req_zone}) declared in a
 * configuration, and what {@link LimitConnModule} and {@link LimitReqModule} do with them at the same points of a
 * cycle: a new set and the module's {@code $limit_*_status} variable before the {@code http} block is read, the
 * check that every zone a limit directive names was sized and the PREACCESS handler after it, and the zones'
 * tables set up when the shared memory exists (nginx's {@code ngx_http_limit_req_init_zone()} and
 * {@code ngx_http_limit_conn_init_zone()}).
 */
final class LimitZones {

    private final String tag;
    private final String logContext;
    private final boolean logNomem;
    /** This configuration's zones by name; a new map for every cycle, which its limits keep. */
    private Map<String, LimitZone> zones = new HashMap<>();

    /**
     * @param tag the module's name, the tag of its shared zones
     * @param logContext what the table's messages say before the zone's quoted name
     * @param logNomem whether a full table logs
     */
    LimitZones(String tag, String logContext, boolean logNomem) {
        this.tag = tag;
        this.logContext = logContext;
        this.logNomem = logNomem;
    }

    /** The zones declared so far, by name. */
    Map<String, LimitZone> byName() {
        return zones;
    }

    /** The module's preconfiguration: a new set of zones and the status variable. */
    void preconfiguration(HttpConfig cf, String variable, VariableGetter status) throws ConfException {
        zones = new HashMap<>();
        cf.addVariable(variable, status, HttpConfig.VAR_NOCACHEABLE);
    }

    /** The module's postconfiguration: every named zone sized, and the handler in PREACCESS. */
    void postconfiguration(HttpConfig cf, PhaseHandler handler) throws ConfException {
        LimitZone.checkSized(cf.cycle(), tag, zones);
        cf.addPhaseHandler(Phase.PREACCESS, handler);
    }

    /** The module's initModule: each zone's table in its shared memory. */
    void init() {
        for (LimitZone z : zones.values()) {
            z.table.init(logContext + z.name + "\"", logNomem);
        }
    }

    /**
     * A zone directive's zone: declared in the cycle (refused when the name is bound to another key) and added.
     *
     * @param rate the rate in requests per 1000 s (0 for connections)
     * @param payload the bytes of a table entry's payload
     */
    void add(ConfContext cf, LimitZone.Arg zone, ComplexValue key, long rate, int payload) throws ConfException {
        SharedZone shm = LimitZone.declare(cf, zone.name(), zone.size(), tag, zones);
        zones.put(zone.name(), new LimitZone(zone.name(), key, rate, new ShmTable(shm, payload)));
    }
}
