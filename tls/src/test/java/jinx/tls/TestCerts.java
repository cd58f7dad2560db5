package jinx.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * Certificates made at run time with the {@code openssl} command (never committed): a CA, an ECDSA P-256 and an
 * RSA 2048 server certificate signed by it for {@code localhost}, {@code a.example} and {@code b.example}, a
 * certificate of its own for {@code c.example}, a key that matches none, and the ECDSA key encrypted with the
 * password {@code secret}. The tests without {@code openssl} are skipped (an assumption).
 */
public final class TestCerts {

    /** The directory the files are in. */
    public final Path dir;

    private TestCerts(Path dir) {
        this.dir = dir;
    }

    /**
     * Makes the files in {@code dir}.
     *
     * @param dir an empty directory
     * @return the files
     * @throws IOException when openssl fails
     * @throws InterruptedException when interrupted
     */
    public static TestCerts make(Path dir) throws IOException, InterruptedException {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")), "the openssl command is needed");
        Files.writeString(dir.resolve("san.ext"),
                          "subjectAltName=DNS:localhost,DNS:a.example,DNS:b.example,IP:127.0.0.1\n");
        Files.writeString(dir.resolve("c.ext"), "subjectAltName=DNS:c.example\n");
        run(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=Jinx Test CA");
        leaf(dir, "ec", List.of("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"), "localhost", "san.ext");
        leaf(dir, "rsa", List.of("-newkey", "rsa:2048"), "localhost", "san.ext");
        leaf(dir, "c", List.of("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"), "c.example", "c.ext");
        run(dir, "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "other.key");
        run(dir, "pkey", "-in", "ec.key", "-aes256", "-passout", "pass:secret", "-out", "ec-enc.key");
        Files.writeString(dir.resolve("passwords"), "wrong\nsecret\n");
        return new TestCerts(dir);
    }

    /**
     * Makes the files of client certificate verification, stapling and DH in this directory: {@code client} (signed
     * by the CA, a subject with a comma to escape), {@code self} (self-signed), {@code revoked} (signed by the CA,
     * revoked in {@code ca.crl}), {@code stranger} (signed by another CA, {@code other-ca.crt}), {@code dh.pem}
     * (ffdhe2048) and {@code ocsp.der} (the CA's OCSP response for {@code ec.crt}).
     *
     * @return this
     * @throws IOException when openssl fails
     * @throws InterruptedException when interrupted
     */
    public TestCerts clientCerts() throws IOException, InterruptedException {
        List<String> ec = List.of("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256");
        Files.writeString(dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
        signed(dir, "client", ec, "/C=XX/O=Jinx, Inc./CN=Jinx Client", "ca");
        signed(dir, "revoked", ec, "/CN=Revoked Client", "ca");
        run(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            "self.key", "-out", "self.crt", "-days", "2", "-subj", "/CN=Self Signed");
        run(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            "other-ca.key", "-out", "other-ca.crt", "-days", "2", "-subj", "/CN=Other CA");
        signed(dir, "stranger", ec, "/CN=Stranger", "other-ca");
        Files.writeString(dir.resolve("ca.cnf"), "[ ca ]\ndefault_ca = d\n[ d ]\ndatabase = index.txt\n"
            + "crlnumber = crlnumber\ndefault_md = sha256\ndefault_crl_days = 2\n");
        Files.writeString(dir.resolve("index.txt"), "");
        Files.writeString(dir.resolve("crlnumber"), "01\n");
        run(dir, "ca", "-config", "ca.cnf", "-keyfile", "ca.key", "-cert", "ca.crt", "-revoke", "revoked.crt");
        run(dir, "ca", "-config", "ca.cnf", "-keyfile", "ca.key", "-cert", "ca.crt", "-gencrl", "-out", "ca.crl");
        run(dir, "genpkey", "-genparam", "-algorithm", "DH", "-pkeyopt", "dh_param:ffdhe2048", "-out", "dh.pem");
        run(dir, "ocsp", "-issuer", "ca.crt", "-cert", "ec.crt", "-reqout", "ocsp-req.der", "-no_nonce");
        run(dir, "ocsp", "-index", "index.txt", "-rsigner", "ca.crt", "-rkey", "ca.key", "-CA", "ca.crt", "-reqin",
            "ocsp-req.der", "-respout", "ocsp.der", "-ndays", "2");
        return this;
    }

    private static void signed(Path dir, String name, List<String> key, String subject, String ca)
        throws IOException, InterruptedException {
        List<String> req = new ArrayList<>(List.of("req"));
        req.addAll(key);
        req.addAll(List.of("-nodes", "-keyout", name + ".key", "-out", name + ".csr", "-subj", subject));
        run(dir, req.toArray(new String[0]));
        run(dir, "x509", "-req", "-in", name + ".csr", "-CA", ca + ".crt", "-CAkey", ca + ".key", "-CAcreateserial",
            "-out", name + ".crt", "-days", "2", "-extfile", "client.ext");
    }

    private static void leaf(Path dir, String name, List<String> key, String cn, String ext)
        throws IOException, InterruptedException {
        List<String> req = new ArrayList<>(List.of("req"));
        req.addAll(key);
        req.addAll(List.of("-nodes", "-keyout", name + ".key", "-out", name + ".csr", "-subj", "/CN=" + cn));
        run(dir, req.toArray(new String[0]));
        run(dir, "x509", "-req", "-in", name + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", name + ".crt", "-days", "2", "-extfile", ext);
    }

    private static void run(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        byte[] out;
        try {
            out = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                throw new IOException("openssl " + args[0] + " did not finish");
            }
        } finally {
            p.destroyForcibly();
        }
        if (p.exitValue() != 0) {
            throw new IOException("openssl " + String.join(" ", args) + ": " + new String(out, StandardCharsets.UTF_8));
        }
    }

    /**
     * Returns a file's path as text.
     *
     * @param name the file's name
     * @return the absolute path
     */
    public String path(String name) {
        return dir.resolve(name).toAbsolutePath().toString();
    }
}
