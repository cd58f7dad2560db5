package jinx.http.internal.core;

/**
 * One name of {@code server_name}: nginx's {@code ngx_http_server_name_t}.
 *
 * @param name the name, lower-cased ({@code example.com}, {@code *.example.com}, {@code .example.com},
 *     {@code www.example.*}, {@code ""}); a regex's source without its {@code ~}
 * @param regex the compiled regex of a {@code ~} name, or null
 * @param server the server the name belongs to
 * @param file the file of the {@code server_name} directive, for messages
 * @param line its line
 */
public record ServerName(String name, HttpRegex regex, HttpCoreSrvConf server, String file, int line) {
}
