package jinx.http.internal.core;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import jinx.http.HttpRequest;
import jinx.kernel.ConfException;
import jinx.kernel.spi.Conf;

/**
 * The defaults and merging of {@code http_core}'s confs: nginx's {@code ngx_http_core_init_main_conf()},
 * {@code ngx_http_core_merge_srv_conf()} and {@code ngx_http_core_merge_loc_conf()}, with current nginx's
 * defaults ({@code keepalive_requests 1000}, {@code keepalive_time 1h}, {@code sendfile_max_chunk 2m}).
 */
final class CoreMerge {

    /** nginx's {@code ngx_http_core_default_types}: what a location knows without {@code types {}}. */
    static final Map<String, String> DEFAULT_TYPES = Map.of(
        "html", "text/html", "gif", "image/gif", "jpg", "image/jpeg");

    /** nginx's {@code ngx_pagesize} on the platforms Jinx targets. */
    private static final long PAGE_SIZE = 4096;

    private CoreMerge() {
    }

    static void initMainConf(HttpCoreMainConf cmcf) {
        cmcf.serverNamesHashMaxSize = Conf.init(cmcf.serverNamesHashMaxSize, 512);
        cmcf.serverNamesHashBucketSize = Conf.init(cmcf.serverNamesHashBucketSize, 64);
        cmcf.variablesHashMaxSize = Conf.init(cmcf.variablesHashMaxSize, 1024);
        cmcf.variablesHashBucketSize = Conf.init(cmcf.variablesHashBucketSize, 64);
    }

    static void mergeSrvConf(HttpCoreSrvConf prev, HttpCoreSrvConf conf) throws ConfException {
        conf.connectionPoolSize = Conf.merge(conf.connectionPoolSize, prev.connectionPoolSize, 64 * 8);
        conf.requestPoolSize = Conf.merge(conf.requestPoolSize, prev.requestPoolSize, 4096);
        conf.clientHeaderTimeout = Conf.merge(conf.clientHeaderTimeout, prev.clientHeaderTimeout, 60_000);
        conf.clientHeaderBufferSize = Conf.merge(conf.clientHeaderBufferSize, prev.clientHeaderBufferSize,
            HttpCoreSrvConf.DEFAULT_CLIENT_HEADER_BUFFER_SIZE);
        if (conf.largeClientHeaderBuffersNum == Conf.UNSET) {
            boolean inherit = prev.largeClientHeaderBuffersNum != Conf.UNSET;
            conf.largeClientHeaderBuffersNum = inherit ? prev.largeClientHeaderBuffersNum
                : HttpCoreSrvConf.DEFAULT_LARGE_BUFFERS_NUM;
            conf.largeClientHeaderBuffersSize = inherit ? prev.largeClientHeaderBuffersSize
                : HttpCoreSrvConf.DEFAULT_LARGE_BUFFERS_SIZE;
        }
        if (conf.largeClientHeaderBuffersSize < conf.connectionPoolSize) {
            throw new ConfException("the \"large_client_header_buffers\" size must be equal to or greater than "
                                    + "\"connection_pool_size\"");
        }
        conf.maxHeaders = Conf.merge(conf.maxHeaders, prev.maxHeaders, 1000);
        conf.ignoreInvalidHeaders = Conf.merge(conf.ignoreInvalidHeaders, prev.ignoreInvalidHeaders, 1);
        conf.mergeSlashes = Conf.merge(conf.mergeSlashes, prev.mergeSlashes, 1);
        conf.underscoresInHeaders = Conf.merge(conf.underscoresInHeaders, prev.underscoresInHeaders, 0);
        if (conf.serverNames.isEmpty()) {
            conf.serverNames.add(new ServerName("", null, conf, conf.file, conf.line));
        }
        ServerName first = conf.serverNames.get(0);
        String name = first.name();
        if (first.regex() != null) {
            name = "~" + name;
        } else if (name.startsWith(".")) {
            name = name.substring(1);
        }
        conf.serverName = name;
    }

    static void mergeLocConf(HttpCoreLocConf prev, HttpCoreLocConf conf) {
        mergeFiles(prev, conf);
        mergeBody(prev, conf);
        mergeSending(prev, conf);
        mergeConnections(prev, conf);
        mergeRest(prev, conf);
    }

