package jinx.http.internal.variables;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

import jinx.http.HttpRequest;
import jinx.http.spi.VariableGetter;
import jinx.kernel.ConfException;
import jinx.kernel.Connection;
import jinx.kernel.ErrorLog;
import jinx.kernel.LogLevel;
import jinx.kernel.LoopLocal;

import static jinx.http.spi.HttpConfig.VAR_CHANGEABLE;
import static jinx.http.spi.HttpConfig.VAR_NOCACHEABLE;
import static jinx.http.spi.HttpConfig.VAR_PREFIX;

/**
 * The core variables, nginx's {@code ngx_http_core_variables[]}: their names, flags and getters. The getters that
 * need more than {@link HttpRequest} read the request as {@link RequestFacts}; for a request that is not one,
 * those variables are not found.
 */
public final class CoreVariables {

    /** How a variable is added: {@code HttpConfig::addVariable} or {@code Variables::add}. */
    @FunctionalInterface
    public interface Adder {

        /**
         * Adds a variable.
         *
         * @param name the name
         * @param getter the getter
         * @param flags the flags
         * @throws ConfException for a duplicate
         */
        void add(String name, VariableGetter getter, int flags) throws ConfException;
    }

    private static final LoopLocal<TimeFormats> TIMES = new LoopLocal<>(TimeFormats::new);
    private static final String PID = Long.toString(ProcessHandle.current().pid());
    private static final String HOSTNAME = hostname();

    private CoreVariables() {
    }

    /**
     * Adds every core variable.
     *
     * @param to where to add them
     * @param version the server's version, for {@code $jinx_version} and {@code $nginx_version}
     * @throws ConfException when one is added already
     */
    public static void register(Adder to, String version) throws ConfException {
        to.add("http_cookie", HeaderVariables::cookies, 0);
        to.add("content_length", HeaderVariables::contentLength, 0);
        to.add("content_type", HeaderVariables::contentType, 0);
        to.add("host", HeaderVariables::host, 0);
        to.add("binary_remote_addr", CoreVariables::binaryRemoteAddr, 0);
        to.add("remote_addr", (r, n) -> remoteAddr(r), 0);
        to.add("remote_port", (r, n) -> facts(r) == null ? null : port(facts(r).remotePort()), 0);
        to.add("server_addr", (r, n) -> facts(r) == null ? null : facts(r).serverAddr(), 0);
        to.add("server_port", (r, n) -> facts(r) == null ? null : port(facts(r).serverPort()), 0);
        to.add("server_protocol", (r, n) -> empty(r.httpProtocol) ? null : r.httpProtocol, 0);
        to.add("scheme", (r, n) -> facts(r) != null && facts(r).ssl() ? "https" : "http", 0);
        to.add("https", (r, n) -> facts(r) != null && facts(r).ssl() ? "on" : "", 0);
        to.add("request_uri", (r, n) -> r.unparsedUri, 0);
        to.add("uri", (r, n) -> r.uri, VAR_NOCACHEABLE);
        to.add("document_uri", (r, n) -> r.uri, VAR_NOCACHEABLE);
        to.add("request", (r, n) -> r.requestLine, 0);
        to.add("document_root", (r, n) -> r.documentRoot(), VAR_NOCACHEABLE);
        to.add("realpath_root", CoreVariables::realpathRoot, VAR_NOCACHEABLE);
        to.add("query_string", CoreVariables::args, VAR_NOCACHEABLE);
        to.add("args", CoreVariables::args, VAR_CHANGEABLE | VAR_NOCACHEABLE);
        to.add("is_args", (r, n) -> empty(r.args) ? "" : "?", VAR_NOCACHEABLE);
        to.add("request_filename", (r, n) -> r.mapUriToPath(), VAR_NOCACHEABLE);
        to.add("server_name", (r, n) -> facts(r) == null ? null : HeaderVariables.nonNull(facts(r).serverName()), 0);
        to.add("request_method", (r, n) -> r.methodName, VAR_NOCACHEABLE);
        to.add("remote_user", HeaderVariables::remoteUser, 0);
        to.add("bytes_sent", (r, n) -> bytesSent(r), 0);
        to.add("body_bytes_sent", (r, n) -> bodyBytesSent(r), 0);
        to.add("pipe", (r, n) -> pipe(r), 0);
        to.add("request_body", (r, n) -> facts(r) == null ? null : facts(r).requestBody(), 0);
        to.add("request_length", (r, n) -> requestLength(r), VAR_NOCACHEABLE);
        to.add("request_time", (r, n) -> requestTime(r), VAR_NOCACHEABLE);
        to.add("status", (r, n) -> status(r), VAR_NOCACHEABLE);
        to.add("limit_rate", (r, n) -> facts(r) == null ? null : Long.toString(facts(r).limitRate()),
            VAR_CHANGEABLE | VAR_NOCACHEABLE);
        to.add("connection", (r, n) -> connection(r), 0);
        to.add("connection_requests", (r, n) -> connectionRequests(r), 0);
        to.add("jinx_version", (r, n) -> version, 0);
        to.add("nginx_version", (r, n) -> version, 0);
        to.add("hostname", (r, n) -> HOSTNAME, 0);
        to.add("pid", (r, n) -> PID, 0);
        to.add("msec", (r, n) -> msec(r), VAR_NOCACHEABLE);
        to.add("time_iso8601", (r, n) -> timeIso8601(r), VAR_NOCACHEABLE);
        to.add("time_local", (r, n) -> timeLocal(r), VAR_NOCACHEABLE);
        to.add("http_", HeaderVariables::httpHeader, VAR_PREFIX);
        to.add("sent_http_", HeaderVariables::sentHeader, VAR_PREFIX);
        to.add("cookie_", HeaderVariables::cookie, VAR_PREFIX);
        to.add("arg_", HeaderVariables::argument, VAR_NOCACHEABLE | VAR_PREFIX);
    }

