/**
 * The {@code hello} module: the template a module author copies (docs/modules.md). It exports nothing and
 * provides one {@link jinx.kernel.spi.JinxModule}.
 */
module jinx.contrib.hello {
    requires jinx.http;

    provides jinx.kernel.spi.JinxModule with jinx.contrib.hello.HelloModule;
}
