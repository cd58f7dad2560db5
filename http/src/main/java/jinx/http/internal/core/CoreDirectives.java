package jinx.http.internal.core;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ObjLongConsumer;

import jinx.http.spi.ComplexValue;
import jinx.kernel.ConfException;
import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.TempPath;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfValues;
import jinx.kernel.spi.DirectiveHandler;
import jinx.kernel.spi.Slots;

/**
 * The directives of {@code http_core} that need a handler of their own, with nginx's error texts:
 * {@code server_name}, {@code root}/{@code alias}, {@code error_page}, {@code try_files}, {@code error_log},
 * {@code keepalive_timeout}, {@code large_client_header_buffers}, {@code client_body_temp_path},
 * {@code open_file_cache}, {@code directio}, {@code aio}, {@code send_lowat}, {@code gzip_proxied},
 * {@code gzip_disable}.
 */
final class CoreDirectives {

    private static final List<String> DEBUG_LEVELS = List.of(
        "debug_core", "debug_alloc", "debug_mutex", "debug_event", "debug_http", "debug_mail", "debug_stream");

    private CoreDirectives() {
    }

    /** Lower-cases A to Z only, as {@code ngx_strlow()}. */
    static String lowerAscii(String s) {
        char[] chars = s.toCharArray();
        boolean changed = false;
        for (int i = 0; i < chars.length; i++) {
            if (chars[i] >= 'A' && chars[i] <= 'Z') {
                chars[i] |= 0x20;
                changed = true;
            }
        }
        return changed ? new String(chars) : s;
    }

    /** {@code ngx_conf_set_bufs_slot}: a number of buffers and their size, neither 0. */
    static void largeBuffers(ConfContext cf, HttpCoreSrvConf c) throws ConfException {
        // nginx's ngx_conf_set_bufs_slot(): "invalid value" for a bad or zero number or size
        int num = ConfValues.parseNumber(cf.arg(1));
        long size = ConfValues.parseSize(cf.arg(2));
        if (num <= 0 || size <= 0) {
            throw new ConfException("\"" + cf.name() + "\" directive invalid value");
        }
        bufferBounds(size);
        c.largeClientHeaderBuffersNum = num;
        c.largeClientHeaderBuffersSize = size;
    }

    /**
     * The bounds of a size Jinx allocates as one buffer ({@code client_header_buffer_size},
     * {@code large_client_header_buffers}, {@code client_body_buffer_size}): nginx takes any {@code size_t} and
     * fails at run time; a Java buffer holds at most {@link Integer#MAX_VALUE} bytes, so a larger value is refused
     * here, in nginx's words for bounds ({@code ngx_conf_check_num_bounds()}), instead of resetting every
     * connection.
     */
    static void bufferBounds(long size) throws ConfException {
        if (size > Integer.MAX_VALUE) {
            throw new ConfException("value must be between 0 and " + Integer.MAX_VALUE);
        }
    }

    /** A size slot for a buffer's size: {@link Slots#size} within {@link #bufferBounds}. */
    static <C> DirectiveHandler<C> bufferSize(ObjLongConsumer<C> setter) {
        DirectiveHandler<C> size = Slots.size(setter);
        return (cf, conf) -> {
            // a value out of bounds fails the whole configuration: that it was set does not matter
            size.set(cf, conf);
            bufferBounds(ConfValues.parseSize(cf.arg(1)));
        };
    }

    /** nginx's {@code ngx_http_core_server_name()}. */
    static void serverName(ConfContext cf, HttpCoreSrvConf cscf) throws ConfException {
        for (String value : cf.args().subList(1, cf.args().size())) {
            char ch = value.isEmpty() ? 0 : value.charAt(0);
            if (ch == '*' && (value.length() < 3 || value.charAt(1) != '.') || ch == '.' && value.length() < 2) {
                throw new ConfException("server name \"" + value + "\" is invalid");
            }
            if (value.indexOf('/') >= 0) {
                cf.log(LogLevel.WARN, "server name \"" + value + "\" has suspicious symbols");
            }
            if (ch != '~') {
                String name = value.equalsIgnoreCase("$hostname") ? HttpCoreModule.hostname() : value;
                cscf.serverNames.add(new ServerName(lowerAscii(name), null, cscf, cf.file(), cf.line()));
                continue;
            }
            if (value.length() == 1) {
                throw new ConfException("empty regex in server name \"" + value + "\"");
            }
            String source = value.substring(1);
            // hosts are lower-cased: a regex with capitals can only match caselessly
            boolean caseless = !source.equals(lowerAscii(source));
            HttpRegex re = HttpCoreModule.compileRegex(cf, source, caseless);
            cscf.serverNames.add(new ServerName(source, re, cscf, cf.file(), cf.line()));
            if (re.captureCount() > 0) {
                cscf.captures = true;
            }
        }
    }