    private static RequestFacts facts(HttpRequest r) {
        return r instanceof RequestFacts f ? f : null;
    }

    private static boolean empty(String s) {
        return s == null || s.isEmpty();
    }

    private static String port(int port) {
        // nginx prints nothing for a port out of range (a UNIX-domain socket's 0)
        return port > 0 && port < 65536 ? Integer.toString(port) : "";
    }

    /**
     * {@code $args}: the arguments. A request line without {@code ?} has none: nginx's {@code r->args.data} is
     * NULL, so the variable is not found ({@code -} in the log); {@code /?} has empty ones.
     *
     * @param r the request
     * @param name ignored
     * @return the arguments, or null
     */
    static String args(HttpRequest r, String name) {
        if (r.args == null) {
            return null;
        }
        if (r.args.isEmpty() && (r.unparsedUri == null || r.unparsedUri.indexOf('?') < 0)) {
            return null;
        }
        return r.args;
    }

    /**
     * {@code $remote_addr}.
     *
     * @param r the request
     * @return the client's address, or null when unknown
     */
    public static String remoteAddr(HttpRequest r) {
        RequestFacts f = facts(r);
        if (f != null) {
            return f.remoteAddr();
        }
        Connection c = r.connection();
        return c == null ? null : c.addrText();
    }

    /**
     * {@code $binary_remote_addr}: 4 bytes for IPv4, 16 for IPv6, the text for a UNIX-domain socket; one char
     * per byte.
     *
     * @param r the request
     * @param name ignored
     * @return the address, or null
     */
    static String binaryRemoteAddr(HttpRequest r, String name) {
        String text = remoteAddr(r);
        if (text == null || !isNumericAddress(text)) {
            return text;
        }
        try {
            // a numeric literal: getByName() parses it and never asks a resolver
            byte[] raw = InetAddress.getByName(text).getAddress();
            return new String(raw, StandardCharsets.ISO_8859_1);
        } catch (UnknownHostException e) {
            return text;
        }
    }

