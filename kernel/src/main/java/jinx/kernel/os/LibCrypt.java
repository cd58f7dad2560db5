package jinx.kernel.os;

/**
 * The password hashing library's call ({@code libcrypt}, libxcrypt on current distributions), mirroring its C
 * prototype. Called only through {@link Crypt}. Not API (see the package's documentation).
 */
public interface LibCrypt {

    /**
     * {@code char *crypt(const char *phrase, const char *setting);}: not reentrant, so {@link Crypt} calls it
     * under a lock.
     *
     * @param phrase the password
     * @param setting the hash to compare with, whose prefix names the method and carries the salt
     * @return the hash, a failure token starting with {@code *}, or null
     */
    String crypt(String phrase, String setting);
}