    private static void mergeFiles(HttpCoreLocConf prev, HttpCoreLocConf conf) {
        if (conf.root == null) {
            conf.alias = prev.alias;
            conf.root = prev.root;
            conf.rootValue = prev.rootValue;
            if (prev.root == null) {
                conf.alias = 0;
                conf.root = conf.cyclePrefix == null ? "html" : conf.cyclePrefix + "html";
            }
        }
        if (conf.postAction == null) {
            conf.postAction = prev.postAction;
        }
        conf.typesHashMaxSize = Conf.merge(conf.typesHashMaxSize, prev.typesHashMaxSize, 1024);
        conf.typesHashBucketSize = Conf.merge(conf.typesHashBucketSize, prev.typesHashBucketSize, 64);
        if (conf.types == null) {
            conf.types = prev.types != null ? Map.copyOf(prev.types) : DEFAULT_TYPES;
        } else {
            conf.types = Map.copyOf(conf.types);
        }
        if (conf.errorLogTargets == null) {
            conf.errorLogTargets = prev.errorLogTargets;
        }
        if (conf.errorPages == null && prev.errorPages != null) {
            conf.errorPages = prev.errorPages;
        }
        if (conf.errorPages != null) {
            conf.errorPages = List.copyOf(conf.errorPages);
        }
        conf.defaultType = Conf.merge(conf.defaultType, prev.defaultType, "text/plain");
    }

    private static void mergeBody(HttpCoreLocConf prev, HttpCoreLocConf conf) {
        conf.clientMaxBodySize = Conf.merge(conf.clientMaxBodySize, prev.clientMaxBodySize, 1024 * 1024);
        conf.clientBodyBufferSize = Conf.merge(conf.clientBodyBufferSize, prev.clientBodyBufferSize, 2 * PAGE_SIZE);
        conf.clientBodyTimeout = Conf.merge(conf.clientBodyTimeout, prev.clientBodyTimeout, 60_000);
        if (conf.clientBodyTempPath == null) {
            conf.clientBodyTempPath = prev.clientBodyTempPath;
            conf.clientBodyTempLevels = prev.clientBodyTempLevels;
            if (conf.clientBodyTempPath == null && conf.cyclePrefix != null) {
                conf.clientBodyTempPath = Path.of(conf.cyclePrefix + "client_body_temp");
            }
        }
        if (conf.clientBodyTempLevels == null) {
            conf.clientBodyTempLevels = new int[0];
        }
        conf.clientBodyInFileOnly = Conf.merge(conf.clientBodyInFileOnly, prev.clientBodyInFileOnly,
            HttpCoreLocConf.BODY_FILE_OFF);
        conf.clientBodyInSingleBuffer = Conf.merge(conf.clientBodyInSingleBuffer, prev.clientBodyInSingleBuffer, 0);
    }

    private static void mergeSending(HttpCoreLocConf prev, HttpCoreLocConf conf) {
        conf.satisfy = Conf.merge(conf.satisfy, prev.satisfy, HttpCoreLocConf.SATISFY_ALL);
        conf.ifModifiedSince = Conf.merge(conf.ifModifiedSince, prev.ifModifiedSince, HttpCoreLocConf.IMS_EXACT);
        conf.maxRanges = Conf.merge(conf.maxRanges, prev.maxRanges, Integer.MAX_VALUE);
        conf.internal = Conf.merge(conf.internal, prev.internal, 0);
        conf.sendfile = Conf.merge(conf.sendfile, prev.sendfile, 0);
        conf.sendfileMaxChunk = Conf.merge(conf.sendfileMaxChunk, prev.sendfileMaxChunk, 2 * 1024 * 1024);
        conf.subrequestOutputBufferSize = Conf.merge(conf.subrequestOutputBufferSize,
            prev.subrequestOutputBufferSize, PAGE_SIZE);
        conf.aio = Conf.merge(conf.aio, prev.aio, 0);
        conf.aioWrite = Conf.merge(conf.aioWrite, prev.aioWrite, 0);
        conf.readAhead = Conf.merge(conf.readAhead, prev.readAhead, 0);
        conf.directio = Conf.merge(conf.directio, prev.directio, HttpCoreLocConf.DIRECTIO_OFF);
        conf.directioAlignment = Conf.merge(conf.directioAlignment, prev.directioAlignment, 512);
        conf.tcpNopush = Conf.merge(conf.tcpNopush, prev.tcpNopush, 0);
        conf.tcpNodelay = Conf.merge(conf.tcpNodelay, prev.tcpNodelay, 1);
        conf.sendTimeout = Conf.merge(conf.sendTimeout, prev.sendTimeout, 60_000);
        conf.sendLowat = Conf.merge(conf.sendLowat, prev.sendLowat, 0);
        conf.postponeOutput = Conf.merge(conf.postponeOutput, prev.postponeOutput, 1460);
        conf.limitRate = Conf.merge(conf.limitRate, prev.limitRate, 0);
        conf.limitRateAfter = Conf.merge(conf.limitRateAfter, prev.limitRateAfter, 0);
        conf.chunkedTransferEncoding = Conf.merge(conf.chunkedTransferEncoding, prev.chunkedTransferEncoding, 1);
        conf.etag = Conf.merge(conf.etag, prev.etag, 1);
        conf.serverTokens = Conf.merge(conf.serverTokens, prev.serverTokens, HttpCoreLocConf.SERVER_TOKENS_ON);
        conf.msiePadding = Conf.merge(conf.msiePadding, prev.msiePadding, 1);
        conf.msieRefresh = Conf.merge(conf.msieRefresh, prev.msieRefresh, 0);
    }

