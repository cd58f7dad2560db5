package jinx.contrib.hello;

import jinx.http.spi.ComplexValue;
import jinx.kernel.spi.Conf;

/**
 * The {@code hello} module's location conf: created for {@code http {}}, every {@code server {}} and every
 * {@code location {}}, then merged down ({@link HelloModule#mergeLocConf}). Unset fields hold {@link Conf#UNSET}
 * (nginx's {@code NGX_CONF_UNSET}) or null until the merge fills them; after the merge the conf is only read.
 */
final class HelloLocConf {


    /** Whether {@code hello} stands in this location: only then does the handler answer. */
    boolean enabled;
    /** The greeting, with variables; null for the default. Not inherited: it goes with {@code hello}. */
    ComplexValue text;
    /** {@code hello_repeat}: how many times the greeting is written; inherited. */
    int repeat = Conf.UNSET;
}
