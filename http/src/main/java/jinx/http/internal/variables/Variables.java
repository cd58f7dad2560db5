package jinx.http.internal.variables;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jinx.http.HttpRequest;
import jinx.http.spi.ComplexValue;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.VariableGetter;
import jinx.kernel.ConfException;
import jinx.kernel.Cycle;
import jinx.kernel.ErrorLog;
import jinx.kernel.LoadedModule;
import jinx.kernel.spi.ConfContext;

/**
 * The variables of one {@code http {}} block: nginx's {@code cmcf->variables_keys}, {@code prefix_variables} and
 * {@code variables}. Modules {@link #add} variables in {@code preconfiguration}; the configuration asks for the
 * {@link #index} of every name it uses; {@link #check()}, once every module's {@code postconfiguration} has run,
 * binds each index to its variable and refuses names nobody registered ({@code unknown "x" variable}). At request
 * time {@link #evaluate} computes a value and keeps it in the request's cache unless the variable is
 * {@link HttpConfig#VAR_NOCACHEABLE}.
 *
 * <p>Configuration calls come from the configuration thread; {@link #evaluate} from a loop thread, with a cache
 * per request ({@link #newCache()}).
 */
public final class Variables {

    /** nginx's {@code ngx_http_variable_depth}: deeper nesting is a cycle between variables. */
    private static final int MAX_DEPTH = 100;

    /** The cached "not found" of a request's cache (compared by identity). */
    @SuppressWarnings("StringOperationCanBeSimplified")
    private static final String NOT_FOUND = new String("");

    /** A registered variable: nginx's {@code ngx_http_variable_t}. */
    private static final class Variable {
        final String name;
        VariableGetter getter;
        int flags;

        Variable(String name, VariableGetter getter, int flags) {
            this.name = name;
            this.getter = getter;
            this.flags = flags;
        }
    }

    /** A name the configuration uses, with where it was first used and, once bound, its getter. */
    private static final class Indexed {
        final String name;
        final String file;
        final int line;
        VariableGetter getter;
        int flags;

        Indexed(String name, String file, int line) {
            this.name = name;
            this.file = file;
            this.line = line;
        }
    }

    private final Map<String, Variable> keys = new HashMap<>();
    private final List<Variable> prefixes = new ArrayList<>();
    private final List<Indexed> indexed = new ArrayList<>();
    private final Map<String, Integer> indexes = new HashMap<>();
    private boolean checked;
    private int depth = MAX_DEPTH;

    /**
     * Creates an empty registry; {@link CoreVariables#register} adds the core variables.
     */
    public Variables() {
    }

    /**
     * Returns the registry of a cycle's {@code http {}} block: the one module {@code http_variables} holds.
     *
     * @param cycle the cycle being configured or serving
     * @return the registry
     * @throws IllegalStateException when the cycle has no {@code http_variables} module
     */
    public static Variables of(Cycle cycle) {
        LoadedModule m = cycle.module(HttpVariablesModule.NAME);
        if (m == null || !(m.module() instanceof HttpVariablesModule vm)) {
            throw new IllegalStateException("no \"" + HttpVariablesModule.NAME + "\" module in the cycle");
        }
        return vm.variables();
    }

    /**
     * Returns the registry of the cycle a directive is being read for: {@code Variables.of(cf.cycle())}.
     *
     * @param cf the directive's context
     * @return the registry
     */
    public static Variables of(ConfContext cf) {
        return of(cf.cycle());
    }

