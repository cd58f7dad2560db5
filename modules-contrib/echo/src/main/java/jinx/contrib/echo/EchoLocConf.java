package jinx.contrib.echo;

import java.util.ArrayList;
import java.util.List;

/**
 * The echo commands of one location, in the order written. Not inherited: as with nginx's content handlers, a
 * nested location answers with its own commands or not at all.
 */
final class EchoLocConf {

    /** The commands; empty where no echo directive stands. */
    final List<EchoCommand> commands = new ArrayList<>();
}
