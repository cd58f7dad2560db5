/**
 * Black-box integration tests of the HTTP module, in the manner of nginx-tests ({@code t/http_*.t}): the real
 * server — a {@code SingleProcess} with every module found on the class path (kernel, epoll, poll, HTTP) — started
 * in-process on 127.0.0.1 with an inline configuration ({@link jinx.http.it.JinxServer}), spoken to with raw bytes
 * over sockets ({@link jinx.http.it.RawClient}), its error log read from its file. {@code NginxDifferentialIT}
 * sends the same requests to Debian's nginx and compares; {@code DistributionIT} runs {@code bin/jinx};
 * {@code CurlIT} uses curl.
 *
 * <p>The process tests ({@code MasterProcessIT}, {@code WorkerProcessesIT}, {@code SignalsIT}, {@code ReloadIT},
 * {@code InPlaceReloadIT}, {@code ZoneIT}, {@code UpgradeIT}, ...) test the kernel's master and workers but live
 * here: they run {@code bin/jinx}, whose workers need an event module (event-epoll and event-poll are built after
 * the kernel and depend on it) and which builds the tree when the HTTP jar is missing, and they tell which cycle or
 * worker serves by an HTTP answer ({@code return 200 "$pid"}, a body per configuration). They wait on events (a log
 * line, a process's state, {@code ServerSide}'s view of a connection, {@code Masters.handledBefore}), not on time.
 *
 * <p>They run with failsafe ({@code *IT}) against the packaged jar. Tools that may be missing (curl, nginx, IPv6)
 * are assumptions: the test is skipped, never silently passed.
 */
package jinx.http.it;
