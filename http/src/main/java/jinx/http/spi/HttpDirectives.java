package jinx.http.spi;

import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.core.HttpCoreModule;
import jinx.http.internal.core.HttpScope;
import jinx.http.internal.variables.Variables;
import jinx.kernel.ConfException;
import jinx.kernel.spi.ConfContext;

/**
 * What a directive handler of an HTTP module may ask of the configuration being parsed: compile a string with
 * variables where the directive stands, so that a malformed reference is reported with the directive's place, as
 * nginx's {@code ngx_http_compile_complex_value()} does from a directive's handler. Added in SPI 1.1 for
 * third-party modules, which could otherwise only compile in {@code postconfiguration}
 * ({@link HttpConfig#compile}), too late to know every location.
 */
public final class HttpDirectives {

    private HttpDirectives() {
    }

    /**
     * Compiles a string with variables ({@code "$scheme://$host$request_uri"}) inside {@code http {}}.
     *
     * @param cf the directive being handled
     * @param value the string as written
     * @return the compiled value; a variable no module registers is refused once the configuration is read
     *     ({@code unknown "x" variable})
     * @throws ConfException for a malformed variable reference, with nginx's words and the directive's place
     */
    public static ComplexValue compile(ConfContext cf, String value) throws ConfException {
        return Variables.of(cf).compile(cf, value);
    }

    /**
     * Returns the index of a variable for {@link jinx.http.HttpRequest#variable(int)}, inside {@code http {}}.
     *
     * @param cf the directive being handled
     * @param name the name without {@code $}
     * @return the index
     * @throws ConfException for an invalid name
     */
    public static int variableIndex(ConfContext cf, String name) throws ConfException {
        return Variables.of(cf).index(cf, name);
    }

    /**
     * Where a directive stands, as a content handler's directive needs to know it (nginx's {@code clcf->name},
     * {@code clcf->regex}, {@code clcf->named}, {@code clcf->noname} read by {@code proxy_pass}). Added in SPI 1.3.
     *
     * @param name the location's name ({@code /x}, {@code @fallback}, the regex's text), empty at server level
     * @param exact an exact match location ({@code = /x})
     * @param regex a regex location ({@code ~}, {@code ~*})
     * @param named a named location ({@code @x})
     * @param noname an {@code if} block or {@code limit_except}, which have no URI of their own
     */
    public record Location(String name, boolean exact, boolean regex, boolean named, boolean noname) {
    }

    /**
     * Sets the content handler of the location a directive stands in (nginx's {@code clcf->handler}, which
     * {@code proxy_pass} and {@code stub_status} set): it answers every request of the location in place of the
     * CONTENT phase handlers (static, index, ...). Inside {@code if} it is the {@code if} block's own. Added in SPI
     * 1.3.
     *
     * @param cf the directive being handled, in a location or an {@code if} block in one
     * @param handler the handler
     * @throws ConfException when the directive stands where no location is
     */
    public static void contentHandler(ConfContext cf, PhaseHandler handler) throws ConfException {
        core(cf).handler = handler;
    }

    /**
     * Tells what the location a directive stands in is.
     *
     * @param cf the directive being handled
     * @return the location
     * @throws ConfException when the directive stands where no location is
     */
    public static Location location(ConfContext cf) throws ConfException {
        HttpCoreLocConf clcf = core(cf);
        return new Location(clcf.name, clcf.exactMatch, clcf.regex != null, clcf.named, clcf.noname);
    }

    private static HttpCoreLocConf core(ConfContext cf) throws ConfException {
        HttpCoreLocConf clcf;
        try {
            clcf = HttpCoreModule.locConf(HttpScope.of(cf).confs());
        } catch (IllegalStateException e) {
            clcf = null;
        }
        if (clcf == null) {
            throw new ConfException("\"" + cf.name() + "\" directive is not allowed here");
        }
        return clcf;
    }

    /**
     * Registers a variable from a directive's handler inside {@code http {}}, as nginx's {@code map},
     * {@code geo} and {@code split_clients} call {@code ngx_http_add_variable()} for the variable they define.
     * A name registered again is refused unless both registrations are {@link HttpConfig#VAR_CHANGEABLE}, in
     * which case the new getter replaces the old one. Added in SPI 1.3.
     *
     * @param cf the directive being handled
     * @param name the name without {@code $}
     * @param getter computes the value
     * @param flags {@link HttpConfig#VAR_CHANGEABLE}, {@link HttpConfig#VAR_NOCACHEABLE}
     * @throws ConfException {@code the duplicate "x" variable}, with the directive's place
     */
    public static void addVariable(ConfContext cf, String name, VariableGetter getter, int flags)
        throws ConfException {
        Variables.of(cf).add(name, getter, flags);
    }
}
