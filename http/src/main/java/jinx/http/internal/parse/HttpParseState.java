package jinx.http.internal.parse;

import jinx.http.HttpRequest;

/**
 * What the request-line, header-line and status-line parsers keep between calls and hand to their caller: the
 * fields of nginx's {@code ngx_http_request_t} that {@code ngx_http_parse.c} reads and writes. Positions are
 * indexes into the buffer being parsed, {@link #NONE} standing for nginx's {@code NULL}; an "end" is the index of
 * the byte after the piece, as nginx's pointers are (except {@link #methodEnd}, which is nginx's last byte of the
 * method).
 *
 * <p>One object serves one request: {@link #reset()} it before the next request on the connection, as nginx
 * starts each request with a zeroed {@code ngx_http_request_t}.
 */
public final class HttpParseState {

    /** A position that is not set, nginx's {@code NULL}. */
    public static final int NONE = -1;

    /** The parser's state, nginx's {@code r->state}: 0 at the start of a line, saved when a call ends mid-line. */
    public int state;

    /** The first byte of the request line ({@code r->request_start}). */
    public int requestStart = NONE;
    /** The end of the request line, before its CR or LF ({@code r->request_end}). */
    public int requestEnd = NONE;
    /** The last byte of the method ({@code r->method_end}): the method is {@code requestStart..methodEnd}. */
    public int methodEnd = NONE;
    /** The first byte of the URI ({@code r->uri_start}). */
    public int uriStart = NONE;
    /** The end of the URI ({@code r->uri_end}). */
    public int uriEnd = NONE;
    /** The first byte of the last segment's extension, after its dot ({@code r->uri_ext}). */
    public int uriExt = NONE;
    /** The first byte of the arguments, after the {@code ?} ({@code r->args_start}). */
    public int argsStart = NONE;
    /** The first byte of an absolute-form URI's scheme ({@code r->schema_start}). */
    public int schemaStart = NONE;
    /** The end of the scheme, at its colon ({@code r->schema_end}). */
    public int schemaEnd = NONE;
    /** The first byte of an absolute-form URI's (or CONNECT's) host ({@code r->host_start}). */
    public int hostStart = NONE;
    /** The end of the host and its port, if any ({@code r->host_end}): nginx validates host and port together. */
    public int hostEnd = NONE;
    /** The first digit of the port (nginx's struct has {@code port_start} but its parser leaves it unset). */
    public int portStart = NONE;
    /** The end of the port ({@code port_end}, likewise set only by Jinx). */
    public int portEnd = NONE;
    /** The {@code H} of {@code HTTP/1.1} ({@code r->http_protocol.data}); the protocol ends at {@link #requestEnd}. */
    public int httpProtocolStart = NONE;

    /** The method as a bit, {@link HttpRequest#GET} ..., or {@link HttpRequest#UNKNOWN} ({@code r->method}). */
    public int method = HttpRequest.UNKNOWN;
    /** The major version ({@code r->http_major}); 0 for HTTP/0.9. */
    public int httpMajor;
    /** The minor version ({@code r->http_minor}); 9 for HTTP/0.9. */
    public int httpMinor;
    /** {@code httpMajor * 1000 + httpMinor} ({@code r->http_version}), set when the line is done. */
    public int httpVersion;

    /** The URI holds {@code //}, {@code /.} or {@code #}: it must be normalised ({@code r->complex_uri}). */
    public boolean complexUri;
    /** The URI holds {@code %}: it must be decoded ({@code r->quoted_uri}). */
    public boolean quotedUri;
    /** The URI holds {@code +} ({@code r->plus_in_uri}). */
    public boolean plusInUri;
    /** An absolute-form URI without a path, {@code http://host?a} ({@code r->empty_path_in_uri}). */
    public boolean emptyPathInUri;

