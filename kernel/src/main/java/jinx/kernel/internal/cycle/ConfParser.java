package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.LoadedModule;
import jinx.kernel.LogLevel;
import jinx.kernel.internal.IoErrors;
import jinx.kernel.internal.conf.ConfTokenizer;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfScope;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The configuration parser and the one directive dispatcher for all modules: nginx's {@code ngx_conf_parse()}
 * and {@code ngx_conf_handler()}. It reads files with {@link ConfTokenizer}, checks each directive's context,
 * block-ness, arity and repetition, finds the conf object it sets, calls its handler, and puts the file and line
 * on every error.
 */
final class ConfParser implements ConfContext {

    static final String COMMAND_LINE = "command line";

    /** Deep enough for any real configuration, shallow enough for the default thread stack. */
    static final int MAX_INCLUDE_DEPTH = 200;

    /**
     * nginx nests blocks as deep as its C stack allows (10,000 {@code location}s); ours recurse on a JVM thread's
     * stack in the parser, the merge and every request's location lookup, and ran out near 900. With the include
     * limit on top this stays well inside a default 1 MB stack, interpreted, and no real configuration comes
     * near it (issue #36).
     */
    static final int MAX_BLOCK_DEPTH = 200;

    private enum Mode { FILE, BLOCK, PARAM }

    private record Entry(JinxModule module, Directive<?> directive) {
    }

    private record Source(String name, ConfTokenizer tokenizer) {
    }

    private final KernelCycle cycle;
    private final Deque<Path> including = new ArrayDeque<>();
    private final Map<ConfScope, Set<String>> seen = new IdentityHashMap<>();
    private Map<String, List<Entry>> table = Map.of();
    private int tableVersion = -1;
    private ConfScope scope;
    private int blockDepth;
    private Source source;
    private List<String> args = List.of();

    ConfParser(KernelCycle cycle, ConfScope main) {
        this.cycle = cycle;
        this.scope = main;
    }

    /**
     * Parses the directives given with {@code -g}, as nginx's {@code ngx_conf_param()}: errors say
     * "in command line".
     */
    void parseParam(String text) throws ConfException {
        Source saved = source;
        source = new Source(COMMAND_LINE, new ConfTokenizer(text.getBytes(StandardCharsets.ISO_8859_1)));
        try {
            parse(Mode.PARAM);
        } finally {
            source = saved;
        }
    }

    @Override
    public void parseFile(Path file) throws ConfException {
        Path key = file.toAbsolutePath().normalize();
        if (including.contains(key)) {
            throw new ConfException("include of \"" + file + "\" is recursive");
        }
        if (including.size() >= MAX_INCLUDE_DEPTH) {
            // nginx runs out of descriptors somewhere deeper; we stop before the stack does
            throw new ConfException("includes are nested deeper than " + MAX_INCLUDE_DEPTH + " at \"" + file + "\"");
        }
        byte[] content;
        try {
            // the disk, or for a worker the master's snapshot: the same bytes either way
            content = cycle.fileSource().read(file);
        } catch (IOException e) {
            throw new ConfException("open() \"" + file + "\" failed (" + IoErrors.reason(e) + ")", e);
        } catch (OutOfMemoryError e) {
            throw new ConfException("read() \"" + file + "\" failed (file too large)");
        }
        cycle.addFile(new KernelCycle.ConfFile(file, content));
        Source saved = source;
        source = new Source(file.toString(), new ConfTokenizer(content));
        including.push(key);
        try {
            parse(Mode.FILE);
        } finally {
            including.pop();
            source = saved;
        }
    }

    @Override
    public void parseBlock(ConfScope inner) throws ConfException {
        if (blockDepth >= MAX_BLOCK_DEPTH) {
            throw new ConfException("blocks are nested deeper than " + MAX_BLOCK_DEPTH);
        }
        ConfScope saved = scope;
        scope = inner;
        blockDepth++;
        try {
            parse(Mode.BLOCK);
        } finally {
            blockDepth--;
            scope = saved;
        }
    }

