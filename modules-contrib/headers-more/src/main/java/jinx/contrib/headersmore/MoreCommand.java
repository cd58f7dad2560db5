package jinx.contrib.headersmore;

import java.util.List;
import java.util.Set;

import jinx.http.spi.ComplexValue;

/**
 * One {@code more_set_headers} or {@code more_clear_headers} directive, compiled.
 *
 * @param set true for {@code more_set_headers}
 * @param statuses the {@code -s} codes; empty for any status
 * @param types the {@code -t} media types, lower case; empty for any type
 * @param headers the headers it sets or clears, in order
 */
record MoreCommand(boolean set, Set<Integer> statuses, List<String> types, List<Header> headers) {

    /**
     * One header of a directive.
     *
     * @param name the name as written ({@code X-Foo}); for a clear, a trailing {@code *} matches any suffix
     * @param value the value, or null to clear; an empty value clears too
     */
    record Header(String name, ComplexValue value) {

        /** Tells whether the name ends with the wildcard {@code *}. */
        boolean wildcard() {
            return name.endsWith("*");
        }
    }
}
