package jinx.tls;

import java.nio.ByteBuffer;

import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Connection;
import jinx.kernel.ConnectionIo;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.SocketIo;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.os.NativeMemory;
import jinx.kernel.os.Syscalls;
import jinx.tls.internal.SslErrors;

/**
 * {@link SslIo#sendChain}: nginx's {@code ngx_ssl_send_chain()}, a chain cut into records of the record buffer's
 * size, each gathered (memory copied, files read with {@code pread}) and written with one {@code SSL_write}. Positions
 * move only by what OpenSSL took, so a chain that comes back is exactly what is left to send.
 */
final class SslRecords {

    /* the maximum limit size is the maximum int32_t value - the page size (nginx) */
    private static final long MAX_LIMIT = Integer.MAX_VALUE - 4096L;

    private SslRecords() {
    }

    static BufChain sendChain(SslIo io, Connection c, BufChain in, long limit, ByteBuffer record) {
        if (limit <= 0 || limit > MAX_LIMIT) {
            limit = MAX_LIMIT;
        }
        long base = NativeMemory.address(record);
        int room = record.capacity();
        long sent = 0;
        while (in != null && sent < limit) {
            int size = gather(c, in, base, (int) Math.min(room, limit - sent));
            if (size < 0) {
                return ConnectionIo.CHAIN_ERROR;
            }
            if (size == 0) {
                break;
            }
            int n = io.write(base, size);
            if (n == Rc.ERROR) {
                return ConnectionIo.CHAIN_ERROR;
            }
            if (n == Rc.AGAIN) {
                return in;
            }
            in = SocketIo.updateSent(in, n);
            sent += n;
        }
        while (in != null && in.buf.isSpecial()) {
            in = in.next;
        }
        return in;
    }

    /** Copies up to {@code room} bytes from the head of the chain, positions untouched; -1 on a file error. */
    private static int gather(Connection c, BufChain in, long to, int room) {
        int size = 0;
        for (; in != null && size < room; in = in.next) {
            Buf b = in.buf;
            if (b.isSpecial()) {
                continue;
            }
            if (b.inFile) {
                int want = (int) Math.min(b.fileLast - b.filePos, room - size);
                int n = pread(c, b, to + size, want);
                if (n < 0) {
                    return -1;
                }
                size += n;
                if (n < want || b.filePos + n < b.fileLast) {
                    break;
                }
                continue;
            }
            if (b.mem == null || !b.mem.isDirect()) {
                SslErrors.log(c, LogLevel.ALERT, 0, "bad buf in output chain");
                return -1;
            }
            int take = Math.min(b.mem.remaining(), room - size);
            NativeMemory.copy(NativeMemory.address(b.mem) + b.mem.position(), to + size, take);
            size += take;
        }
        return size;
    }

    /** A file buffer's next bytes, as nginx's {@code ngx_read_file()} in the output chain. */
    private static int pread(Connection c, Buf b, long to, int want) {
        try {
            int n = Syscalls.pread(b.fileFd, to, want, b.filePos);
            if (n <= 0) {
                // someone has truncated the file (nginx's ngx_output_chain_copy_buf())
                SslErrors.log(c, LogLevel.ALERT, 0, "pread() read only " + n + " of " + want + " from \""
                              + b.fileName + "\"");
                return -1;
            }
            return n;
        } catch (NativeIoException e) {
            SslErrors.log(c, LogLevel.CRIT, 0, e.getMessage() + " \"" + b.fileName + "\"");
            return -1;
        }
    }
}
