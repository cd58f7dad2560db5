package jinx.tls.internal.http;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code $ssl_client_escaped_cert}'s escaping: nginx's {@code ngx_escape_uri(NGX_ESCAPE_URI_COMPONENT)}, which
 * keeps letters, digits and {@code -._~} and writes everything else as {@code %XX} in capitals.
 */
class HttpSslModuleTest {

    @Test
    void escapesAPemAsNginx() {
        assertEquals("-----BEGIN%20CERTIFICATE-----%0AMIIB%2Bz%2F%3D%3D%0A-----END%20CERTIFICATE-----%0A",
                     HttpSslModule.escapeUriComponent("-----BEGIN CERTIFICATE-----\nMIIB+z/==\n"
                                                      + "-----END CERTIFICATE-----\n"));
        assertEquals("a.b_c~d-e", HttpSslModule.escapeUriComponent("a.b_c~d-e"));
        assertEquals("", HttpSslModule.escapeUriComponent(""));
    }
}
