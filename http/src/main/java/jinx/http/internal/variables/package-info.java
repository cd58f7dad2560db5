/**
 * HTTP variables: the registry modules add their variables to ({@link jinx.http.internal.variables.Variables}),
 * complex values ({@link jinx.http.internal.variables.CompiledValue}), the core variables
 * ({@link jinx.http.internal.variables.CoreVariables}, {@code RequestVariables}) and the module that registers them
 * ({@link jinx.http.internal.variables.HttpVariablesModule}, {@code http_variables}). Follows nginx's
 * {@code src/http/ngx_http_variables.c} and the complex values of {@code src/http/ngx_http_script.c}.
 *
 * <p>Values are {@link java.lang.String}s holding one byte per char (ISO-8859-1), as the configuration and the
 * request parser produce them.
 */
package jinx.http.internal.variables;
