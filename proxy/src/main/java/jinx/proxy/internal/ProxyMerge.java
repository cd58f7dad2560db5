package jinx.proxy.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jinx.kernel.ConfException;
import jinx.kernel.TempPath;
import jinx.kernel.spi.Conf;
import jinx.proxy.upstream.Resolver;

/**
 * The proxy's location conf merged with its parent's: nginx's {@code ngx_http_proxy_merge_loc_conf()} with its
 * defaults, {@code ngx_http_proxy_init_headers()} and the default {@code proxy_redirect}.
 */
final class ProxyMerge {

    /** nginx's {@code ngx_http_proxy_hide_headers[]}. */
    private static final List<String> HIDE = List.of("date", "server", "x-pad", "x-accel-expires",
        "x-accel-redirect", "x-accel-limit-rate", "x-accel-buffering", "x-accel-charset");

    /** One memory page, nginx's default for proxy_buffer_size and proxy_buffers' size. */
    private static final long PAGE = 4096;

    private ProxyMerge() {
    }

    /**
     * Merges a location's conf with its parent's.
     *
     * @param prev the parent's
     * @param conf the location's
     * @param defaultTempPath {@code proxy_temp} under the prefix, levels 1:2 (nginx's
     *     {@code NGX_HTTP_PROXY_TEMP_PATH})
     */
    static void merge(ProxyLocConf prev, ProxyLocConf conf, TempPath defaultTempPath) throws ConfException {
        conf.httpVersion = Conf.merge(conf.httpVersion, prev.httpVersion, jinx.http.HttpRequest.VERSION_10);
        conf.method = conf.method != null ? conf.method : prev.method;
        conf.connectTimeout = Conf.merge(conf.connectTimeout, prev.connectTimeout, 60_000L);
        conf.resolver = conf.resolver != null ? conf.resolver : prev.resolver;
        conf.resolverTimeout = Conf.merge(conf.resolverTimeout, prev.resolverTimeout, Resolver.DEFAULT_TIMEOUT);
        conf.sendTimeout = Conf.merge(conf.sendTimeout, prev.sendTimeout, 60_000L);
        conf.readTimeout = Conf.merge(conf.readTimeout, prev.readTimeout, 60_000L);
        conf.buffering = Conf.merge(conf.buffering, prev.buffering, 1);
        conf.bufferSize = Conf.merge(conf.bufferSize, prev.bufferSize, PAGE);
        if (conf.buffersNum == Conf.UNSET) {
            conf.buffersNum = prev.buffersNum != Conf.UNSET ? prev.buffersNum : 8;
            conf.buffersSize = prev.buffersSize != Conf.UNSET_LONG ? prev.buffersSize : PAGE;
        }
        if (conf.buffersNum < 2) {
            throw new ConfException("there must be at least 2 \"proxy_buffers\"");
        }
        // nginx's default proxy_busy_buffers_size, twice the larger buffer, and its two checks
        long size = Math.max(conf.bufferSize, conf.buffersSize);
        conf.busyBuffersSizeConf = Conf.merge(conf.busyBuffersSizeConf, prev.busyBuffersSizeConf, Conf.UNSET_LONG);
        conf.busyBuffersSize = conf.busyBuffersSizeConf == Conf.UNSET_LONG ? 2 * size : conf.busyBuffersSizeConf;
        if (conf.busyBuffersSize < size) {
            throw new ConfException("\"proxy_busy_buffers_size\" must be equal to or greater than the maximum of "
                + "the value of \"proxy_buffer_size\" and one of the \"proxy_buffers\"");
        }
        if (conf.busyBuffersSize > (conf.buffersNum - 1) * conf.buffersSize) {
            throw new ConfException("\"proxy_busy_buffers_size\" must be less than the size of all "
                + "\"proxy_buffers\" minus one buffer");
        }
        temp(prev, conf, size, defaultTempPath);
        conf.limitRate = Conf.merge(conf.limitRate, prev.limitRate, 0L);
        conf.ignoreClientAbort = Conf.merge(conf.ignoreClientAbort, prev.ignoreClientAbort, 0);
        conf.headersHashMaxSize = Conf.merge(conf.headersHashMaxSize, prev.headersHashMaxSize, 512L);
        conf.headersHashBucketSize = Conf.merge(conf.headersHashBucketSize, prev.headersHashBucketSize, 64L);
        if (conf.body == null) {
            conf.body = prev.body;
        }
        if (!conf.bindSet) {
            conf.bind = prev.bind;
            conf.bindTransparent = prev.bindTransparent;
            conf.bindSet = prev.bindSet;
        }
        conf.passRequestHeaders = Conf.merge(conf.passRequestHeaders, prev.passRequestHeaders, 1);
        conf.passRequestBody = Conf.merge(conf.passRequestBody, prev.passRequestBody, 1);
        conf.requestBuffering = Conf.merge(conf.requestBuffering, prev.requestBuffering, 1);
        conf.interceptErrors = Conf.merge(conf.interceptErrors, prev.interceptErrors, 0);
        conf.ignoreHeaders = Conf.merge(conf.ignoreHeaders, prev.ignoreHeaders, 0);
        conf.nextUpstream = Conf.merge(conf.nextUpstream, prev.nextUpstream,
            ProxyLocConf.FT_ERROR | ProxyLocConf.FT_TIMEOUT);
        if ((conf.nextUpstream & ProxyLocConf.FT_OFF) != 0) {
            conf.nextUpstream = ProxyLocConf.FT_OFF;
        }
        conf.nextUpstreamTries = Conf.merge(conf.nextUpstreamTries, prev.nextUpstreamTries, 0);
        conf.nextUpstreamTimeout = Conf.merge(conf.nextUpstreamTimeout, prev.nextUpstreamTimeout, 0L);
        conf.socketKeepalive = Conf.merge(conf.socketKeepalive, prev.socketKeepalive, 0);
        if (conf.setHeaders == null) {
            conf.setHeaders = prev.setHeaders;
        }
        if (conf.hideHeaders == null) {
            conf.hideHeaders = prev.hideHeaders;
        }
        if (conf.passHeaders == null) {
            conf.passHeaders = prev.passHeaders;
        }
        conf.cookieDomains = offIsNull(conf.cookieDomains != null ? conf.cookieDomains : prev.cookieDomains);
        conf.cookiePaths = offIsNull(conf.cookiePaths != null ? conf.cookiePaths : prev.cookiePaths);
        conf.cookieFlags = offIsNull(conf.cookieFlags != null ? conf.cookieFlags : prev.cookieFlags);
        headers(conf);
        hidden(conf);
        redirects(prev, conf);
        conf.ssl.merge(prev.ssl);
    }

