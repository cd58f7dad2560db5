package jinx.proxy.internal;

/**
 * What the {@code $upstream_*} variables of a request read: per try, the peer's name, status and times, joined
 * as nginx joins them ({@code 127.0.0.1:8081, 127.0.0.1:8082}; {@code 502, 200}; times in seconds with
 * millisecond resolution, {@code -} for a time a try did not reach).
 */
final class ProxyVars {

    private final StringBuilder addrs = new StringBuilder();
    private final StringBuilder statuses = new StringBuilder();
    private final StringBuilder connectTimes = new StringBuilder();
    private final StringBuilder headerTimes = new StringBuilder();
    private final StringBuilder responseTimes = new StringBuilder();
    private int tries;
    private int status;
    private boolean connected;
    private boolean headered;
    private boolean ended;
    /** This try's counts, joined into the lists below when it ends. */
    private long bytesReceived;
    private long bytesSent;
    private long responseLength;
    private final StringBuilder received = new StringBuilder();
    private final StringBuilder sentList = new StringBuilder();
    private final StringBuilder lengths = new StringBuilder();

    void addPeer(String name) {
        if (tries > 0) {
            closeTry(-1);
            addrs.append(", ");
            statuses.append(", ");
            connectTimes.append(", ");
            headerTimes.append(", ");
            responseTimes.append(", ");
            received.append(", ");
            sentList.append(", ");
            lengths.append(", ");
        }
        bytesReceived = 0;
        bytesSent = 0;
        responseLength = 0;
        tries++;
        status = 0;
        connected = false;
        headered = false;
        ended = false;
        addrs.append(name);
    }

    void connected(long ms) {
        connected = true;
        connectTimes.append(seconds(ms));
    }

    void header(long ms, int code) {
        headered = true;
        headerTimes.append(seconds(ms));
        status = code;
    }

    /** A try failed: nginx's {@code ngx_http_upstream_next()} records the status it would answer. */
    void failed(int code) {
        if (!headered) {
            headered = true;
            headerTimes.append('-');
        }
        status = code;
    }

    /** The try never reached the peer (no socket, no slot, a failed bind): nginx prints no status for it. */
    void noStatus() {
        status = -1;
    }

    void done(long ms) {
        closeTry(ms);
    }

    private void closeTry(long ms) {
        if (ended || tries == 0) {
            return;
        }
        ended = true;
        if (!connected) {
            connected = true;
            connectTimes.append('-');
        }
        if (!headered) {
            headered = true;
            headerTimes.append('-');
        }
        if (status < 0) {
            statuses.append('-');
        } else {
            statuses.append(status == 0 ? 502 : status);
        }
        responseTimes.append(ms < 0 ? "-" : seconds(ms));
        received.append(bytesReceived);
        sentList.append(bytesSent);
        lengths.append(responseLength);
    }

    void received(long n) {
        bytesReceived += n;
    }

    /** Bytes this try wrote to the upstream (the request). */
    void sent(long n) {
        bytesSent += n;
    }

    /** Body bytes this try passed on (nginx's {@code u->state->response_length}). */
    void body(long n) {
        responseLength += n;
    }

    /** {@code $upstream_bytes_received}: per try, as nginx joins them. */
    String bytesReceived() {
        return list(received, bytesReceived);
    }

    /** {@code $upstream_bytes_sent}: nginx records a try's count when the try ends, 0 until then. */
    String bytesSent() {
        return list(sentList, 0);
    }

    /** {@code $upstream_response_length}: recorded when the try ends, as nginx's, 0 until then. */
    String responseLength() {
        return list(lengths, 0);
    }

    /** The ended tries' values, and the running try's while it runs. */
    private String list(StringBuilder ended, long current) {
        if (tries == 0) {
            return null;
        }
        return this.ended ? ended.toString() : ended.toString() + current;
    }

    static String seconds(long ms) {
        long s = ms / 1000;
        long rest = ms % 1000;
        return s + "." + (rest < 10 ? "00" : rest < 100 ? "0" : "") + rest;
    }

    String addr() {
        return tries == 0 ? null : addrs.toString();
    }

    String status() {
        if (tries == 0) {
            return null;
        }
        return ended ? statuses.toString() : statuses.toString() + (status == 0 ? "" : Integer.toString(status));
    }

    String connectTime() {
        return tries == 0 ? null : connectTimes.toString();
    }

    String headerTime() {
        return tries == 0 ? null : headerTimes.toString();
    }

    String responseTime() {
        return tries == 0 ? null : responseTimes.toString();
    }
}
