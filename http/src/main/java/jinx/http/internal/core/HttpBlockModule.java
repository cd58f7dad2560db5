package jinx.http.internal.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jinx.http.spi.BodyFilter;
import jinx.http.spi.HeaderFilter;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.http.spi.PhaseHandler;
import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.Listening;
import jinx.kernel.LoadedModule;
import jinx.kernel.Rc;
import jinx.kernel.TempPath;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.CoreModule;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;
import jinx.kernel.spi.WarmUpExchange;

/**
 * The {@code http} module: the core module that owns {@code http {}} and so defines the HTTP module type, nginx's
 * {@code ngx_http_module} with {@code ngx_http_block()}. The block creates the confs of every HTTP module, calls
 * their {@code preconfiguration}, parses its contents, then calls {@code initMainConf}, merges every server and
 * location, sorts the locations into their trees, calls every {@code postconfiguration}, checks the variables,
 * builds the phase engine and the filter chains, and adds a listening socket for every address the servers listen
 * on.
 */
public final class HttpBlockModule implements JinxModule, CoreModule {

    /** The module's name. */
    public static final String NAME = "http";

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("http", Set.of(Ctx.MAIN), Arity.BLOCK | Arity.NOARGS, HttpBlockConf.class,
            HttpBlockModule::block)
            .syntax("{ ... }").describe("Provides the configuration file context in which the HTTP server directives "
                + "are specified."));

    /**
     * The module; the kernel makes one per cycle.
     */
    public HttpBlockModule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return ModuleType.CORE;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
    }

    /** For {@code jinx -m}: the phase handlers and filter chains, in the order they run. */
    @Override
    public List<String> report(Cycle cycle) {
        HttpBlockConf block = cycle.conf(this, HttpBlockConf.class);
        HttpCoreMainConf core = block == null ? null : block.core();
        if (core == null || core.phaseEngine == null) {
            return List.of();
        }
        List<String> lines = new java.util.ArrayList<>();
        // say which way the words run: nginx's filter list runs the other way round
        lines.add("phase handlers and filters in execution order: a module ordered after(\"x\") runs later than x");
        for (String handler : core.phaseEngine.describe()) {
            lines.add("phase " + handler);
        }
        lines.add("header filters: " + chain(core.headerFilterModules));
        lines.add("body filters: " + chain(core.bodyFilterModules));
        return lines;
    }

    /**
     * A filter chain by module: a module that added several filters in a row is named once, with their number
     * ({@code http_range_filter (2 filters)}), rather than as a link to itself.
     */
    static String chain(List<String> modules) {
        List<String> words = new ArrayList<>();
        for (int i = 0; i < modules.size(); ) {
            int n = 1;
            while (i + n < modules.size() && modules.get(i + n).equals(modules.get(i))) {
                n++;
            }
            words.add(n == 1 ? modules.get(i) : modules.get(i) + " (" + n + " filters)");
            i += n;
        }
        return String.join(" -> ", words);
    }

    @Override
    public List<Directive<?>> directives() {
        return DIRECTIVES;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public Object createConf(Cycle cycle) {
        return new HttpBlockConf();
    }

    /**
     * Opens the error logs of the servers and locations, and gives every listening socket the log of its default
     * server: nginx opens them with the cycle's other files, once the configuration is read ({@code -t} checks
     * them here).
     */
    @Override
    public void initModule(Cycle cycle) throws Exception {
        HttpBlockConf conf = cycle.conf(this, HttpBlockConf.class);
        if (conf != null && conf.isSet()) {
            ErrorLogs.open(cycle, conf);
        }
    }

    /**
     * A worker never runs {@code initModule} (it attaches to what the master made): it opens the error logs of
     * the servers and locations itself. A single process opened them in {@code initModule} already.
     */
    @Override
    public void initProcess(Cycle cycle) throws Exception {
        initModule(cycle);
    }

    /** Requests to the servers' own locations: {@link HttpWarmUp}. */
    @Override
    public List<WarmUpExchange> warmUp(Cycle cycle, Listening ls) {
        return HttpWarmUp.exchanges(ls);
    }

    @Override
    public void reopenFiles(Cycle cycle) {
        HttpBlockConf conf = cycle.conf(this, HttpBlockConf.class);
        if (conf != null && conf.isSet()) {
            ErrorLogs.reopen(cycle, conf);
        }
    }

    @Override
    public void exitProcess(Cycle cycle) {
        exitMaster(cycle);
    }

    @Override
    public void exitMaster(Cycle cycle) {
        HttpBlockConf conf = cycle.conf(this, HttpBlockConf.class);
        if (conf != null && conf.isSet()) {
            ErrorLogs.close(cycle, conf);
        }
    }

    private static void block(ConfContext cf, HttpBlockConf conf) throws ConfException {
        Cycle cycle = cf.cycle();
        conf.init(cycle);
        HttpCoreMainConf cmcf = conf.core();
        cmcf.variables = HttpCoreModule.newVariables(cycle);
        HttpConf hc = new HttpConf(conf);
        for (LoadedModule m : conf.modules()) {
            HttpModule module = conf.context(m.typeIndex());
            if (module != null) {
                hc.calling(m);
                module.preconfiguration(hc);
            }
        }
        hc.calling(null);

        cf.parseBlock(new HttpScope(HttpCtx.MAIN, conf, conf.ctx()));

        for (LoadedModule m : conf.modules()) {
            int mi = m.typeIndex();
            HttpModule module = conf.context(mi);
            if (module == null) {
                continue;
            }
            Object main = conf.ctx().mainConf[mi];
            if (main != null) {
                module.initMainConf(main);
            }
            mergeServers(conf, cmcf, module, mi);
        }
        // nginx's ngx_conf_merge_path_value() adds each client_body_temp_path, the default too, for the master
        for (HttpCoreLocConf clcf : conf.allLocConfs()) {
            if (clcf.clientBodyTempPath != null) {
                cycle.addPath(new TempPath(clcf.clientBodyTempPath, clcf.clientBodyTempLevels));
            }
        }

        for (HttpCoreSrvConf cscf : cmcf.servers) {
            HttpCoreLocConf clcf = cscf.locConf();
            LocationBuilder.initLocations(cscf, clcf);
            LocationBuilder.initStaticLocationTrees(clcf);
        }

        for (LoadedModule m : conf.modules()) {
            HttpModule module = conf.context(m.typeIndex());
            if (module != null) {
                hc.calling(m);
                module.postconfiguration(hc);
            }
        }
        hc.calling(null);
        cmcf.variables.check();

        cmcf.phaseEngine = phaseEngine(cmcf);
        filterChains(cmcf);
        OrderCheck.warn(cf, cmcf);
        Listens.optimizeServers(cf, cmcf);
    }

    private static void mergeServers(HttpBlockConf conf, HttpCoreMainConf cmcf, HttpModule module, int mi)
        throws ConfException {
        HttpConfCtx http = conf.ctx();
        for (HttpCoreSrvConf cscf : cmcf.servers) {
            Object srv = cscf.ctx.srvConf[mi];
            if (srv != null) {
                module.mergeSrvConf(http.srvConf[mi], srv);
            }
            Object loc = cscf.ctx.locConf[mi];
            if (loc != null) {
                module.mergeLocConf(http.locConf[mi], loc);
                mergeLocations(cscf.locConf(), cscf.ctx.locConf, module, mi);
            }
        }
    }

    /** nginx's {@code ngx_http_merge_locations()}: every location (nested ones too) from its enclosing block. */
    private static void mergeLocations(HttpCoreLocConf pclcf, Object[] parent, HttpModule module, int mi)
        throws ConfException {
        if (pclcf.locations == null) {
            return;
        }
        for (LocationBuilder.Entry e : pclcf.locations) {
            HttpCoreLocConf clcf = e.conf();
            if (clcf.locConf[mi] != null) {
                module.mergeLocConf(parent[mi], clcf.locConf[mi]);
            }
            mergeLocations(clcf, clcf.locConf, module, mi);
        }
    }

    /**
     * nginx's {@code ngx_http_init_phase_handlers()}, with the handlers of a phase in module order and the
     * POST_ACCESS entry counted only when it exists.
     */
    static PhaseEngine phaseEngine(HttpCoreMainConf cmcf) {
        List<Phase> phases = new ArrayList<>();
        List<PhaseHandler> handlers = new ArrayList<>();
        List<Integer> nexts = new ArrayList<>();
        List<String> modules = new ArrayList<>();
        boolean useRewrite = !cmcf.phases.get(Phase.REWRITE.ordinal()).isEmpty();
        boolean useAccess = !cmcf.phases.get(Phase.ACCESS.ordinal()).isEmpty();
        int serverRewrite = -1;
        int locationRewrite = -1;
        int findConfig = -1;
        for (Phase phase : Phase.values()) {
            if (phase == Phase.LOG) {
                break;
            }
            List<HttpCoreMainConf.Registered<PhaseHandler>> registered = cmcf.phases.get(phase.ordinal());
            switch (phase) {
                case SERVER_REWRITE:
                    serverRewrite = phases.size();
                    break;
                case REWRITE:
                    locationRewrite = phases.size();
                    break;
                case FIND_CONFIG:
                    findConfig = phases.size();
                    addEntry(phases, handlers, nexts, modules, phase, null, -1, HttpCoreModule.NAME);
                    continue;
                case POST_REWRITE:
                    if (useRewrite) {
                        addEntry(phases, handlers, nexts, modules, phase, null, findConfig, HttpCoreModule.NAME);
                    }
                    continue;
                case POST_ACCESS:
                    if (useAccess) {
                        addEntry(phases, handlers, nexts, modules, phase, null, phases.size() + 1,
                            HttpCoreModule.NAME);
                    }
                    continue;
                default:
                    break;
            }
            int next = phases.size() + registered.size();
            if (phase == Phase.ACCESS && useAccess) {
                // OK under "satisfy any" skips the POST_ACCESS entry
                next++;
            }
            for (HttpCoreMainConf.Registered<PhaseHandler> h : registered) {
                addEntry(phases, handlers, nexts, modules, phase, h.value(), next, h.module());
            }
        }
        List<PhaseHandler> log = new ArrayList<>();
        for (HttpCoreMainConf.Registered<PhaseHandler> h : cmcf.phases.get(Phase.LOG.ordinal())) {
            log.add(h.value());
        }
        int[] next = new int[nexts.size()];
        for (int i = 0; i < next.length; i++) {
            next[i] = nexts.get(i);
        }
        return new PhaseEngine(phases.toArray(new Phase[0]), handlers.toArray(new PhaseHandler[0]), next,
            modules.toArray(new String[0]), serverRewrite, locationRewrite, List.copyOf(log));
    }

    private static void addEntry(List<Phase> phases, List<PhaseHandler> handlers, List<Integer> nexts,
                                 List<String> modules, Phase phase, PhaseHandler handler, int next, String module) {
        phases.add(phase);
        handlers.add(handler);
        nexts.add(next);
        modules.add(module);
    }

    /**
     * Builds the header and body filter chains in module order: each position gets its {@code Next}, built once,
     * that runs the next filter with the rest of the chain; the end of a chain returns {@link Rc#OK}.
     */
    static void filterChains(HttpCoreMainConf cmcf) {
        HeaderFilter.Next header = r -> Rc.OK;
        for (int i = cmcf.headerFilters.size() - 1; i >= 0; i--) {
            HeaderFilter f = cmcf.headerFilters.get(i).value();
            header = FilterLinks.header(f, header);
        }
        BodyFilter.Next body = (r, in) -> Rc.OK;
        for (int i = cmcf.bodyFilters.size() - 1; i >= 0; i--) {
            BodyFilter f = cmcf.bodyFilters.get(i).value();
            body = FilterLinks.body(f, body);
        }
        cmcf.headerFilter = header;
        cmcf.bodyFilter = body;
        cmcf.headerFilterModules.clear();
        cmcf.bodyFilterModules.clear();
        for (HttpCoreMainConf.Registered<HeaderFilter> f : cmcf.headerFilters) {
            cmcf.headerFilterModules.add(f.module());
        }
        for (HttpCoreMainConf.Registered<BodyFilter> f : cmcf.bodyFilters) {
            cmcf.bodyFilterModules.add(f.module());
        }
    }
}