    /** The temporary file's directives with nginx's defaults and checks; {@code size} is the larger buffer. */
    private static void temp(ProxyLocConf prev, ProxyLocConf conf, long size, TempPath defaultTempPath)
        throws ConfException {
        conf.tempFileWriteSizeConf = Conf.merge(conf.tempFileWriteSizeConf, prev.tempFileWriteSizeConf,
            Conf.UNSET_LONG);
        conf.tempFileWriteSize = conf.tempFileWriteSizeConf == Conf.UNSET_LONG ? 2 * size : conf.tempFileWriteSizeConf;
        if (conf.tempFileWriteSize < size) {
            throw new ConfException("\"proxy_temp_file_write_size\" must be equal to or greater than the maximum "
                + "of the value of \"proxy_buffer_size\" and one of the \"proxy_buffers\"");
        }
        conf.maxTempFileSizeConf = Conf.merge(conf.maxTempFileSizeConf, prev.maxTempFileSizeConf, Conf.UNSET_LONG);
        conf.maxTempFileSize = conf.maxTempFileSizeConf == Conf.UNSET_LONG ? 1024L * 1024 * 1024
            : conf.maxTempFileSizeConf;
        if (conf.maxTempFileSize != 0 && conf.maxTempFileSize < size) {
            throw new ConfException("\"proxy_max_temp_file_size\" must be equal to zero to disable temporary files "
                + "usage or must be equal to or greater than the maximum of the value of \"proxy_buffer_size\" and "
                + "one of the \"proxy_buffers\"");
        }
        if (conf.tempPath == null) {
            conf.tempPath = prev.tempPath != null ? prev.tempPath : defaultTempPath;
        }
    }

    private static <T> List<T> offIsNull(List<T> rules) {
        return rules == null || rules.isEmpty() ? null : rules;
    }

    /** nginx's {@code ngx_http_proxy_init_headers()}: the lines set here first, then the defaults not set. */
    private static void headers(ProxyLocConf conf) {
        List<ProxyLocConf.HeaderLine> lines = new ArrayList<>();
        Set<String> names = new HashSet<>();
        if (conf.setHeaders != null) {
            for (ProxyLocConf.HeaderLine h : conf.setHeaders) {
                lines.add(h);
                names.add(h.lowcase());
            }
        }
        defaultLine(lines, names, "Host", null, ProxyLocConf.PROXY_HOST);
        defaultLine(lines, names, "Connection", Values.fixed("close"), ProxyLocConf.VALUE);
        defaultLine(lines, names, "Content-Length", null, ProxyLocConf.BODY_LENGTH);
        defaultLine(lines, names, "Transfer-Encoding", null, ProxyLocConf.CHUNKED);
        for (String name : List.of("TE", "Keep-Alive", "Expect", "Upgrade")) {
            defaultLine(lines, names, name, Values.fixed(""), ProxyLocConf.VALUE);
        }
        conf.headers = lines;
        conf.headerNames = names;
    }

    private static void defaultLine(List<ProxyLocConf.HeaderLine> lines, Set<String> names, String name,
                                    jinx.http.spi.ComplexValue value, int kind) {
        String lc = ProxyModule.lower(name);
        if (names.add(lc)) {
            lines.add(new ProxyLocConf.HeaderLine(name, lc, value, kind));
        }
    }

    private static void hidden(ProxyLocConf conf) {
        Set<String> hidden = new HashSet<>(HIDE);
        if (conf.hideHeaders != null) {
            hidden.addAll(conf.hideHeaders);
        }
        if (conf.passHeaders != null) {
            hidden.removeAll(conf.passHeaders);
        }
        conf.hidden = hidden;
    }

    /** The rules written here or inherited; {@code default} (also when nothing is written) from this proxy_pass. */
    private static void redirects(ProxyLocConf prev, ProxyLocConf conf) {
        if (conf.redirects == null) {
            conf.redirects = prev.redirects;
            conf.redirectDefault = prev.redirects == null || prev.redirectDefault;
        }
        if (!conf.redirectDefault || conf.pass == null) {
            return;
        }
        ProxyPass pass = conf.pass;
        List<ProxyLocConf.Redirect> rules = new ArrayList<>();
        String prefix;
        String replacement;
        if (pass.uri() != null) {
            prefix = pass.url();
            replacement = pass.location();
        } else {
            prefix = pass.url() + "/";
            replacement = "/";
        }
        rules.add(new ProxyLocConf.Redirect(prefix, Values.fixed(replacement), false, null, false));
        if (conf.redirects != null) {
            rules.addAll(conf.redirects);
        }
        conf.redirects = rules;
        conf.redirectDefault = false;
    }
}
