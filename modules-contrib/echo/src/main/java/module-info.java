/**
 * The {@code echo} module: content from the configuration, after openresty's echo-nginx-module.
 */
module jinx.contrib.echo {
    requires jinx.http;

    provides jinx.kernel.spi.JinxModule with jinx.contrib.echo.EchoModule;
}
