package jinx.tls.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import jinx.kernel.Embedded;

/**
 * A prefix for one HTTPS server under test, Debian's nginx or Jinx, with the same configuration: the two servers of a
 * differential test, each started on a free port of 127.0.0.1 and stopped by pid (nginx) or through the API
 * (Jinx), and a raw client that sends bytes and reads until the server closes or goes quiet.
 */
final class TlsSite implements AutoCloseable {

    static final Path NGINX = Path.of("/usr/sbin/nginx");

    private final Path root;
    private final int port;
    private Process nginx;
    private Embedded jinx;
    private final ByteArrayOutputStream jinxLog = new ByteArrayOutputStream();

    private TlsSite(Path root, int port) {
        this.root = root;
        this.port = port;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** nginx with {@code http} inside {@code http {}} ({@code %PORT%} is its port). */
    static TlsSite nginx(String http) throws Exception {
        TlsSite site = new TlsSite(Files.createTempDirectory("jinx-tls-nginx"), freePort());
        Path r = site.root;
        Files.createDirectories(r.resolve("logs"));
        Files.createDirectories(r.resolve("tmp"));
        Files.createDirectories(r.resolve("conf"));
        Files.writeString(r.resolve("conf/nginx.conf"), "events { worker_connections 1024; }\nhttp {\n"
            + "client_body_temp_path tmp/body;\nproxy_temp_path tmp/proxy;\nfastcgi_temp_path tmp/fastcgi;\n"
            + "uwsgi_temp_path tmp/uwsgi;\nscgi_temp_path tmp/scgi;\naccess_log off;\n"
            + http.replace("%PORT%", Integer.toString(site.port)) + "\n}\n");
        ProcessBuilder pb = new ProcessBuilder(NGINX.toString(), "-p", r + "/", "-c", "conf/nginx.conf",
            "-e", r.resolve("logs/error.log").toString(), "-g", "daemon off; master_process off; error_log "
            + r.resolve("logs/error.log") + " info; pid " + r.resolve("logs/n.pid") + ";");
        pb.redirectErrorStream(true);
        pb.redirectOutput(r.resolve("logs/stdout.log").toFile());
        site.nginx = pb.start();
        site.awaitListening();
        return site;
    }

    /** Jinx in this JVM ({@code master_process off}) with the same configuration. */
    static TlsSite jinx(String http) throws Exception {
        TlsSite site = new TlsSite(Files.createTempDirectory("jinx-tls-jinx"), freePort());
        Path r = site.root;
        Files.createDirectories(r.resolve("logs"));
        Files.createDirectories(r.resolve("conf"));
        Files.writeString(r.resolve("conf/jinx.conf"), "master_process off;\nerror_log stderr info;\n"
            + "pid logs/jinx.pid;\nevents { worker_connections 1024; }\nhttp {\naccess_log off;\n"
            + http.replace("%PORT%", Integer.toString(site.port)) + "\n}\n");
        PrintStream err = new PrintStream(site.jinxLog, true, StandardCharsets.ISO_8859_1);
        Embedded e = Embedded.builder(r).confFile(r.resolve("conf/jinx.conf")).stderr(err).build();
        site.jinx = e;
        e.start();
        site.awaitListening();
        return site;
    }

    int port() {
        return port;
    }

    /** The error log so far. */
    String errorLog() throws IOException {
        if (jinx != null) {
            synchronized (jinxLog) {
                return jinxLog.toString(StandardCharsets.ISO_8859_1);
            }
        }
        Path p = root.resolve("logs/error.log");
        return Files.exists(p) ? Files.readString(p, StandardCharsets.ISO_8859_1) : "";
    }

    private void awaitListening() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (;;) {
            if (nginx != null && !nginx.isAlive()) {
                throw new IOException("nginx exited: " + Files.readString(root.resolve("logs/stdout.log")));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }

    /**
     * Sends {@code request} on a new connection and reads until the server closes it or sends nothing for
     * {@code quietMs}; a reset ends the reading as a close does, noted at the end.
     */
    String exchange(String request, int quietMs) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(quietMs);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[65536];
            String end = "[closed]";
            try {
                for (int n; (n = in.read(buf)) > 0; ) {
                    got.write(buf, 0, n);
                }
            } catch (SocketTimeoutException e) {
                end = "[open]";
            } catch (IOException e) {
                end = "[reset]";
            }
            return got.toString(StandardCharsets.ISO_8859_1) + end;
        }
    }

    /**
     * Sends {@code request} over TLS (JSSE, trusting any certificate) and reads until the server closes or goes
     * quiet; a failed handshake gives {@code [handshake failed]}.
     *
     * @param protocol {@code TLSv1.2} or {@code TLSv1.3}
     * @param sni the server name to send, or null
     * @param request the bytes
     * @return the response text, then how it ended, then the server certificate's subject
     */
    String exchangeTls(String protocol, String sni, String request) throws Exception {
        javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
        ctx.init(null, new javax.net.ssl.TrustManager[] {new TrustAll()}, null);
        try (javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) ctx.getSocketFactory()
            .createSocket("127.0.0.1", port)) {
            s.setSoTimeout(3000);
            javax.net.ssl.SSLParameters p = s.getSSLParameters();
            p.setProtocols(new String[] {protocol});
            p.setApplicationProtocols(new String[] {"http/1.1"});
            if (sni != null) {
                p.setServerNames(java.util.List.of(new javax.net.ssl.SNIHostName(sni)));
            }
            s.setSSLParameters(p);
            try {
                s.startHandshake();
            } catch (IOException e) {
                return "[handshake failed]";
            }
            String subject = ((java.security.cert.X509Certificate) s.getSession().getPeerCertificates()[0])
                .getSubjectX500Principal().getName();
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[65536];
            String end = "[closed]";
            try {
                for (int n; (n = s.getInputStream().read(buf)) > 0; ) {
                    got.write(buf, 0, n);
                }
            } catch (SocketTimeoutException e) {
                end = "[open]";
            } catch (IOException e) {
                end = "[reset]";
            }
            return got.toString(StandardCharsets.ISO_8859_1) + end + " certificate " + subject;
        }
    }

    /** Trusts every server: the tests compare two servers with the same certificates, not trust. */
    private static final class TrustAll implements javax.net.ssl.X509TrustManager {
        @Override
        public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {
        }

        @Override
        public java.security.cert.X509Certificate[] getAcceptedIssuers() {
            return new java.security.cert.X509Certificate[0];
        }
    }

    /**
     * Runs {@code openssl s_client} against the server with {@code args}, sending {@code input}, and returns its
     * output.
     */
    String sClient(String input, String... args) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("openssl", "s_client", "-connect",
            "127.0.0.1:" + port));
        cmd.addAll(java.util.List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            p.getOutputStream().write(input.getBytes(StandardCharsets.ISO_8859_1));
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                throw new IOException("s_client did not finish");
            }
            return new String(out, StandardCharsets.ISO_8859_1);
        } finally {
            p.destroyForcibly();
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (nginx != null) {
                ProcessHandle h = nginx.toHandle();
                h.destroy();
                if (!nginx.waitFor(10, TimeUnit.SECONDS)) {
                    h.destroyForcibly();
                    nginx.waitFor(10, TimeUnit.SECONDS);
                }
            }
            if (jinx != null) {
                jinx.close();
            }
        } finally {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