    /**
     * Registers a variable, or a family of variables sharing a prefix: nginx's {@code ngx_http_add_variable()}.
     * A name registered again is refused unless the first registration is {@link HttpConfig#VAR_CHANGEABLE}, in
     * which case the new getter replaces the old one (nginx's {@code set} and regex captures reuse a variable so).
     *
     * @param name the name without {@code $}, any case; for {@link HttpConfig#VAR_PREFIX} the prefix
     * @param getter computes the value
     * @param flags {@link HttpConfig#VAR_CHANGEABLE}, {@link HttpConfig#VAR_NOCACHEABLE},
     *     {@link HttpConfig#VAR_PREFIX}
     * @throws ConfException {@code invalid variable name "$"} or {@code the duplicate "x" variable}
     */
    public void add(String name, VariableGetter getter, int flags) throws ConfException {
        if (name.isEmpty()) {
            throw new ConfException("invalid variable name \"$\"");
        }
        String low = name.toLowerCase(Locale.ROOT);
        Variable existing = (flags & HttpConfig.VAR_PREFIX) != 0 ? prefix(low) : keys.get(low);
        if (existing != null) {
            if ((existing.flags & HttpConfig.VAR_CHANGEABLE) == 0) {
                throw new ConfException("the duplicate \"" + name + "\" variable");
            }
            if (getter != null) {
                existing.getter = getter;
            }
            // nginx's map sets NOCACHEABLE on its variable once the block says "volatile"
            existing.flags |= flags & HttpConfig.VAR_NOCACHEABLE;
            return;
        }
        Variable v = new Variable(low, getter, flags);
        if ((flags & HttpConfig.VAR_PREFIX) != 0) {
            prefixes.add(v);
        } else {
            keys.put(low, v);
        }
        if (checked) {
            rebind();
        }
    }

    private Variable prefix(String low) {
        for (Variable v : prefixes) {
            if (v.name.equals(low)) {
                return v;
            }
        }
        return null;
    }

    /**
     * Returns the index of a name the configuration uses: nginx's {@code ngx_http_get_variable_index()}. Whether
     * anybody registers the name is checked by {@link #check()}.
     *
     * @param name the name without {@code $}, any case
     * @return the index, for {@link HttpRequest#variable(int)} and {@link #evaluate}
     * @throws ConfException {@code invalid variable name "$"} for an empty name; after {@link #check()}, also
     *     {@code unknown "x" variable}
     */
    public int index(String name) throws ConfException {
        return index(name, null, 0);
    }

    /**
     * Returns the index of a name used by the directive being read, remembering the place for the
     * {@code unknown "x" variable} error.
     *
     * @param cf the directive's context
     * @param name the name without {@code $}, any case
     * @return the index
     * @throws ConfException as {@link #index(String)}
     */
    public int index(ConfContext cf, String name) throws ConfException {
        return index(name, cf.file(), cf.line());
    }

    /**
     * Returns the index of a name used at a known place of the configuration.
     *
     * @param name the name without {@code $}, any case
     * @param file the configuration file the name stands in, or null
     * @param line its line, or 0
     * @return the index
     * @throws ConfException as {@link #index(String)}
     */
    public int index(String name, String file, int line) throws ConfException {
        if (name.isEmpty()) {
            throw new ConfException("invalid variable name \"$\"");
        }
        String low = name.toLowerCase(Locale.ROOT);
        Integer known = indexes.get(low);
        if (known != null) {
            return known;
        }
        Indexed v = new Indexed(low, file, line);
        if (checked && !bind(v)) {
            throw unknown(v);
        }
        indexed.add(v);
        indexes.put(low, indexed.size() - 1);
        return indexed.size() - 1;
    }

    /**
     * Binds every index to its variable, exact names first, then the longest matching prefix: nginx's
     * {@code ngx_http_variables_init_vars()}. Call it once the configuration is read and every module's
     * {@code postconfiguration} has run.
     *
     * @throws ConfException {@code unknown "x" variable} (with the place the name was first used, when known)
     */
    public void check() throws ConfException {
        for (Indexed v : indexed) {
            if (!bind(v)) {
                throw unknown(v);
            }
        }
        checked = true;
    }

    private void rebind() {
        for (Indexed v : indexed) {
            bind(v);
        }
    }

    private static ConfException unknown(Indexed v) {
        String text = "unknown \"" + v.name + "\" variable";
        return v.file == null ? new ConfException(text) : ConfException.at(text, v.file, v.line);
    }

    private boolean bind(Indexed v) {
        Variable exact = keys.get(v.name);
        if (exact != null && exact.getter != null) {
            v.getter = exact.getter;
            v.flags = exact.flags;
            return true;
        }
        Variable best = longestPrefix(v.name);
        if (best != null && best.getter != null) {
            v.getter = best.getter;
            v.flags = best.flags;
            return true;
        }
        return false;
    }

    private Variable longestPrefix(String name) {
        Variable best = null;
        for (Variable p : prefixes) {
            if (name.startsWith(p.name) && (best == null || p.name.length() > best.name.length())) {
                best = p;
            }
        }
        return best;
    }

