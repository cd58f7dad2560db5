package jinx.http.internal.core;

import jinx.http.spi.ComplexValue;

/**
 * One status of an {@code error_page} directive: nginx's {@code ngx_http_err_page_t}.
 *
 * @param status the status it applies to (300 to 599)
 * @param overwrite the status to answer with: -1 to keep the original ({@code error_page 404 /404.html}), 0 for
 *     the page's own status ({@code =}), or the code of {@code =code}
 * @param uri the page as written when it has no variables (a URI without its arguments, {@code @name}, or a URL),
 *     else null
 * @param value the page compiled when it has variables, else null
 * @param args the arguments of a static URI ({@code /404.php?x=1} gives {@code x=1}), or null
 */
public record ErrorPage(int status, int overwrite, String uri, ComplexValue value, String args) {
}
