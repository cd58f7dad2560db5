package jinx.tls.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The TLS clients of the HTTPS differential test, against either server of a {@link jinx.testkit.DifferentialSite}:
 * JSSE (any certificate trusted, a protocol and server name of the case's choice) and {@code openssl s_client}.
 */
final class TlsClient {

    private TlsClient() {
    }

    /**
     * Sends {@code request} over TLS (JSSE, trusting any certificate) and reads until the server closes or goes
     * quiet; a failed handshake gives {@code [handshake failed]}.
     *
     * @param port the server's HTTPS port
     * @param protocol {@code TLSv1.2} or {@code TLSv1.3}
     * @param sni the server name to send, or null
     * @param request the bytes
     * @return the response text, then how it ended, then the server certificate's subject
     */
    static String exchangeTls(int port, String protocol, String sni, String request) throws Exception {
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
    static String sClient(int port, String input, String... args) throws Exception {
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
}
