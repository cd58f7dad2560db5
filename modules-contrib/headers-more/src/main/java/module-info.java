/**
 * The {@code headers_more} module: {@code more_set_headers} and {@code more_clear_headers}, after openresty's
 * headers-more-nginx-module.
 */
module jinx.contrib.headersmore {
    requires jinx.http;

    provides jinx.kernel.spi.JinxModule with jinx.contrib.headersmore.HeadersMoreModule;
}
