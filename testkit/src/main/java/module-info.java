/**
 * The module test kit: a JUnit 5 extension that runs Jinx in the test's JVM with the module under test, over
 * sockets or in memory, and a client that speaks raw HTTP to it.
 */
module jinx.testkit {
    requires transitive jinx.kernel;
    requires transitive jinx.http;
    requires transitive org.junit.jupiter.api;

    exports jinx.testkit;
}