    private static boolean isNumericAddress(String text) {
        if (text.indexOf(':') >= 0) {
            return !text.startsWith("unix:");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '.' && (c < '0' || c > '9')) {
                return false;
            }
        }
        return !text.isEmpty();
    }

    /**
     * {@code $status}: the error status kept for the log, the response's, 009 for HTTP/0.9, or 000; three digits.
     *
     * @param r the request
     * @return the status
     */
    public static String status(HttpRequest r) {
        RequestFacts f = facts(r);
        int status;
        if (f != null && f.errStatus() != 0) {
            status = f.errStatus();
        } else if (r.headersOut.status != 0) {
            status = r.headersOut.status;
        } else if (r.httpVersion == HttpRequest.VERSION_9) {
            status = 9;
        } else {
            status = 0;
        }
        if (status >= 0 && status < 10) {
            return "00" + status;
        }
        return status >= 10 && status < 100 ? "0" + status : Integer.toString(status);
    }

    /**
     * {@code $bytes_sent}.
     *
     * @param r the request
     * @return the count, or null when unknown
     */
    public static String bytesSent(HttpRequest r) {
        RequestFacts f = facts(r);
        return f == null ? null : Long.toString(f.bytesSent());
    }

    /**
     * {@code $body_bytes_sent}, never below 0.
     *
     * @param r the request
     * @return the count, or null when unknown
     */
    public static String bodyBytesSent(HttpRequest r) {
        RequestFacts f = facts(r);
        return f == null ? null : Long.toString(Math.max(0, f.bodyBytesSent()));
    }

    /**
     * {@code $request_length}.
     *
     * @param r the request
     * @return the count
     */
    public static String requestLength(HttpRequest r) {
        return Long.toString(r.requestLength);
    }

    /**
     * {@code $pipe}: {@code p} for a pipelined request, {@code .} otherwise.
     *
     * @param r the request
     * @return the mark
     */
    public static String pipe(HttpRequest r) {
        RequestFacts f = facts(r);
        return f != null && f.pipelined() ? "p" : ".";
    }

    /**
     * {@code $request_time}: seconds since the request started, with ms.
     *
     * @param r the request
     * @return the time, or null when the clock is unknown
     */
    public static String requestTime(HttpRequest r) {
        RequestFacts f = facts(r);
        return f == null ? null : TimeFormats.seconds(Math.max(0, f.wallMillis() - r.startMsec));
    }

    /**
     * {@code $msec}.
     *
     * @param r the request
     * @return the time, or null when the clock is unknown
     */
    public static String msec(HttpRequest r) {
        RequestFacts f = facts(r);
        return f == null ? null : TimeFormats.msec(f.wallMillis());
    }

    /**
     * {@code $time_local}.
     *
     * @param r the request
     * @return the time, or null when the clock is unknown
     */
    public static String timeLocal(HttpRequest r) {
        RequestFacts f = facts(r);
        return f == null ? null : TIMES.get().local(f.wallMillis());
    }

    /**
     * {@code $time_iso8601}.
     *
     * @param r the request
     * @return the time, or null when the clock is unknown
     */
    public static String timeIso8601(HttpRequest r) {
        RequestFacts f = facts(r);
        return f == null ? null : TIMES.get().iso8601(f.wallMillis());
    }

    private static String connection(HttpRequest r) {
        RequestFacts f = facts(r);
        if (f != null) {
            return Long.toString(f.connectionNumber());
        }
        Connection c = r.connection();
        return c == null ? null : Long.toString(c.number);
    }

    private static String connectionRequests(HttpRequest r) {
        RequestFacts f = facts(r);
        if (f != null) {
            return Integer.toString(f.connectionRequests());
        }
        Connection c = r.connection();
        return c == null ? null : Integer.toString(c.requests);
    }

    /**
     * {@code $realpath_root}: the document root with every symbolic link resolved; a failure is logged at
     * {@code crit} as nginx's {@code realpath() "x" failed}.
     *
     * @param r the request
     * @param name ignored
     * @return the path, or null
     */
    static String realpathRoot(HttpRequest r, String name) {
        String root = r.documentRoot();
        if (root == null) {
            return null;
        }
        try {
            return Path.of(root).toRealPath().toString();
        } catch (IOException | InvalidPathException e) {
            ErrorLog log = r.log();
            if (log != null) {
                log.log(LogLevel.CRIT, connectionNumber(r),
                    "realpath() \"" + root + "\" failed (" + reason(e) + ")");
            }
            return null;
        }
    }

    private static long connectionNumber(HttpRequest r) {
        RequestFacts f = facts(r);
        return f == null ? 0 : f.connectionNumber();
    }

    private static String reason(Exception e) {
        if (e instanceof NoSuchFileException) {
            return "2: No such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "13: Permission denied";
        }
        return e.getMessage();
    }

    private static String hostname() {
        // nginx: gethostname(), lower-cased; Linux keeps the same name in /proc
        try {
            String name = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.ISO_8859_1).trim();
            if (!name.isEmpty()) {
                return name.toLowerCase(Locale.ROOT);
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: ask Java below
        }
        try {
            return InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT);
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    /**
     * Returns the host's name as {@code $hostname} gives it.
     *
     * @return the name, lower case
     */
    public static String hostnameValue() {
        return HOSTNAME;
    }
}
