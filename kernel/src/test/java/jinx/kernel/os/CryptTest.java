package jinx.kernel.os;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * {@link Crypt} calls the system's {@code crypt(3)}: hashes made by {@code openssl passwd} come out the same, and
 * a setting no method knows gives a failure token that equals no hash.
 */
@EnabledOnOs(OS.LINUX)
class CryptTest {

    @Test
    void sameHashesAsOpensslPasswd() throws Exception {
        assertEquals("$1$xyz$Qia9Wq6FxQkYcwNWMk/RM0", Crypt.crypt("secret", "$1$xyz$Qia9Wq6FxQkYcwNWMk/RM0"));
        assertEquals("$5$saltsalt$0IyaXrmV7.sGNS6tirgqHLqX/G.FBvgkYA.lpPdS5sA", Crypt.crypt("secret", "$5$saltsalt$"));
        assertEquals("$6$saltsalt$TVLlQcbpFVof5W3Yz4DTP6gRstiNuHwwTt6GLc1E5n0U0aDehy0S5knV8wiOQSpT0Y77vwPZN"
            + ".Pq.H91p5hVO1",
            Crypt.crypt("secret", "$6$saltsalt$"));
        assertNotEquals("$6$saltsalt$x", Crypt.crypt("wrong", "$6$saltsalt$x"));
    }

    @Test
    void unknownMethodGivesAFailureToken() throws Exception {
        String token = Crypt.crypt("secret", "$unknown$salt");
        assertEquals('*', token.charAt(0), token);
    }
}
