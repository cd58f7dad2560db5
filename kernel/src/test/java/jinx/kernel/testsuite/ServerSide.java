package jinx.kernel.testsuite;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * What a server process did with a test client's TCP connection, read from {@code /proc/net/tcp}: the server's end
 * of it (local address the client's peer, remote address the client's) has an inode once a process accepted it (a
 * connection still in the listen queue has none) and a receive queue of the bytes sent to it that no process has
 * read. Tests that signal or reconfigure a server with a request in flight wait on this, not on a sleep. IPv4 on
 * Linux; part of the kernel's test-jar.
 */
public final class ServerSide {

    /** {@code TCP_ESTABLISHED} as {@code /proc/net/tcp} writes it. */
    private static final String ESTABLISHED = "01";

    private ServerSide() {
    }

    /**
     * Waits until a server process has accepted the client's connection and read everything sent on it so far.
     *
     * @param client a connected socket on 127.0.0.1
     * @param seconds the deadline
     * @throws AssertionError at the deadline, with the connection's last line of {@code /proc/net/tcp}
     * @throws InterruptedException when interrupted
     */
    public static void awaitRead(Socket client, int seconds) throws InterruptedException {
        String local = String.format("0100007F:%04X", client.getPort());
        String remote = String.format("0100007F:%04X", client.getLocalPort());
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String last = "(not in /proc/net/tcp)";
        while (System.nanoTime() < end) {
            String line = line(local, remote);
            if (line != null) {
                last = line;
                String[] f = line.trim().split("\\s+");
                // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
                boolean accepted = !f[9].equals("0");
                boolean read = f[4].endsWith(":00000000");
                if (accepted && read) {
                    return;
                }
            }
            Thread.sleep(2);
        }
        throw new AssertionError("the server did not accept and read the connection from port "
            + client.getLocalPort() + " in " + seconds + " s: " + last);
    }

    /**
     * Waits until the server has closed its end of the client's connection: the end is no longer established
     * (closing with data still queued for the client, or gone).
     *
     * @param client a connected socket on 127.0.0.1
     * @param seconds the deadline
     * @throws AssertionError at the deadline
     * @throws InterruptedException when interrupted
     */
    public static void awaitClosed(Socket client, int seconds) throws InterruptedException {
        String local = String.format("0100007F:%04X", client.getPort());
        String remote = String.format("0100007F:%04X", client.getLocalPort());
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String line = line(local, remote);
        while (line != null && line.trim().split("\\s+")[3].equals(ESTABLISHED)) {
            if (System.nanoTime() > end) {
                throw new AssertionError("the server kept the connection from port " + client.getLocalPort()
                    + " open for " + seconds + " s: " + line);
            }
            Thread.sleep(10);
            line = line(local, remote);
        }
    }

    /** As {@link #awaitRead(Socket, int)} with 20 s (a loaded host starts worker JVMs slowly). */
    public static void awaitRead(Socket client) throws InterruptedException {
        awaitRead(client, 20);
    }

    private static String line(String local, String remote) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/net/tcp"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[1].equals(local) && f[2].equals(remote)) {
                    return line;
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }
}
