package jinx.http.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;

import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.parse.ChunkedState;
import jinx.http.internal.parse.HttpParser;
import jinx.http.internal.request.CoreRequest;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.TempFile;
import jinx.kernel.TempPath;

/**
 * The request body filters of nginx's {@code ngx_http_request_body.c}: {@code ngx_http_request_body_length_filter()}
 * and {@code ngx_http_request_body_chunked_filter()} take the body's bytes out of what was received and keep
 * {@code rest}, the bytes still to read; {@code ngx_http_request_body_save_filter()} keeps them, in memory or, once
 * the receive buffer is full or {@code client_body_in_file_only} asks, in the temporary file
 * ({@code ngx_http_write_request_body()}).
 */
final class RequestBodyFilters {

    private RequestBodyFilters() {
    }

    /**
     * Passes received bytes through the body filters: the length or chunked filter, then the save filter. The
     * filter takes what belongs to the body from {@code in}, moving its position.
     *
     * @param r the request
     * @param rb its body
     * @param in the bytes, or null to set {@code rb.rest} up
     * @return {@link Rc#OK} or an HTTP status
     */
    static int filter(CoreRequest r, RequestBody rb, ByteBuffer in) {
        return r.headersIn.chunked ? chunkedFilter(r, rb, in) : lengthFilter(r, rb, in);
    }

    /** nginx's {@code ngx_http_request_body_length_filter()}: takes up to the rest of the length from {@code in}. */
    private static int lengthFilter(CoreRequest r, RequestBody rb, ByteBuffer in) {
        BufChain out = null;
        if (rb.rest == -1) {
            rb.rest = r.headersIn.contentLengthN;
            if (rb.rest == 0) {
                out = BufChain.of(lastBuf());
            }
        }
        if (in != null && rb.rest > 0 && in.hasRemaining()) {
            ByteBuffer data = in.duplicate();
            int size = in.remaining();
            Buf b = Buf.of(data);
            b.temporary = true;
            if (size < rb.rest) {
                in.position(in.limit());
                rb.rest -= size;
            } else {
                int take = (int) rb.rest;
                data.limit(in.position() + take);
                in.position(in.position() + take);
                rb.rest = 0;
                b.last = true;
            }
            out = BufChain.of(b);
        }
        return saveFilter(r, rb, out);
    }

    /** nginx's {@code ngx_http_request_body_chunked_filter()}: the chunks' data out of {@code in}. */
    private static int chunkedFilter(CoreRequest r, RequestBody rb, ByteBuffer in) {
        if (rb.rest == -1) {
            rb.chunked = new ChunkedState();
            r.headersIn.contentLengthN = 0;
            rb.rest = 3;
        }
        BufChain out = null;
        BufChain tail = null;
        while (in != null) {
            int rc = HttpParser.parseChunked(rb.chunked, in);
            if (rc == Rc.OK) {
                // a chunk has been parsed successfully
                long max = r.clcf().clientMaxBodySize;
                if (max > 0 && max - r.headersIn.contentLengthN < rb.chunked.size) {
                    r.log(LogLevel.ERROR, "client intended to send too large chunked body: "
                          + r.headersIn.contentLengthN + "+" + rb.chunked.size + " bytes");
                    r.lingeringClose = true;
                    return 413;
                }
                int take = (int) Math.min(in.remaining(), rb.chunked.size);
                if (take > 0) {
                    ByteBuffer data = in.duplicate();
                    data.limit(in.position() + take);
                    Buf b = Buf.of(data);
                    b.temporary = true;
                    BufChain cl = BufChain.of(b);
                    if (tail == null) {
                        out = cl;
                    } else {
                        tail.next = cl;
                    }
                    tail = cl;
                    in.position(in.position() + take);
                    r.headersIn.contentLengthN += take;
                    rb.chunked.size -= take;
                }
                continue;
            }
            if (rc == Rc.DONE) {
                // a whole body has been parsed successfully
                rb.rest = 0;
                BufChain cl = BufChain.of(lastBuf());
                if (tail == null) {
                    out = cl;
                } else {
                    tail.next = cl;
                }
                break;
            }
            if (rc == Rc.AGAIN) {
                // the amount of data we want to see next time
                rb.rest = rb.chunked.length;
                break;
            }
            r.log(LogLevel.ERROR, "client sent invalid chunked body");
            return 400;
        }
        return saveFilter(r, rb, out);
    }

    /**
     * nginx's {@code ngx_http_request_body_save_filter()}: keeps the data; writes it to the temporary file when the
     * receive buffer is full, and at the end when the body is (or must be) in a file.
     */
    private static int saveFilter(CoreRequest r, RequestBody rb, BufChain in) {
        for (BufChain cl = in; cl != null; cl = cl.next) {
            if (cl.buf.last) {
                rb.lastSaved = true;
            }
            if (cl.buf.size() > 0) {
                rb.append(cl.buf);
            }
        }
        if (rb.noBuffering) {
            // the consumer takes the pieces as they come: nothing goes to a file
            return Rc.OK;
        }
        if (rb.rest > 0) {
            if (rb.buf != null && rb.bufLast == rb.bufEnd && writeRequestBody(r, rb) != Rc.OK) {
                return 500;
            }
            return Rc.OK;
        }
        if (!rb.lastSaved) {
            return Rc.OK;
        }
        if (rb.tempFile != null || r.clcf().clientBodyInFileOnly != HttpCoreLocConf.BODY_FILE_OFF) {
            if (writeRequestBody(r, rb) != Rc.OK) {
                return 500;
            }
            if (rb.tempFile.offset() != 0) {
                Buf b = new Buf();
                b.inFile = true;
                b.fileFd = rb.tempFile.fd();
                b.fileName = rb.tempFile.name();
                b.filePos = 0;
                b.fileLast = rb.tempFile.offset();
                rb.clearBufs();
                rb.append(b);
            }
        }
        return Rc.OK;
    }

    /** nginx's {@code ngx_http_write_request_body()}: the body so far to the temporary file, made on first use. */
    private static int writeRequestBody(CoreRequest r, RequestBody rb) {
        if (rb.tempFile == null) {
            HttpCoreLocConf clcf = r.clcf();
            int inFileOnly = clcf.clientBodyInFileOnly;
            boolean persistent = inFileOnly != HttpCoreLocConf.BODY_FILE_OFF;
            try {
                rb.tempFile = TempFile.create(new TempPath(clcf.clientBodyTempPath, clcf.clientBodyTempLevels),
                                              persistent, inFileOnly == HttpCoreLocConf.BODY_FILE_CLEAN);
            } catch (IOException e) {
                r.log(LogLevel.CRIT, e.getMessage());
                return Rc.ERROR;
            }
            if (rb.bufs == null) {
                // an empty body with client_body_in_file_only
                return Rc.OK;
            }
            r.log(persistent ? LogLevel.NOTICE : LogLevel.WARN,
                  "a client request body is buffered to a temporary file " + rb.tempFile.name());
        }
        if (rb.bufs == null) {
            return Rc.OK;
        }
        try {
            rb.tempFile.write(rb.bufs);
        } catch (IOException e) {
            r.log(LogLevel.CRIT, e.getMessage());
            return Rc.ERROR;
        }
        rb.clearBufs();
        return Rc.OK;
    }

    private static Buf lastBuf() {
        Buf b = new Buf();
        b.last = true;
        return b;
    }
}
