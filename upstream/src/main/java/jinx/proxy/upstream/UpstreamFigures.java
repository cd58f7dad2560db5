package jinx.proxy.upstream;

import java.util.List;

/**
 * The live figures of one upstream kept in a zone ({@link PeerZone#figures}). Added in SPI 1.6.
 *
 * @param zone the zone's name
 * @param name the upstream's name
 * @param peers its peers, primary ones first, then the backups
 */
public record UpstreamFigures(String zone, String name, List<PeerFigures> peers) {
}
