package jinx.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/** A connection over TCP to 127.0.0.1. */
final class SocketSession extends JinxClient.Session {

    private final Socket socket;

    SocketSession(int port) throws IOException {
        socket = new Socket();
        try {
            socket.connect(new InetSocketAddress("127.0.0.1", port), JinxClient.QUIET_MS);
            socket.setSoTimeout(JinxClient.QUIET_MS);
            socket.setTcpNoDelay(true);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    @Override
    public JinxClient.Session send(byte[] bytes) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
        return this;
    }

    @Override
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    @Override
    boolean readSome() throws IOException {
        byte[] buf = new byte[65536];
        int n;
        try {
            InputStream in = socket.getInputStream();
            n = in.read(buf);
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            // a reset ends the stream as a close does
            if (String.valueOf(e.getMessage()).contains("reset")) {
                endOfStream();
                return true;
            }
            throw e;
        }
        if (n < 0) {
            endOfStream();
            return true;
        }
        append(buf, n);
        return true;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