    /**
     * Tells whether a name is registered, exactly or through a prefix.
     *
     * @param name the name without {@code $}, any case
     * @return true when some module provides it
     */
    public boolean isKnown(String name) {
        String low = name.toLowerCase(Locale.ROOT);
        Variable exact = keys.get(low);
        return exact != null && exact.getter != null || longestPrefix(low) != null;
    }

    /**
     * Returns the number of indexes given out: the size of a request's cache.
     *
     * @return the count
     */
    public int count() {
        return indexed.size();
    }

    /**
     * Returns the name behind an index.
     *
     * @param index the index
     * @return the lower-case name
     */
    public String name(int index) {
        return indexed.get(index).name;
    }

    /**
     * Returns the flags of the variable behind an index, once bound.
     *
     * @param index the index
     * @return the flags, 0 when not bound
     */
    public int flags(int index) {
        return indexed.get(index).flags;
    }

    /**
     * Makes the per-request cache {@link #evaluate} fills: one slot per index.
     *
     * @return a fresh cache
     */
    public String[] newCache() {
        return new String[indexed.size()];
    }

    /**
     * Compiles a string with variables ({@code "$scheme://$host$request_uri"}): nginx's
     * {@code ngx_http_compile_complex_value()}.
     *
     * @param value the string as written
     * @return the compiled value
     * @throws ConfException {@code invalid variable name} or {@code the closing bracket in "x" variable is
     *     missing}
     */
    public ComplexValue compile(String value) throws ConfException {
        return CompiledValue.compile(this, value, null, 0);
    }

    /**
     * Compiles a string with variables used by the directive being read.
     *
     * @param cf the directive's context, for the place of an unknown variable
     * @param value the string as written
     * @return the compiled value
     * @throws ConfException as {@link #compile(String)}
     */
    public ComplexValue compile(ConfContext cf, String value) throws ConfException {
        return CompiledValue.compile(this, value, cf.file(), cf.line());
    }

    /**
     * Returns a variable's value for a request: nginx's {@code ngx_http_get_indexed_variable()}. A value (or its
     * absence) is kept in {@code cache} unless the variable is {@link HttpConfig#VAR_NOCACHEABLE}.
     *
     * @param r the request
     * @param index an index from {@link #index}
     * @param cache the request's cache from {@link #newCache()}, or null for none
     * @return the value, or null when not found
     */
    public String evaluate(HttpRequest r, int index, String[] cache) {
        if (index < 0 || index >= indexed.size()) {
            alert(r, "unknown variable index: " + index);
            return null;
        }
        if (cache != null && index < cache.length && cache[index] != null) {
            String cached = cache[index];
            return cached == NOT_FOUND ? null : cached;
        }
        Indexed v = indexed.get(index);
        if (v.getter == null && !bind(v)) {
            return null;
        }
        String value = call(r, v.getter, v.name);
        if (cache != null && index < cache.length && (v.flags & HttpConfig.VAR_NOCACHEABLE) == 0) {
            cache[index] = value == null ? NOT_FOUND : value;
        }
        return value;
    }

    /**
     * Returns the value of a variable named at request time (SSI's {@code echo}, {@code map}): nginx's
     * {@code ngx_http_get_variable()}. Nothing is cached.
     *
     * @param r the request
     * @param name the name without {@code $}, lower case
     * @return the value, or null when not found or nobody provides it
     */
    public String get(HttpRequest r, String name) {
        Variable exact = keys.get(name);
        if (exact != null && exact.getter != null) {
            return call(r, exact.getter, name);
        }
        Variable p = longestPrefix(name);
        return p == null || p.getter == null ? null : call(r, p.getter, name);
    }

    private String call(HttpRequest r, VariableGetter getter, String name) {
        if (depth == 0) {
            error(r, "cycle while evaluating variable \"" + name + "\"");
            return null;
        }
        depth--;
        try {
            return getter.get(r, name);
        } finally {
            depth++;
        }
    }

    private static void alert(HttpRequest r, String message) {
        ErrorLog log = r.log();
        if (log != null) {
            log.alert(message);
        }
    }

    private static void error(HttpRequest r, String message) {
        ErrorLog log = r.log();
        if (log != null) {
            log.error(message);
        }
    }
}
