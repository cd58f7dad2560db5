package jinx.http.internal.modules;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

import jinx.http.internal.variables.HeaderVariables;
import jinx.kernel.os.Crypt;
import jinx.kernel.os.NativeIoException;

/**
 * nginx's {@code ngx_crypt()} ({@code src/core/ngx_crypt.c}): the password schemes of an htpasswd file. Apache's
 * {@code $apr1$} (MD5, 1000 rounds), {@code {PLAIN}}, {@code {SHA}} and {@code {SSHA}} are computed here, as nginx
 * computes them; every other hash goes to the system's {@code crypt(3)} ({@code $1$}, {@code $5$}, {@code $6$},
 * {@code $y$}, {@code $2b$}, DES). Strings hold one byte per char (ISO-8859-1), as the request's do.
 */
final class PasswordHash {

    private static final String ITOA64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    private PasswordHash() {
    }

    /**
     * Hashes a password the way the stored hash says.
     *
     * @param key the password
     * @param salt the stored hash
     * @return the hash, equal to {@code salt} when the password is right
     * @throws NativeIoException when {@code crypt()} fails
     */
    static String crypt(String key, String salt) throws NativeIoException {
        if (salt.startsWith("$apr1$")) {
            return apr1(key, salt);
        }
        if (salt.startsWith("{PLAIN}")) {
            return "{PLAIN}" + key;
        }
        if (salt.startsWith("{SSHA}")) {
            return ssha(key, salt);
        }
        if (salt.startsWith("{SHA}")) {
            return "{SHA}" + base64(digest("SHA-1", bytes(key)));
        }
        return Crypt.crypt(key, salt);
    }

    /** nginx's {@code ngx_crypt_ssha()}: SHA-1 of the password and the salt that follows the stored digest. */
    private static String ssha(String key, String salt) {
        String decoded = HeaderVariables.decodeBase64(salt.substring("{SSHA}".length()));
        byte[] s = decoded == null || decoded.length() < 20 ? new byte[0] : bytes(decoded.substring(20));
        MessageDigest sha = md("SHA-1");
        sha.update(bytes(key));
        sha.update(s);
        byte[] d = sha.digest();
        byte[] out = new byte[d.length + s.length];
        System.arraycopy(d, 0, out, 0, d.length);
        System.arraycopy(s, 0, out, d.length, s.length);
        return "{SSHA}" + base64(out);
    }

    /** nginx's {@code ngx_crypt_apr1()}, Apache's MD5 scheme. */
    static String apr1(String keyText, String saltText) {
        String rest = saltText.substring("$apr1$".length());
        int n = 0;
        while (n < rest.length() && rest.charAt(n) != '$' && n < 8) {
            n++;
        }
        byte[] salt = bytes(rest.substring(0, n));
        byte[] key = bytes(keyText);
        MessageDigest md5 = md("MD5");
        md5.update(key);
        md5.update(bytes("$apr1$"));
        md5.update(salt);
        MessageDigest ctx1 = md("MD5");
        ctx1.update(key);
        ctx1.update(salt);
        ctx1.update(key);
        byte[] fin = ctx1.digest();
        for (int len = key.length; len > 0; len -= 16) {
            md5.update(fin, 0, Math.min(len, 16));
        }
        java.util.Arrays.fill(fin, (byte) 0);
        for (int i = key.length; i != 0; i >>>= 1) {
            if ((i & 1) != 0) {
                md5.update(fin, 0, 1);
            } else {
                md5.update(key, 0, Math.min(1, key.length));
            }
        }
        fin = md5.digest();
        for (int i = 0; i < 1000; i++) {
            MessageDigest c = md("MD5");
            c.update((i & 1) != 0 ? key : fin);
            if (i % 3 != 0) {
                c.update(salt);
            }
            if (i % 7 != 0) {
                c.update(key);
            }
            c.update((i & 1) != 0 ? fin : key);
            fin = c.digest();
        }
        StringBuilder sb = new StringBuilder("$apr1$").append(new String(salt, StandardCharsets.ISO_8859_1))
            .append('$');
        to64(sb, u(fin[0]) << 16 | u(fin[6]) << 8 | u(fin[12]), 4);
        to64(sb, u(fin[1]) << 16 | u(fin[7]) << 8 | u(fin[13]), 4);
        to64(sb, u(fin[2]) << 16 | u(fin[8]) << 8 | u(fin[14]), 4);
        to64(sb, u(fin[3]) << 16 | u(fin[9]) << 8 | u(fin[15]), 4);
        to64(sb, u(fin[4]) << 16 | u(fin[10]) << 8 | u(fin[5]), 4);
        to64(sb, u(fin[11]), 2);
        return sb.toString();
    }

    private static int u(byte b) {
        return b & 0xff;
    }

    private static void to64(StringBuilder sb, int v, int n) {
        while (n-- > 0) {
            sb.append(ITOA64.charAt(v & 0x3f));
            v >>>= 6;
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String base64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    private static byte[] digest(String algorithm, byte[] data) {
        return md(algorithm).digest(data);
    }

    private static MessageDigest md(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            // every Java platform has MD5 and SHA-1 (MessageDigest's contract)
            throw new IllegalStateException(e);
        }
    }
}
