package jinx.http.internal.core;

import jinx.http.spi.HttpCtx;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfScope;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The scope of an HTTP block ({@code http}, {@code server}, {@code location}, {@code limit_except},
 * {@code if}): its context and its confs. A directive's conf is the one of the module's main, server and location
 * confs that is an instance of the directive's conf type, as nginx's {@code NGX_HTTP_MAIN_CONF_OFFSET},
 * {@code NGX_HTTP_SRV_CONF_OFFSET} and {@code NGX_HTTP_LOC_CONF_OFFSET} choose with one directive table; a module
 * therefore gives its three confs distinct classes.
 *
 * <p>Modules that open a block of HTTP directives of their own ({@code if {}} of the rewrite module) make their
 * scope with {@link #nested}.
 */
public final class HttpScope implements ConfScope {

    private final Ctx ctx;
    private final HttpBlockConf block;
    private final HttpConfCtx confs;
    private final LineHandler lines;

    HttpScope(Ctx ctx, HttpBlockConf block, HttpConfCtx confs) {
        this(ctx, block, confs, null);
    }

    private HttpScope(Ctx ctx, HttpBlockConf block, HttpConfCtx confs, LineHandler lines) {
        this.ctx = ctx;
        this.block = block;
        this.confs = confs;
        this.lines = lines;
    }

    /**
     * Returns the scope of the block a directive stands in.
     *
     * @param cf the directive's context
     * @return the scope
     * @throws IllegalStateException outside the HTTP blocks
     */
    public static HttpScope of(ConfContext cf) {
        if (cf.scope() instanceof HttpScope s) {
            return s;
        }
        throw new IllegalStateException("\"" + cf.name() + "\" is not inside an HTTP block");
    }

    /**
     * Returns a scope for a block inside this one, with the given context and confs.
     *
     * @param inner the inner block's context ({@link HttpCtx#LIF}, {@link HttpCtx#SIF} ...)
     * @param innerConfs the inner block's confs
     * @return the scope
     */
    public HttpScope nested(Ctx inner, HttpConfCtx innerConfs) {
        return new HttpScope(inner, block, innerConfs);
    }

    /**
     * Returns a scope for a block of data lines inside this one ({@code map {}}, {@code geo {}}): every line goes
     * to {@code handler}, and the block keeps this one's confs, so that a line can compile a regex or a variable
     * as a directive of this block would.
     *
     * @param inner the inner block's context name
     * @param handler takes each line
     * @return the scope
     */
    public HttpScope lines(Ctx inner, LineHandler handler) {
        return new HttpScope(inner, block, confs, handler);
    }

    @Override
    public LineHandler lineHandler() {
        return lines;
    }

    @Override
    public Ctx ctx() {
        return ctx;
    }

    @Override
    public ModuleType moduleType() {
        return HttpCtx.HTTP;
    }

    @Override
    public Object conf(JinxModule module, Class<?> type) {
        int i = block.index(module);
        Object c = confs.mainConf[i];
        if (type.isInstance(c)) {
            return c;
        }
        c = confs.srvConf[i];
        if (type.isInstance(c)) {
            return c;
        }
        c = confs.locConf[i];
        return type.isInstance(c) ? c : null;
    }

    /**
     * Returns the confs of this block.
     *
     * @return the confs
     */
    public HttpConfCtx confs() {
        return confs;
    }

    /**
     * Returns the {@code http {}} block this scope is part of.
     *
     * @return the block
     */
    public HttpBlockConf block() {
        return block;
    }
}