    private void parse(Mode mode) throws ConfException {
        ConfTokenizer tokenizer = source.tokenizer();
        for (;;) {
            ConfTokenizer.Kind kind;
            try {
                kind = tokenizer.next();
            } catch (ConfException e) {
                if (mode == Mode.PARAM && e.text().equals("unexpected end of file, expecting \";\" or \"}\"")) {
                    // nginx words the end of a -g string so
                    throw here(new ConfException("unexpected end of parameter, expecting \";\""));
                }
                throw here(e);
            }
            switch (kind) {
                case EOF:
                    if (mode == Mode.BLOCK) {
                        throw here(new ConfException("unexpected end of file, expecting \"}\""));
                    }
                    return;
                case BLOCK_END:
                    if (mode != Mode.BLOCK) {
                        throw here(new ConfException("unexpected \"}\""));
                    }
                    return;
                case BLOCK_START:
                    if (mode == Mode.PARAM) {
                        throw here(new ConfException("block directives are not supported in -g option"));
                    }
                    break;
                default:
                    break;
            }
            args = List.copyOf(tokenizer.words());
            try {
                dispatch(kind == ConfTokenizer.Kind.BLOCK_START);
            } catch (ConfException e) {
                throw here(e);
            } catch (InvalidPathException e) {
                // A file name the file system refuses (a NUL byte: nginx's C strings would end the name there),
                // whether the handler resolved it with resolve(), resolveConf() or Path.of(): every directive
                // that names a file gets Slots.path()'s error at its own line (issue #36, ConfFuzzTest's finding)
                throw here(new ConfException("\"" + name() + "\" directive invalid value"));
            } catch (RuntimeException e) {
                throw here(new ConfException("\"" + name() + "\" directive failed (" + e + ")", e));
            }
        }
    }

    private ConfException here(ConfException e) {
        return e.locate(source.name(), source.name().equals(COMMAND_LINE) ? 0 : source.tokenizer().line());
    }

    private void dispatch(boolean block) throws ConfException {
        ConfScope.LineHandler lines = scope.lineHandler();
        if (lines != null) {
            if (block) {
                throw new ConfException("unexpected \"{\"");
            }
            lines.line(this, args);
            return;
        }
        String name = name();
        List<Entry> entries = table().get(name);
        if (entries == null) {
            throw new ConfException("unknown directive \"" + name + "\"");
        }
        for (Entry e : entries) {
            ModuleType type = e.module().type();
            if (!type.equals(ModuleType.CONF) && !type.equals(scope.moduleType())) {
                continue;
            }
            Set<Ctx> contexts = e.directive().contexts();
            if (!contexts.contains(Ctx.ANY) && !contexts.contains(scope.ctx())) {
                continue;
            }
            invoke(e, block);
            return;
        }
        throw new ConfException("\"" + name + "\" directive is not allowed here");
    }

    private void invoke(Entry e, boolean block) throws ConfException {
        Directive<?> d = e.directive();
        String name = d.name();
        if (!d.isBlock() && block) {
            throw new ConfException("directive \"" + name + "\" is not terminated by \";\"");
        }
        if (d.isBlock() && !block) {
            throw new ConfException("directive \"" + name + "\" has no opening \"{\"");
        }
        if (!Arity.accepts(d.arity(), args.size() - 1)) {
            throw new ConfException("invalid number of arguments in \"" + name + "\" directive");
        }
        Object conf = null;
        if (d.confType() != Void.class) {
            conf = scope.conf(e.module(), d.confType());
            if (conf == null) {
                throw new IllegalStateException("module \"" + e.module().name() + "\" has no "
                    + d.confType().getSimpleName() + " in context \"" + scope.ctx() + "\"");
            }
        }
        if (!d.isMulti() && !seen.computeIfAbsent(scope, s -> new HashSet<>()).add(name)) {
            throw new ConfException("\"" + name + "\" directive is duplicate");
        }
        apply(d, conf);
    }

    private static <C> void applyTyped(Directive<C> d, ConfContext cf, Object conf) throws ConfException {
        d.handler().set(cf, d.confType() == Void.class ? null : d.confType().cast(conf));
    }

    private void apply(Directive<?> d, Object conf) throws ConfException {
        applyTyped(d, this, conf);
    }

    private Map<String, List<Entry>> table() {
        if (tableVersion == cycle.modulesVersion()) {
            return table;
        }
        Map<String, List<Entry>> built = new HashMap<>();
        for (LoadedModule m : cycle.modules()) {
            for (Directive<?> d : m.module().directives()) {
                built.computeIfAbsent(d.name(), n -> new ArrayList<>()).add(new Entry(m.module(), d));
            }
        }
        table = built;
        tableVersion = cycle.modulesVersion();
        return table;
    }

    @Override
    public List<String> args() {
        return args;
    }

    @Override
    public Cycle cycle() {
        return cycle;
    }

    @Override
    public ConfScope scope() {
        return scope;
    }

    @Override
    public Path resolve(String path) {
        return cycle.prefix().resolve(path);
    }

    @Override
    public Path resolveConf(String path) {
        return cycle.confPrefix().resolve(path);
    }

    @Override
    public String file() {
        return source == null ? null : source.name();
    }

    @Override
    public int line() {
        return source == null ? 0 : source.tokenizer().line();
    }

    @Override
    public void log(LogLevel level, String message) {
        cycle.log().log(level, here(new ConfException(message)).getMessage());
    }
}
