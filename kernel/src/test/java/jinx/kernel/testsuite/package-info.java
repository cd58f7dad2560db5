/**
 * The kernel's test suite for event methods, shipped in the kernel's test-jar (STYLE 6.8's "jinx-testsuite"):
 * {@link jinx.kernel.testsuite.EventActionsContract}, which every event-method module's test extends (with the
 * in-memory connection's cases, {@link jinx.kernel.testsuite.MemoryConnectionScenarios}), and what it needs — a
 * loop harness, a descriptor counter, a small line protocol — and the test modules that cycles built in tests use:
 * {@link jinx.kernel.testsuite.FakeEventModule} (an event method where no real one is on the class path) and
 * {@link jinx.kernel.testsuite.TestListenModule} ({@code test_listen}, a listening socket served by the line
 * protocol). It follows no nginx file; the cases follow src/event (the loop, ngx_event_accept.c, ngx_connection.c's
 * slots) as seed 000 reads them.
 *
 * <p>It is a package of its own, not {@code jinx.kernel}, because the event modules' tests compile inside their
 * named modules: there package {@code jinx.kernel} belongs to module {@code jinx.kernel} (the kernel's main jar), so
 * a class of that package on the class path (the test-jar) would not be seen. A package no module owns is read
 * from the class path.
 */
package jinx.kernel.testsuite;
