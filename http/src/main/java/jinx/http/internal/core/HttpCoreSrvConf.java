package jinx.http.internal.core;

import java.util.ArrayList;
import java.util.List;

import jinx.kernel.spi.Conf;

/**
 * The server conf of {@code http_core}: one for {@code http {}} (merged into each server) and one per
 * {@code server {}}. nginx's {@code ngx_http_core_srv_conf_t}. Fields start unset ({@link Conf#UNSET},
 * {@link Conf#UNSET_LONG}, null); after merging every field holds its value (flags as 0 or 1).
 */
public final class HttpCoreSrvConf {

    /** nginx's default {@code client_header_buffer_size}. */
    public static final long DEFAULT_CLIENT_HEADER_BUFFER_SIZE = 1024;
    /** nginx's default {@code large_client_header_buffers}: 4 buffers. */
    public static final int DEFAULT_LARGE_BUFFERS_NUM = 4;
    /** nginx's default {@code large_client_header_buffers}: 8k each. */
    public static final long DEFAULT_LARGE_BUFFERS_SIZE = 8192;

    /** The names of {@code server_name}, in order; the empty name {@code ""} when none is given. */
    public final List<ServerName> serverNames = new ArrayList<>();

    /**
     * The server's first name ({@code $server_name}, {@code server_name_in_redirect}): the first of
     * {@link #serverNames}, without a leading dot, a regex with its {@code ~}; {@code ""} by default.
     */
    public String serverName;

    /** The confs of this server's block: {@code ctx.srvConf}, {@code ctx.locConf} (nginx's {@code cscf->ctx}). */
    public HttpConfCtx ctx;

    /** {@code connection_pool_size}: accepted for compatibility; default 512 (64 pointers). */
    public long connectionPoolSize = Conf.UNSET_LONG;
    /** {@code request_pool_size}: accepted for compatibility; default 4096. */
    public long requestPoolSize = Conf.UNSET_LONG;
    /** {@code client_header_timeout} in milliseconds; default 60s. */
    public long clientHeaderTimeout = Conf.UNSET_LONG;
    /** {@code client_header_buffer_size} in bytes; default 1k. */
    public long clientHeaderBufferSize = Conf.UNSET_LONG;
    /** {@code large_client_header_buffers}: the number of buffers; default 4. */
    public int largeClientHeaderBuffersNum = Conf.UNSET;
    /** {@code large_client_header_buffers}: the size of each buffer; default 8k. */
    public long largeClientHeaderBuffersSize = Conf.UNSET_LONG;
    /** {@code max_headers}: the most header lines a request may have; default 1000. */
    public int maxHeaders = Conf.UNSET;
    /** {@code ignore_invalid_headers}: 1 (default) or 0. */
    public int ignoreInvalidHeaders = Conf.UNSET;
    /** {@code merge_slashes}: 1 (default) or 0. */
    public int mergeSlashes = Conf.UNSET;
    /** {@code underscores_in_headers}: 0 (default) or 1. */
    public int underscoresInHeaders = Conf.UNSET;

    /** The server has a {@code listen} directive (otherwise it listens on {@code *:80}, or {@code *:8000}). */
    public boolean listen;
    /** The server's {@code listen} directives as parsed, for introspection. */
    public final List<ListenOpt> listens = new ArrayList<>();
    /** Some regex {@code server_name} has captures (they become {@code $1}... and named variables). */
    public boolean captures;

    /** The named locations ({@code location @name}), sorted by name; empty without. */
    public HttpCoreLocConf[] namedLocations = new HttpCoreLocConf[0];

    /** {@code http_core}'s location conf of {@link #ctx}, found once. */
    private HttpCoreLocConf coreLocConf;

    /** The file of the {@code server} directive, for messages. */
    public String file;
    /** The line of the {@code server} directive, for messages. */
    public int line;

    /**
     * A server conf with nothing set.
     */
    public HttpCoreSrvConf() {
    }

    /**
     * Returns the server's {@code location} conf: {@code http_core}'s location conf of the server block, the root
     * of its location tree.
     *
     * @return the server's location conf
     */
    public HttpCoreLocConf locConf() {
        HttpCoreLocConf c = coreLocConf;
        if (c == null) {
            c = HttpCoreModule.locConf(ctx);
            coreLocConf = c;
        }
        return c;
    }
}
