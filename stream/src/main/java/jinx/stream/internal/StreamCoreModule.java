package jinx.stream.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.Slots;
import jinx.stream.spi.StreamConfig;

/**
 * nginx's {@code ngx_stream_core_module}: {@code server}, {@code listen}, {@code preread_buffer_size},
 * {@code preread_timeout}, {@code proxy_protocol_timeout}, {@code tcp_nodelay} and the variables hash sizes
 * (accepted, unused: variables are found by name once, at configuration time); the core variables.
 */
public final class StreamCoreModule extends StreamModuleBase {

    /** The module's name. */
    public static final String NAME = "stream_core";

    /** The main conf: nothing of its own here (the block holds the servers). */
    static final class MainConf {
        int variablesHashMaxSize;
        int variablesHashBucketSize;
        /** The servers, for their {@code error_log}s. */
        final List<StreamCoreSrvConf> servers = new ArrayList<>();
        final StreamErrorLogs errorLogs = new StreamErrorLogs();
    }

    private MainConf main;

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("server", Set.of(MAIN), Arity.BLOCK | Arity.NOARGS, MainConf.class, StreamCoreModule::server)
            .multi().syntax("{ ... }").describe("Sets the configuration for a server."),
        Directive.of("listen", Set.of(SRV), Arity.ONE_MORE, StreamCoreSrvConf.class,
            (cf, c) -> StreamListen.listen(cf, ((BlockScope) cf.scope()).block, c))
            .multi().syntax("address:port [bind] [backlog=number] [rcvbuf=size] [sndbuf=size] [ipv6only=on|off] "
                + "[reuseport] [so_keepalive=on|off|[keepidle]:[keepintvl]:[keepcnt]] [proxy_protocol]")
            .describe("Sets the address and port for the socket on which the server will accept connections."),
        Directive.of("error_log", Set.of(MAIN, SRV), Arity.ONE_MORE, StreamCoreSrvConf.class,
            StreamErrorLogs::directive).multi().syntax("file [level]").defaults("logs/error.log error")
            .describe("Configures logging."),
        Directive.of("preread_buffer_size", Set.of(MAIN, SRV), Arity.TAKE1, StreamCoreSrvConf.class,
            Slots.size((c, v) -> c.prereadBufferSize = v)).syntax("size").defaults("16k")
            .describe("Specifies a size of the preread buffer."),
        Directive.of("preread_timeout", Set.of(MAIN, SRV), Arity.TAKE1, StreamCoreSrvConf.class,
            Slots.msec((c, v) -> c.prereadTimeout = v)).syntax("timeout").defaults("30s")
            .describe("Specifies a timeout of the preread phase."),
        Directive.of("proxy_protocol_timeout", Set.of(MAIN, SRV), Arity.TAKE1, StreamCoreSrvConf.class,
            Slots.msec((c, v) -> c.proxyProtocolTimeout = v)).syntax("timeout").defaults("30s")
            .describe("Specifies a timeout for reading the PROXY protocol header to complete."),
        Directive.of("tcp_nodelay", Set.of(MAIN, SRV), Arity.FLAG, StreamCoreSrvConf.class,
            Slots.flag((c, v) -> c.tcpNodelay = v ? 1 : 0)).syntax("on | off").defaults("on")
            .describe("Enables or disables the use of the TCP_NODELAY option."),
        Directive.of("variables_hash_max_size", Set.of(MAIN), Arity.TAKE1, MainConf.class,
            Slots.number((c, v) -> c.variablesHashMaxSize = v)).syntax("size").defaults("1024")
            .describe("Sets the maximum size of the variables hash table."),
        Directive.of("variables_hash_bucket_size", Set.of(MAIN), Arity.TAKE1, MainConf.class,
            Slots.number((c, v) -> c.variablesHashBucketSize = v)).syntax("size").defaults("64")
            .describe("Sets the bucket size for the variables hash table."));

    /**
     * The module; the kernel makes one per cycle.
     */
    public StreamCoreModule() {
        super(NAME, DIRECTIVES);
    }

    @Override
    public Object createMainConf() {
        main = new MainConf();
        return main;
    }

    @Override
    public void initModule(Cycle cycle) throws ConfException {
        if (main != null) {
            main.errorLogs.open(cycle, main.servers);
        }
    }

    @Override
    public void initProcess(Cycle cycle) throws ConfException {
        initModule(cycle);
    }

    @Override
    public void reopenFiles(Cycle cycle) {
        if (main != null) {
            main.errorLogs.reopen(cycle);
        }
    }

    @Override
    public void exitProcess(Cycle cycle) {
        exitMaster(cycle);
    }

    @Override
    public void exitMaster(Cycle cycle) {
        if (main != null) {
            main.errorLogs.close(main.servers);
        }
    }

    @Override
    public Object createSrvConf() {
        return new StreamCoreSrvConf();
    }

    @Override
    public void preconfiguration(StreamConfig cf) throws ConfException {
        StreamVariables.addCore(cf);
    }

    @Override
    public void mergeSrvConf(Object parent, Object child) throws ConfException {
        StreamCoreSrvConf conf = (StreamCoreSrvConf) child;
        if (conf.handler == null) {
            throw ConfException.at("no handler for server", conf.file, conf.line);
        }
        conf.merge((StreamCoreSrvConf) parent);
    }

    /** nginx's {@code ngx_stream_core_server()}. */
    private static void server(ConfContext cf, MainConf main) throws ConfException {
        BlockScope outer = (BlockScope) cf.scope();
        StreamBlock block = outer.block;
        Object[] confs = block.createSrvConfs();
        StreamCoreSrvConf cscf = block.coreSrv(confs);
        cscf.ctx = confs;
        cscf.file = cf.file();
        cscf.line = cf.line();
        block.servers.add(cscf);
        main.servers.add(cscf);
        cf.parseBlock(new BlockScope(SRV, block, confs, null));
        if (!cscf.listen) {
            throw ConfException.at("no \"listen\" is defined for server", cscf.file, cscf.line);
        }
    }
}
