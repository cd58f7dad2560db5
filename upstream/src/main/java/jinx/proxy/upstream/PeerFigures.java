package jinx.proxy.upstream;

/**
 * The live figures of one peer, as the status module prints them (nginx Plus' {@code /api/N/http/upstreams}
 * peers): counters since the zone was made (a reload that keeps the upstream keeps them), the state now and two
 * moving averages. Added in SPI 1.6.
 *
 * @param name the address ({@code 127.0.0.1:8081})
 * @param server the {@code server} directive's address as written
 * @param backup whether the peer is a backup server
 * @param weight its weight
 * @param state {@code up}, {@code down}, {@code unavail} (failed out by max_fails), {@code unhealthy} (health
 *     checks), {@code checking} (mandatory, no probe passed yet)
 * @param active connections open now
 * @param requests requests (stream: connections) sent to it
 * @param responses responses by class, 1xx to 5xx
 * @param fails failed attempts
 * @param unavail times it was failed out ({@code max_fails} reached)
 * @param checks health probes made
 * @param checkFails health probes failed
 * @param unhealthy times it turned unhealthy
 * @param lastCheck the last probe: 0 none, 1 passed, 2 failed
 * @param headerTime moving average of the time to the response's header, ms (HTTP)
 * @param responseTime moving average of the time to the response's end (stream: the session's), ms
 */
public record PeerFigures(String name, String server, boolean backup, int weight, String state, long active,
                          long requests, long[] responses, long fails, long unavail, long checks, long checkFails,
                          long unhealthy, long lastCheck, long headerTime, long responseTime) {

    /**
     * Returns the responses of all classes.
     *
     * @return the total
     */
    public long responsesTotal() {
        long t = 0;
        for (long r : responses) {
            t += r;
        }
        return t;
    }
}
