/**
 * A module for the integration tests of shared zones across worker processes, packed into a jar at test time and
 * loaded with {@code load_module} (nginx-tests use a Perl handler or the upstream zone for the same).
 */
package jinx.http.it.zone;
