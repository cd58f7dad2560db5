package jinx.http.internal.core;

import jinx.http.spi.ComplexValue;

/**
 * One argument of {@code try_files}: nginx's {@code ngx_http_try_file_t}. Every argument but the last is a file
 * (a directory when it ends with a slash); the last is a URI, a named location or {@code =code}.
 *
 * @param name the argument as written, without the trailing slash of a directory
 * @param value the argument compiled when it has variables, else null
 * @param testDir the argument ends with a slash: test for a directory
 * @param code for a last argument {@code =code}, the code; else 0
 */
public record TryFile(String name, ComplexValue value, boolean testDir, int code) {
}