    private static void mergeConnections(HttpCoreLocConf prev, HttpCoreLocConf conf) {
        conf.keepaliveTime = Conf.merge(conf.keepaliveTime, prev.keepaliveTime, 3_600_000);
        conf.keepaliveTimeout = Conf.merge(conf.keepaliveTimeout, prev.keepaliveTimeout, 75_000);
        conf.keepaliveHeader = Conf.merge(conf.keepaliveHeader, prev.keepaliveHeader, 0);
        conf.keepaliveRequests = Conf.merge(conf.keepaliveRequests, prev.keepaliveRequests, 1000);
        if (conf.keepaliveDisable == 0) {
            conf.keepaliveDisable = prev.keepaliveDisable != 0 ? prev.keepaliveDisable
                : HttpCoreLocConf.KEEPALIVE_DISABLE_MSIE6;
        }
        conf.lingeringClose = Conf.merge(conf.lingeringClose, prev.lingeringClose, HttpCoreLocConf.LINGERING_ON);
        conf.lingeringTime = Conf.merge(conf.lingeringTime, prev.lingeringTime, 30_000);
        conf.lingeringTimeout = Conf.merge(conf.lingeringTimeout, prev.lingeringTimeout, 5000);
        conf.resetTimedoutConnection = Conf.merge(conf.resetTimedoutConnection, prev.resetTimedoutConnection, 0);
        conf.authDelay = Conf.merge(conf.authDelay, prev.authDelay, 0);
    }

    private static void mergeRest(HttpCoreLocConf prev, HttpCoreLocConf conf) {
        conf.absoluteRedirect = Conf.merge(conf.absoluteRedirect, prev.absoluteRedirect, 1);
        conf.serverNameInRedirect = Conf.merge(conf.serverNameInRedirect, prev.serverNameInRedirect, 0);
        conf.portInRedirect = Conf.merge(conf.portInRedirect, prev.portInRedirect, 1);
        conf.recursiveErrorPages = Conf.merge(conf.recursiveErrorPages, prev.recursiveErrorPages, 0);
        conf.logNotFound = Conf.merge(conf.logNotFound, prev.logNotFound, 1);
        conf.logSubrequest = Conf.merge(conf.logSubrequest, prev.logSubrequest, 0);
        // max and inactive are one value in nginx (the cache object): inherited together
        if (conf.openFileCacheMax == Conf.UNSET) {
            conf.openFileCacheMax = prev.openFileCacheMax == Conf.UNSET ? 0 : prev.openFileCacheMax;
            conf.openFileCacheInactive = prev.openFileCacheInactive;
        }
        conf.openFileCacheInactive = Conf.init(conf.openFileCacheInactive, 60);
        conf.openFileCacheValid = Conf.merge(conf.openFileCacheValid, prev.openFileCacheValid, 60);
        conf.openFileCacheMinUses = Conf.merge(conf.openFileCacheMinUses, prev.openFileCacheMinUses, 1);
        conf.openFileCacheErrors = Conf.merge(conf.openFileCacheErrors, prev.openFileCacheErrors, 0);
        conf.openFileCacheEvents = Conf.merge(conf.openFileCacheEvents, prev.openFileCacheEvents, 0);
        conf.gzipVary = Conf.merge(conf.gzipVary, prev.gzipVary, 0);
        conf.gzipHttpVersion = Conf.merge(conf.gzipHttpVersion, prev.gzipHttpVersion, HttpRequest.VERSION_11);
        if (conf.gzipProxied == 0) {
            conf.gzipProxied = prev.gzipProxied != 0 ? prev.gzipProxied : HttpCoreLocConf.GZIP_PROXIED_OFF;
        }
        if (conf.gzipDisable == null) {
            conf.gzipDisable = prev.gzipDisable;
        }
        if (conf.gzipDisableMsie6 == Conf.UNSET) {
            conf.gzipDisableMsie6 = prev.gzipDisableMsie6 == Conf.UNSET ? 0 : prev.gzipDisableMsie6;
        }
        if (conf.gzipDisableDegradation == Conf.UNSET) {
            conf.gzipDisableDegradation = prev.gzipDisableDegradation == Conf.UNSET ? 0
                : prev.gzipDisableDegradation;
        }
    }
}