    /** nginx's {@code ngx_http_core_root()}, for {@code root} and {@code alias}. */
    static void root(ConfContext cf, HttpCoreLocConf clcf) throws ConfException {
        boolean alias = cf.name().equals("alias");
        if (clcf.root != null) {
            // "root root" and "alias alias" are refused by the dispatcher
            throw new ConfException("\"" + cf.name() + "\" directive is duplicate, \""
                                    + (clcf.alias != 0 ? "alias" : "root") + "\" directive was specified earlier");
        }
        if (clcf.named && alias) {
            throw new ConfException("the \"alias\" directive cannot be used inside the named location");
        }
        String value = cf.arg(1);
        if (value.contains("$document_root") || value.contains("${document_root}")) {
            throw new ConfException("the $document_root variable cannot be used in the \"" + cf.name()
                                    + "\" directive");
        }
        if (value.contains("$realpath_root") || value.contains("${realpath_root}")) {
            throw new ConfException("the $realpath_root variable cannot be used in the \"" + cf.name()
                                    + "\" directive");
        }
        clcf.alias = alias ? clcf.name.length() : 0;
        String root = value;
        if (!alias && root.endsWith("/")) {
            root = root.substring(0, root.length() - 1);
        }
        if (root.isEmpty() || root.charAt(0) != '$') {
            root = fullName(cf, root);
        }
        clcf.root = root;
        boolean compile = root.indexOf('$') >= 0;
        if (alias && clcf.regex != null) {
            clcf.alias = HttpCoreLocConf.ALIAS_REGEX;
            compile = true;
        }
        if (compile) {
            clcf.rootValue = HttpCoreModule.variables(cf).compile(cf, root);
        }
    }

    /** {@code ngx_conf_full_name()}: a relative path is made absolute against the prefix, its slashes kept. */
    static String fullName(ConfContext cf, String path) {
        if (path.startsWith("/")) {
            return path;
        }
        String prefix = cf.cycle().prefix().toString();
        return prefix.endsWith("/") ? prefix + path : prefix + "/" + path;
    }

    /** {@code ngx_conf_set_path_slot}: a directory and up to three levels; the master creates it. */
    static void clientBodyTempPath(ConfContext cf, HttpCoreLocConf clcf) throws ConfException {
        TempPath path = TempPath.parse(cf);
        clcf.clientBodyTempPath = path.dir();
        clcf.clientBodyTempLevels = path.levels();
        cf.cycle().addPath(path);
    }

    /** nginx's {@code ngx_http_core_set_aio()} on a platform without file AIO or threads. */
    static void aio(ConfContext cf, HttpCoreLocConf clcf) throws ConfException {
        String v = cf.arg(1);
        if (v.equals("off")) {
            clcf.aio = 0;
            return;
        }
        if (v.equals("on")) {
            throw new ConfException("\"aio on\" is unsupported on this platform");
        }
        if (v.startsWith("threads") && (v.length() == 7 || v.charAt(7) == '=')) {
            throw new ConfException("\"aio threads\" is unsupported on this platform");
        }
        throw new ConfException("\"" + cf.name() + "\" directive invalid value");
    }

    /** nginx's {@code ngx_http_core_directio()}. */
    static void directio(ConfContext cf, HttpCoreLocConf clcf) throws ConfException {
        if (cf.arg(1).equals("off")) {
            clcf.directio = HttpCoreLocConf.DIRECTIO_OFF;
            return;
        }
        long v = ConfValues.parseOffset(cf.arg(1));
        if (v < 0) {
            throw new ConfException("\"" + cf.name() + "\" directive invalid value");
        }
        clcf.directio = v;
    }

    /** {@code send_lowat}: Linux has no SO_SNDLOWAT to set, so nginx warns and ignores it. */
    static void sendLowat(ConfContext cf, HttpCoreLocConf clcf) throws ConfException {
        long v = ConfValues.parseSize(cf.arg(1));
        if (v < 0) {
            throw new ConfException("\"" + cf.name() + "\" directive invalid value");
        }
        cf.log(LogLevel.WARN, "\"send_lowat\" is not supported, ignored");
        clcf.sendLowat = 0;
    }

