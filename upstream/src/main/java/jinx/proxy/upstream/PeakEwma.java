package jinx.proxy.upstream;

/**
 * Peak EWMA, the load measure of {@code random two peak_ewma}: "least request with two random choices weighted by
 * latency", as Finagle's and Linkerd's balancers have it. Each peer keeps a moving average of its latency (the time
 * to the response header in HTTP, the connect time in stream) that jumps up at once to any slower sample (the peak)
 * and decays towards faster ones, and towards zero while no sample comes, with the time constant {@code decay}. A
 * peer's load is that latency times its open connections plus one, divided by its weight; two distinct peers are
 * drawn by weight and the one with the lower load serves. A peer never measured and already busy counts as very
 * loaded, so that a new peer is not flooded before its first answer.
 *
 * <p>Why these defaults: a {@code decay} of 10 s is Finagle's and Linkerd's default, long enough to remember a slow
 * peer across a burst, short enough that one slow answer is forgotten within a minute; two choices rather than a
 * scan of all peers because the best of two already removes most of the load imbalance (Mitzenmacher's "power of
 * two choices") while no worker chases the same momentarily fastest peer as every other does. The state is in the
 * peer's words, so with a {@code zone} every worker sees every other's samples.
 */
final class PeakEwma {

    /** The decay by default, ms. */
    static final long DEFAULT_DECAY = 10_000;

    /** The load of a busy peer that has no latency yet. */
    private static final double PENALTY = Double.MAX_VALUE / 2;

    private PeakEwma() {
    }

    /** The latency now, µs: the stored one decayed over the time since its sample. */
    static double latency(Peer p, long now, long decay) {
        double cost = Double.longBitsToDouble(p.getVolatile(Peer.EWMA));
        long elapsed = Math.max(0, now - p.getVolatile(Peer.EWMA_STAMP));
        return cost * Math.exp(-(double) elapsed / decay);
    }

    /** The peer's load: latency times (connections + 1), over its weight. */
    static double load(Peer p, long now, long decay) {
        double latency = latency(p, now, decay);
        long conns = p.get(Peer.CONNS);
        if (latency == 0 && conns > 0) {
            return PENALTY;
        }
        return latency * (conns + 1) / p.weight;
    }

    /** Folds a sample in: a slower one is taken whole (the peak), a faster one averaged by the time since. */
    static void observe(Peer p, long micros, long now, long decay) {
        double cost = Double.longBitsToDouble(p.getVolatile(Peer.EWMA));
        long elapsed = Math.max(0, now - p.getVolatile(Peer.EWMA_STAMP));
        double w = Math.exp(-(double) elapsed / decay);
        double next = micros > cost ? micros : cost * w + micros * (1 - w);
        p.set(Peer.EWMA, Double.doubleToRawLongBits(next));
        p.set(Peer.EWMA_STAMP, now);
    }
}
