package jinx.http.internal.log;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import jinx.http.internal.variables.FakeRequest;
import jinx.http.internal.variables.HttpVariablesModule;
import jinx.http.internal.variables.Variables;
import jinx.http.spi.BodyFilter;
import jinx.http.spi.ComplexValue;
import jinx.http.spi.HeaderFilter;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.Phase;
import jinx.http.spi.PhaseHandler;
import jinx.http.spi.VariableGetter;
import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.ErrorLog;
import jinx.kernel.EventLoop;
import jinx.kernel.Listening;
import jinx.kernel.LoadedModule;
import jinx.kernel.LogLevel;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfScope;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * Configures {@code http_variables} and {@code http_log} the way the {@code http {}} block does, without the
 * block: preconfiguration, directives (each with its file and line), merges, postconfiguration and the variables'
 * check; then runs the LOG phase handler over {@link FakeRequest}s.
 */
final class LogFixture {

    static final String CONF = "/etc/jinx/jinx.conf";

    final Path prefix;
    final HttpVariablesModule varsModule = new HttpVariablesModule();
    final HttpLogModule logModule = new HttpLogModule();
    final LogMainConf main;
    final LogLocConf http;
    final ByteArrayOutputStream cycleLog = new ByteArrayOutputStream();
    final List<PhaseHandler> logHandlers = new ArrayList<>();
    private final FakeCycle cycle;
    private final FakeHttpConfig hc;
    private int line = 1;

    LogFixture(Path prefix) throws ConfException {
        this.prefix = prefix;
        this.cycle = new FakeCycle();
        this.hc = new FakeHttpConfig();
        varsModule.createMainConf();
        main = (LogMainConf) logModule.createMainConf();
        http = (LogLocConf) logModule.createLocConf();
        varsModule.preconfiguration(hc);
        logModule.preconfiguration(hc);
    }

    Variables vars() {
        return varsModule.variables();
    }

    /** Runs {@code log_format} in {@code http {}}. */
    void logFormat(String... args) throws ConfException {
        HttpLogModule.logFormat(cf("log_format", args), main);
    }

    /** Runs {@code access_log} in a context. */
    void accessLog(LogLocConf conf, String... args) throws ConfException {
        HttpLogModule.accessLog(cf("access_log", args), conf);
    }

    LogLocConf location() {
        return (LogLocConf) logModule.createLocConf();
    }

    void merge(LogLocConf parent, LogLocConf child) {
        logModule.mergeLocConf(parent, child);
    }

    /** The module's postconfiguration and the variables' check. */
    void postconfiguration() throws ConfException {
        logModule.postconfiguration(hc);
        vars().check();
    }

    /** A request logged through a location's conf. */
    FakeRequest request(LogLocConf conf) {
        FakeRequest r = new FakeRequest(vars());
        r.locConf(1, conf);
        return r;
    }

    void log(FakeRequest r) {
        for (PhaseHandler h : logHandlers) {
            h.handle(r);
        }
    }

    ErrorLog errorLog() {
        return cycle.log();
    }

    String cycleLog() {
        return cycleLog.toString(StandardCharsets.ISO_8859_1);
    }

    private ConfContext cf(String name, String... args) {
        List<String> words = new ArrayList<>();
        words.add(name);
        words.addAll(Arrays.asList(args));
        int at = line++;
        return new ConfContext() {
            @Override
            public List<String> args() {
                return words;
            }

            @Override
            public Cycle cycle() {
                return cycle;
            }

            @Override
            public ConfScope scope() {
                return null;
            }

            @Override
            public void parseBlock(ConfScope scope) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void parseFile(Path file) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Path resolve(String path) {
                return prefix.resolve(path);
            }

            @Override
            public Path resolveConf(String path) {
                return prefix.resolve("conf").resolve(path);
            }

            @Override
            public String file() {
                return CONF;
            }

            @Override
            public int line() {
                return at;
            }

            @Override
            public void log(LogLevel level, String message) {
                cycle.log().log(level, message + " in " + CONF + ":" + at);
            }
        };
    }

    private final class FakeCycle implements Cycle {
        private final ErrorLog log;
        private final List<LoadedModule> modules = List.of(
            new LoadedModule(varsModule, 0, 0, null, "0.1.0"),
            new LoadedModule(logModule, 1, 1, null, "0.1.0"));

        FakeCycle() {
            try {
                log = ErrorLog.open(List.of(new ErrorLog.Target(null, LogLevel.DEBUG)),
                    new PrintStream(cycleLog, true, StandardCharsets.ISO_8859_1));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public Path prefix() {
            return prefix;
        }

        @Override
        public Path confPrefix() {
            return prefix.resolve("conf");
        }

        @Override
        public Path confFile() {
            return Path.of(CONF);
        }

        @Override
        public ErrorLog log() {
            return log;
        }

        @Override
        public List<LoadedModule> modules() {
            return modules;
        }

        @Override
        public List<LoadedModule> modules(ModuleType type) {
            return modules;
        }

        @Override
        public LoadedModule module(String name) {
            for (LoadedModule m : modules) {
                if (m.name().equals(name)) {
                    return m;
                }
            }
            return null;
        }

        @Override
        public LoadedModule entry(JinxModule module) {
            for (LoadedModule m : modules) {
                if (m.module() == module) {
                    return m;
                }
            }
            throw new IllegalArgumentException(module.name());
        }

        @Override
        public <T> T conf(JinxModule module, Class<T> type) {
            return null;
        }

        @Override
        public <T> T conf(String name, Class<T> type) {
            return null;
        }

        @Override
        public List<Listening> listening() {
            return List.of();
        }

        @Override
        public void addListening(Listening ls) {
            throw new UnsupportedOperationException();
        }

        @Override
        public EventLoop eventLoop() {
            return null;
        }
    }

    private final class FakeHttpConfig implements HttpConfig {
        @Override
        public Cycle cycle() {
            return cycle;
        }

        @Override
        public int ctxIndex(JinxModule module) {
            return cycle.entry(module).typeIndex();
        }

        @Override
        public Object mainConf(JinxModule module) {
            return module == logModule ? main : vars();
        }

        @Override
        public void addPhaseHandler(Phase phase, PhaseHandler handler) {
            if (phase != Phase.LOG) {
                throw new AssertionError(phase);
            }
            logHandlers.add(handler);
        }

        @Override
        public void addHeaderFilter(HeaderFilter filter) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void addBodyFilter(BodyFilter filter) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void addVariable(String name, VariableGetter getter, int flags) throws ConfException {
            vars().add(name, getter, flags);
        }

        @Override
        public int variableIndex(String name) throws ConfException {
            return vars().index(name);
        }

        @Override
        public ComplexValue compile(String value) throws ConfException {
            return vars().compile(value);
        }
    }
}
