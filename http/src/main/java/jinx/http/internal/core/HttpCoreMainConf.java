package jinx.http.internal.core;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import jinx.http.internal.variables.Variables;
import jinx.http.spi.BodyFilter;
import jinx.http.spi.HeaderFilter;
import jinx.kernel.Connection;
import jinx.kernel.Listening;
import jinx.kernel.spi.Conf;

/**
 * The main conf of {@code http_core}, one per {@code http {}} block: nginx's {@code ngx_http_core_main_conf_t}.
 * It holds the servers, the variables, and what the block builds once it is parsed: the phase engine, the top of
 * the header and body filter chains and the listening sockets. After the block is parsed nothing here changes.
 */
public final class HttpCoreMainConf {

    /** The servers in the order of their {@code server {}} blocks. */
    public final List<HttpCoreSrvConf> servers = new ArrayList<>();
    /** The parameters of {@code listen} modules registered ({@code ssl}), with what takes their connections over. */
    public final java.util.Map<String, jinx.http.spi.ConnectionTakeover> listenParameters = new java.util.HashMap<>();

    /** {@code server_names_hash_max_size}: accepted for compatibility (default 512); names are not hashed so. */
    public int serverNamesHashMaxSize = Conf.UNSET;
    /** {@code server_names_hash_bucket_size}: accepted for compatibility (default 64). */
    public int serverNamesHashBucketSize = Conf.UNSET;
    /** {@code variables_hash_max_size}: accepted for compatibility (default 1024). */
    public int variablesHashMaxSize = Conf.UNSET;
    /** {@code variables_hash_bucket_size}: accepted for compatibility (default 64). */
    public int variablesHashBucketSize = Conf.UNSET;

    /**
     * The variable registry of this block (nginx's {@code cmcf->variables}, {@code variables_keys},
     * {@code prefix_variables}): the one {@code http_variables} holds ({@link Variables#of}), or a registry of
     * the block's own when that module is not loaded. Modules reach it through {@link jinx.http.spi.HttpConfig}.
     */
    public Variables variables;

    /** The largest number of capture groups of any regex of the block (location, server name), 0 without. */
    public int ncaptures;

    /** Some location has {@code try_files}; the module running it registers its PRECONTENT handler. */
    public boolean tryFiles;

    /** The phase engine, built after every module's {@code postconfiguration} (nginx's {@code phase_engine}). */
    public PhaseEngine phaseEngine;

    /**
     * The header filter chain in execution order: the first filter with the rest of the chain behind it (nginx's
     * {@code ngx_http_top_header_filter}). Returns {@link jinx.kernel.Rc#OK} when no filter is registered.
     */
    public HeaderFilter.Next headerFilter;
    /** The body filter chain in execution order (nginx's {@code ngx_http_top_body_filter}). */
    public BodyFilter.Next bodyFilter;
    /** The modules whose header filters run, in execution order, for {@code jinx -m}. */
    public final List<String> headerFilterModules = new ArrayList<>();
    /** The modules whose body filters run, in execution order, for {@code jinx -m}. */
    public final List<String> bodyFilterModules = new ArrayList<>();

    /**
     * What takes a connection accepted on this block's listening sockets (nginx's
     * {@code ngx_http_init_connection}). The request engine sets it from its module's {@code postconfiguration}
     * (the main conf of {@code http_core}); the listening sockets read it for every connection, so it may also be
     * set later, before the loop runs. While it is null a connection is closed with an alert in the log.
     */
    public Consumer<Connection> connectionHandler;

    /** The listening sockets this block added to the cycle, each with its {@link ListeningServers}. */
    public final List<Listening> listening = new ArrayList<>();

    /** The ports the {@code listen} directives name, grouped as nginx's {@code cmcf->ports}; parse time only. */
    final List<ConfPort> ports = new ArrayList<>();

    /** The phase handlers as modules register them, by phase ordinal. */
    final List<List<Registered<jinx.http.spi.PhaseHandler>>> phases = new ArrayList<>();
    /** The header filters as modules register them, in module order. */
    final List<Registered<HeaderFilter>> headerFilters = new ArrayList<>();
    /** The body filters as modules register them, in module order. */
    final List<Registered<BodyFilter>> bodyFilters = new ArrayList<>();

    /**
     * A main conf with nothing set; {@code http_core} makes one per {@code http {}} block.
     */
    public HttpCoreMainConf() {
        for (int i = 0; i < jinx.http.spi.Phase.values().length; i++) {
            phases.add(new ArrayList<>());
        }
    }

    /**
     * Something a module registered, with the module's name.
     *
     * @param module the module's name
     * @param value what it registered
     * @param <T> the kind
     */
    record Registered<T>(String module, T value) {
    }
}