    /** nginx's {@code ngx_http_core_keepalive()}: a timeout and the optional header time in seconds. */
    static void keepaliveTimeout(ConfContext cf, HttpCoreLocConf clcf) throws ConfException {
        long timeout = ConfValues.parseTime(cf.arg(1), false);
        if (timeout < 0) {
            throw new ConfException("\"" + cf.name() + "\" directive invalid value");
        }
        clcf.keepaliveTimeout = timeout;
        if (cf.args().size() == 2) {
            return;
        }
        long header = ConfValues.parseTime(cf.arg(2), true);
        if (header < 0) {
            throw new ConfException("\"" + cf.name() + "\" directive invalid value");
        }
        clcf.keepaliveHeader = header;
    }

    /** nginx's {@code ngx_http_core_error_page()}. */
    static void errorPage(ConfContext cf, HttpCoreLocConf clcf) throws ConfException {
        if (clcf.errorPages == null) {
            clcf.errorPages = new ArrayList<>();
        }
        List<String> value = cf.args();
        int nelts = value.size();
        int i = nelts - 2;
        int overwrite;
        int n;
        String code = value.get(i);
        if (code.startsWith("=")) {
            if (i == 1) {
                throw new ConfException("invalid value \"" + code + "\"");
            }
            if (code.length() > 1) {
                overwrite = ConfValues.parseNumber(code.substring(1));
                if (overwrite < 0) {
                    throw new ConfException("invalid value \"" + code + "\"");
                }
            } else {
                overwrite = 0;
            }
            n = 2;
        } else {
            overwrite = -1;
            n = 1;
        }
        String uri = value.get(nelts - 1);
        ComplexValue cv = null;
        String args = null;
        if (uri.indexOf('$') >= 0) {
            cv = HttpCoreModule.variables(cf).compile(cf, uri);
            uri = null;
        } else if (uri.startsWith("/")) {
            int q = uri.indexOf('?');
            if (q >= 0) {
                args = uri.substring(q + 1);
                uri = uri.substring(0, q);
            }
        }
        for (i = 1; i < nelts - n; i++) {
            String v = value.get(i);
            int status = ConfValues.parseNumber(v);
            if (status < 0 || status == 499) {
                throw new ConfException("invalid value \"" + v + "\"");
            }
            if (status < 300 || status > 599) {
                throw new ConfException("value \"" + v + "\" must be between 300 and 599");
            }
            int ow = overwrite;
            if (ow == -1 && (status == 497 || status == 495 || status == 496 || status == 494)) {
                // NGX_HTTP_TO_HTTPS, NGX_HTTPS_CERT_ERROR, NGX_HTTPS_NO_CERT and NGX_HTTP_REQUEST_HEADER_TOO_LARGE
                // are answered as 400
                ow = 400;
            }
            clcf.errorPages.add(new ErrorPage(status, ow, uri, cv, args));
        }
    }

    /** nginx's {@code ngx_http_try_files()} directive handler. */
    static void tryFiles(ConfContext cf, HttpCoreLocConf clcf) throws ConfException {
        List<String> value = cf.args();
        int nelts = value.size();
        List<TryFile> files = new ArrayList<>(nelts - 1);
        for (int i = 0; i < nelts - 1; i++) {
            String name = value.get(i + 1);
            boolean testDir = false;
            if (!name.isEmpty() && name.endsWith("/") && i + 2 < nelts) {
                testDir = true;
                name = name.substring(0, name.length() - 1);
            }
            ComplexValue cv = name.indexOf('$') >= 0 ? HttpCoreModule.variables(cf).compile(cf, name) : null;
            int code = 0;
            if (i == nelts - 2 && name.startsWith("=")) {
                code = ConfValues.parseNumber(name.substring(1));
                if (code < 0 || code > 999) {
                    throw new ConfException("invalid code \"" + name + "\"");
                }
            }
            files.add(new TryFile(name, cv, testDir, code));
        }
        clcf.tryFiles = List.copyOf(files);
        HttpScope.of(cf).block().core().tryFiles = true;
    }

