package jinx.http.spi;

import jinx.http.HttpRequest;

/**
 * Computes a variable's value for a request: nginx's {@code ngx_http_get_variable_pt}.
 */
@FunctionalInterface
public interface VariableGetter {

    /**
     * Returns the value.
     *
     * @param r the request
     * @param name the variable's name without {@code $} (for a prefix variable such as {@code http_*}, the whole
     *     name, e.g. {@code http_user_agent})
     * @return the value, or null when the variable is "not found" for this request (logged as empty)
     */
    String get(HttpRequest r, String name);
}
