package jinx.kernel.internal.core;

import java.util.ArrayList;
import java.util.List;

import jinx.kernel.ErrorLog;

/**
 * The {@code errlog} module's configuration: where the main error log writes.
 */
public final class ErrlogConf {

    /** The targets of the {@code error_log} directives, in order; empty when there is none. */
    public final List<ErrorLog.Target> targets = new ArrayList<>();
}
