/**
 * The configuration language: reading a configuration file into directives and blocks. Follows nginx's
 * {@code src/core/ngx_conf_file.c}: {@link jinx.kernel.internal.conf.ConfTokenizer} ports
 * {@code ngx_conf_read_token()}, and the parser that drives it ports the loop of {@code ngx_conf_parse()}.
 *
 * <p>Error texts are nginx's, byte for byte, so that nginx-style tests can compare the output.
 */
package jinx.kernel.internal.conf;
