package jinx.proxy.internal;

import jinx.http.HttpRequest;
import jinx.http.spi.ComplexValue;

/**
 * Values the proxy makes itself rather than compiling a string: nginx's default header values
 ({@code close}, empty values) and literal replacements.
 */
final class Values {

    private Values() {
    }

    static ComplexValue fixed(String text) {
        return new ComplexValue() {
            @Override
            public String evaluate(HttpRequest r) {
                return text;
            }

            @Override
            public boolean isStatic() {
                return true;
            }

            @Override
            public String source() {
                return text;
            }
        };
    }
}