    /** nginx's {@code ngx_log_set_log()} for {@code error_log} at the http, server and location levels. */
    static void errorLog(ConfContext cf, HttpCoreLocConf clcf) throws ConfException {
        String where = cf.arg(1);
        if (where.startsWith("syslog:") || where.startsWith("memory:")) {
            throw new ConfException("\"" + where.substring(0, where.indexOf(':')) + "\" logging is not supported");
        }
        Path file = null;
        if (!where.equals("stderr")) {
            file = cf.resolve(new String(where.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
        }
        List<ErrorLog.Target> targets = clcf.errorLogTargets == null ? new ArrayList<>()
            : new ArrayList<>(clcf.errorLogTargets);
        targets.add(new ErrorLog.Target(file, level(cf.args())));
        clcf.errorLogTargets = List.copyOf(targets);
    }

    /** nginx's {@code ngx_log_set_levels()}: one level at most; a debug_* sublevel means debug. */
    private static LogLevel level(List<String> args) throws ConfException {
        LogLevel level = null;
        boolean debugSublevel = false;
        for (String word : args.subList(2, args.size())) {
            LogLevel named = LogLevel.byLabel(word);
            if (named != null) {
                if (level != null || debugSublevel) {
                    throw new ConfException("duplicate log level \"" + word + "\"");
                }
                level = named;
                continue;
            }
            if (!DEBUG_LEVELS.contains(word) || level != null) {
                throw new ConfException("invalid log level \"" + word + "\"");
            }
            debugSublevel = true;
        }
        if (level == null) {
            return debugSublevel ? LogLevel.DEBUG : LogLevel.ERROR;
        }
        return level;
    }

    /** nginx's {@code ngx_http_core_open_file_cache()}: {@code max=N [inactive=time]} or {@code off}. */
    static void openFileCache(ConfContext cf, HttpCoreLocConf clcf) throws ConfException {
        int max = 0;
        long inactive = 60;
        boolean off = false;
        for (String v : cf.args().subList(1, cf.args().size())) {
            if (v.startsWith("max=")) {
                max = ConfValues.parseNumber(v.substring(4));
                if (max <= 0) {
                    throw new ConfException("invalid \"open_file_cache\" parameter \"" + v + "\"");
                }
                continue;
            }
            if (v.startsWith("inactive=")) {
                inactive = ConfValues.parseTime(v.substring(9), true);
                if (inactive < 0) {
                    throw new ConfException("invalid \"open_file_cache\" parameter \"" + v + "\"");
                }
                continue;
            }
            if (v.equals("off")) {
                off = true;
                continue;
            }
            throw new ConfException("invalid \"open_file_cache\" parameter \"" + v + "\"");
        }
        if (off) {
            clcf.openFileCacheMax = 0;
            return;
        }
        if (max == 0) {
            throw new ConfException("\"open_file_cache\" must have the \"max\" parameter");
        }
        clcf.openFileCacheMax = max;
        clcf.openFileCacheInactive = inactive;
    }

    /** {@code gzip_proxied}: nginx's bitmask of when to compress proxied responses. */
    static DirectiveHandler<HttpCoreLocConf> gzipProxied() {
        return Slots.bitmask(Map.of(
            "off", HttpCoreLocConf.GZIP_PROXIED_OFF,
            "expired", HttpCoreLocConf.GZIP_PROXIED_EXPIRED,
            "no-cache", HttpCoreLocConf.GZIP_PROXIED_NO_CACHE,
            "no-store", HttpCoreLocConf.GZIP_PROXIED_NO_STORE,
            "private", HttpCoreLocConf.GZIP_PROXIED_PRIVATE,
            "no_last_modified", HttpCoreLocConf.GZIP_PROXIED_NO_LM,
            "no_etag", HttpCoreLocConf.GZIP_PROXIED_NO_ETAG,
            "auth", HttpCoreLocConf.GZIP_PROXIED_AUTH,
            "any", HttpCoreLocConf.GZIP_PROXIED_ANY), (HttpCoreLocConf c, int v) -> c.gzipProxied = v);
    }

    /** nginx's {@code ngx_http_gzip_disable()}: {@code msie6}, {@code degradation}, or case-insensitive regexes. */
    static void gzipDisable(ConfContext cf, HttpCoreLocConf clcf) throws ConfException {
        if (clcf.gzipDisable == null) {
            clcf.gzipDisable = new ArrayList<>();
        }
        for (String v : cf.args().subList(1, cf.args().size())) {
            if (v.equals("msie6")) {
                clcf.gzipDisableMsie6 = 1;
                continue;
            }
            if (v.equals("degradation")) {
                clcf.gzipDisableDegradation = 1;
                continue;
            }
            clcf.gzipDisable.add(HttpRegex.compile(v, true));
        }
    }
}
