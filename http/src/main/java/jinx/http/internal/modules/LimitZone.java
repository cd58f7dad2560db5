package jinx.http.internal.modules;

import java.util.List;
import java.util.Map;

import jinx.http.spi.ComplexValue;
import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.LogLevel;
import jinx.kernel.SharedZone;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;

/**
 * What {@code limit_req_zone} and {@code limit_conn_zone} declare: the key, the zone and its table, and for
 * {@code limit_req} the rate in thousandths of a request per second (nginx's {@code ctx->rate}). The
 * {@code zone=name:size} argument is parsed here as both nginx modules parse it.
 */
final class LimitZone {

    final String name;
    final ComplexValue key;
    final long rate;
    final ShmTable table;

    LimitZone(String name, ComplexValue key, long rate, ShmTable table) {
        this.name = name;
        this.key = key;
        this.rate = rate;
        this.table = table;
    }

    /** A zone's name and size, from {@code zone=name:size}. */
    record Arg(String name, long size) {
    }

    /**
     * Parses {@code zone=name:size} as nginx's zone directives do.
     *
     * @param arg the argument
     * @return the name and the size
     * @throws ConfException {@code invalid zone size "..."}, {@code zone "..." is too small}
     */
    static Arg parse(String arg) throws ConfException {
        int colon = arg.indexOf(':', 5);
        if (colon < 0) {
            throw new ConfException("invalid zone size \"" + arg + "\"");
        }
        long size = ConfValues.parseSize(arg.substring(colon + 1));
        if (size == -1) {
            throw new ConfException("invalid zone size \"" + arg + "\"");
        }
        if (size < 8L * SharedZone.PAGE_SIZE) {
            throw new ConfException("zone \"" + arg + "\" is too small");
        }
        return new Arg(arg.substring(5, colon), size);
    }

    /**
     * Declares the zone of a {@code *_zone} directive, refusing a second key for the same name as nginx does.
     *
     * @param cf the directive
     * @param name the zone's name
     * @param size its size
     * @param tag the module
     * @param zones the zones this configuration declared so far, by name
     * @return the shared zone
     * @throws ConfException {@code limit_req_zone "x" is already bound to key "$y"}, or the kernel's conflicts
     */
    static SharedZone declare(ConfContext cf, String name, long size, String tag,
                              Map<String, LimitZone> zones) throws ConfException {
        SharedZone shm = cf.cycle().sharedZone(name, size, tag);
        LimitZone bound = zones.get(name);
        if (bound != null) {
            throw new ConfException(cf.name() + " \"" + name + "\" is already bound to key \"" + bound.key.source()
                + "\"");
        }
        return shm;
    }

    /**
     * nginx's check at the start of a cycle, made here so that {@code -t} reports it too: a zone named by
     * {@code limit_req} or {@code limit_conn} that no zone directive sized.
     *
     * @param cycle the cycle
     * @param tag the module
     * @param zones the zones its zone directives declared
     * @throws ConfException {@code zero size shared memory zone "x"}
     */
    static void checkSized(Cycle cycle, String tag, Map<String, LimitZone> zones) throws ConfException {
        for (SharedZone z : cycle.sharedZones()) {
            if (z.tag().equals(tag) && !zones.containsKey(z.name())) {
                throw new ConfException("zero size shared memory zone \"" + z.name() + "\"");
            }
        }
    }

    /**
     * The location conf both modules share: nginx's {@code ngx_http_limit_req_conf_t} and
     * {@code ngx_http_limit_conn_conf_t}.
     *
     * @param <L> a limit
     */
    static class Conf<L> {
        List<L> limits;
        int logLevel = jinx.kernel.spi.Conf.UNSET;
        int status = jinx.kernel.spi.Conf.UNSET;
        int dryRun = jinx.kernel.spi.Conf.UNSET;

        /** nginx's merge: the limits inherited whole, error level, 503, no dry run. */
        void merge(Conf<L> prev) {
            if (limits == null) {
                limits = prev.limits;
            }
            logLevel = jinx.kernel.spi.Conf.merge(logLevel, prev.logLevel, LogLevel.ERROR.ordinal());
            status = jinx.kernel.spi.Conf.merge(status, prev.status, 503);
            dryRun = jinx.kernel.spi.Conf.merge(dryRun, prev.dryRun, 0);
        }
    }
}
