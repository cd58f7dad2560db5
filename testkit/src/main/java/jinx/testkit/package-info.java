/**
 * The module test kit. {@link jinx.testkit.JinxExtension} starts a {@code master_process off} server in the
 * test's JVM ({@link jinx.kernel.Embedded}) with a configuration snippet and the module under test, on a free
 * port of 127.0.0.1 or in memory, hands the test a {@link jinx.testkit.JinxClient} and the error log, and stops
 * the server when the test (or the class) ends. Modeled on Helidon's {@code @RoutingTest}, Jetty's
 * {@code LocalConnector} and Netty's {@code EmbeddedChannel}; docs/modules.md shows it at work.
 * {@link jinx.testkit.FakeUpstream} is a backend for testing a proxying module: it misbehaves by request path and
 * records what reached it.
 */
package jinx.testkit;
