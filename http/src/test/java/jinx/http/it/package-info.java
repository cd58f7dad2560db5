/**
 * Black-box integration tests of the HTTP module, in the manner of nginx-tests ({@code t/http_*.t}): the real
 * server — a {@code SingleProcess} with every module found on the class path (kernel, epoll, poll, HTTP) — started
 * in-process on 127.0.0.1 with an inline configuration ({@link jinx.http.it.JinxServer}), spoken to with raw bytes
 * over sockets ({@link jinx.http.it.RawClient}), its error log read from its file. {@code NginxDifferentialIT}
 * sends the same requests to Debian's nginx and compares; {@code DistributionIT} runs {@code bin/jinx};
 * {@code CurlIT} uses curl.
 *
 * <p>They run with failsafe ({@code *IT}) against the packaged jar. Tools that may be missing (curl, nginx, IPv6)
 * are assumptions: the test is skipped, never silently passed.
 */
package jinx.http.it;