    /** The first byte of the header line ({@code r->header_name_start}). */
    public int headerNameStart = NONE;
    /** The end of the header's name ({@code r->header_name_end}). */
    public int headerNameEnd = NONE;
    /** The first byte of the header's value ({@code r->header_start}). */
    public int headerStart = NONE;
    /**
     * The end of the header's value, trailing spaces and tabs excluded ({@code r->header_end}); after
     * {@link HttpParser#PARSE_INVALID_HEADER}, the offending byte.
     */
    public int headerEnd = NONE;
    /** nginx's hash of the lower-cased name ({@code r->header_hash}, {@code ngx_hash()}), 64-bit. */
    public long headerHash;
    /**
     * The word hash of the header line's value ({@link StringCache#mix}), when {@link PlainHeaderLine} read it a
     * word at a time; valid only while {@link #valueHashEnd} equals {@link #headerEnd}.
     */
    long valueHash;
    /** The {@link #headerEnd} that {@link #valueHash} belongs to, or {@code NONE}. */
    int valueHashEnd = NONE;
    /** How many bytes of {@link #lowcaseHeader} are valid, modulo its length ({@code r->lowcase_index}). */
    public int lowcaseIndex;
    /** The lower-cased name, {@link HttpParser#LC_HEADER_LEN} bytes at most ({@code r->lowcase_header}). */
    public final byte[] lowcaseHeader = new byte[HttpParser.LC_HEADER_LEN];
    /** The name holds a byte nginx ignores by default, or an underscore not allowed ({@code r->invalid_header}). */
    public boolean invalidHeader;
    /** The lines come from an upstream (nginx's {@code r->upstream != NULL}): IIS's doubled status line is skipped. */
    public boolean upstream;

    /** The decoded, normalised path ({@code r->uri}), set by {@link HttpParser#processRequestUri}. */
    public String uri;
    /** The URI as sent, arguments included ({@code r->unparsed_uri}). */
    public String unparsedUri;
    /** The arguments ({@code r->args}), or the empty string. */
    public String args = "";
    /** The last segment's extension ({@code r->exten}), or the empty string. */
    public String exten = "";
    /** {@link #unparsedUri} may be passed on as it is ({@code r->valid_unparsed_uri}). */
    public boolean validUnparsedUri;

    /**
     * Returns everything to a fresh request's values, for the next request on the connection ({@link #upstream},
     * which says what the lines are rather than what was parsed, stays).
     */
    public void reset() {
        state = 0;
        requestStart = NONE;
        requestEnd = NONE;
        methodEnd = NONE;
        uriStart = NONE;
        uriEnd = NONE;
        uriExt = NONE;
        argsStart = NONE;
        schemaStart = NONE;
        schemaEnd = NONE;
        hostStart = NONE;
        hostEnd = NONE;
        portStart = NONE;
        portEnd = NONE;
        httpProtocolStart = NONE;
        method = HttpRequest.UNKNOWN;
        httpMajor = 0;
        httpMinor = 0;
        httpVersion = 0;
        complexUri = false;
        quotedUri = false;
        plusInUri = false;
        emptyPathInUri = false;
        headerNameStart = NONE;
        headerNameEnd = NONE;
        headerStart = NONE;
        headerEnd = NONE;
        headerHash = 0;
        valueHash = 0;
        valueHashEnd = NONE;
        lowcaseIndex = 0;
        invalidHeader = false;
        uri = null;
        unparsedUri = null;
        args = "";
        exten = "";
        validUnparsedUri = false;
    }

    /**
     * Shifts the request line's positions that are set by {@code delta}: the caller copied the unfinished request
     * line {@code delta} bytes further (or into another buffer), as nginx's
     * {@code ngx_http_alloc_large_header_buffer()} moves its pointers after the copy.
     *
     * @param delta the new index of a byte minus its old one
     */
    public void moveRequestLine(int delta) {
        requestStart = moved(requestStart, delta);
        requestEnd = moved(requestEnd, delta);
        methodEnd = moved(methodEnd, delta);
        uriStart = moved(uriStart, delta);
        uriEnd = moved(uriEnd, delta);
        uriExt = moved(uriExt, delta);
        argsStart = moved(argsStart, delta);
        schemaStart = moved(schemaStart, delta);
        schemaEnd = moved(schemaEnd, delta);
        hostStart = moved(hostStart, delta);
        hostEnd = moved(hostEnd, delta);
        portStart = moved(portStart, delta);
        portEnd = moved(portEnd, delta);
        httpProtocolStart = moved(httpProtocolStart, delta);
    }

    /**
     * Shifts the header line's positions that are set by {@code delta}, after the caller copied an unfinished
     * header line (the request line's positions still point into the old buffer, as in nginx).
     *
     * @param delta the new index of a byte minus its old one
     */
    public void moveHeaderLine(int delta) {
        headerNameStart = moved(headerNameStart, delta);
        headerNameEnd = moved(headerNameEnd, delta);
        headerStart = moved(headerStart, delta);
        headerEnd = moved(headerEnd, delta);
        valueHashEnd = NONE;
    }

    private static int moved(int position, int delta) {
        return position == NONE ? NONE : position + delta;
    }
}
