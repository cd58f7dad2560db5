package jinx.http.internal.core;

import java.util.List;

/**
 * The server names of one address: nginx's {@code ngx_http_virtual_names_t} (its combined hash of exact names,
 * leading and trailing wildcards, and its regexes). Built once when the {@code http {}} block is parsed.
 */
public final class VirtualNames {

    /** Exact names (and {@code example.com} for {@code .example.com}). */
    final NameTable<HttpCoreSrvConf> exact;
    /** Leading wildcards by their suffix with its dot: {@code .example.com} for {@code *.example.com}. */
    final NameTable<HttpCoreSrvConf> head;
    /** Trailing wildcards by their prefix with its dot: {@code www.example.} for {@code www.example.*}. */
    final NameTable<HttpCoreSrvConf> tail;
    /** Regex names in the order of their servers and directives. */
    final ServerName[] regex;

    VirtualNames(NameTable<HttpCoreSrvConf> exact, NameTable<HttpCoreSrvConf> head,
                 NameTable<HttpCoreSrvConf> tail, List<ServerName> regex) {
        this.exact = exact;
        this.head = head;
        this.tail = tail;
        this.regex = regex.toArray(new ServerName[0]);
    }

    /**
     * Returns the regex names, in the order they are tried.
     *
     * @return the names
     */
    public List<ServerName> regexNames() {
        return List.of(regex);
    }
}
