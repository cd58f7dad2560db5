package jinx.http.spi;

import jinx.http.HttpRequest;

/**
 * A string with variables ({@code "$scheme://$host$request_uri"}), compiled once at configuration time into
 * literal parts and variable indexes: nginx's {@code ngx_http_complex_value_t}.
 */
public interface ComplexValue {

    /**
     * Evaluates the value for a request.
     *
     * @param r the request
     * @return the value; a variable not found counts as empty
     */
    String evaluate(HttpRequest r);

    /**
     * Tells whether the value has no variables.
     *
     * @return true for a literal
     */
    boolean isStatic();

    /**
     * Returns the value as written in the configuration.
     *
     * @return the source text
     */
    String source();
}
