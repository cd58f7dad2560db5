package jinx.http.internal.filter;

import jinx.http.HttpRequest;
import jinx.http.internal.core.HttpCoreLocConf;
import jinx.http.internal.core.HttpCoreSrvConf;
import jinx.http.internal.request.CoreRequest;

/**
 * The {@code http_core} confs of a request, nginx's {@code ngx_http_get_module_loc_conf(r, ngx_http_core_module)}
 * and {@code ..._srv_conf}: the engine's request knows them; any other request (a test's) keeps them at index 0,
 * as {@code ngx_http_core_module.ctx_index} is 0 in nginx.
 */
public final class CoreConfs {

    /** The index of {@code http_core} among HTTP modules. */
    public static final int CORE = 0;

    private CoreConfs() {
    }

    /**
     * Returns the core location conf of the request's location.
     *
     * @param r the request
     * @return the conf
     */
    public static HttpCoreLocConf loc(HttpRequest r) {
        if (r instanceof CoreRequest cr) {
            return cr.clcf();
        }
        return (HttpCoreLocConf) r.locConf(CORE);
    }

    /**
     * Returns the core server conf of the request's server.
     *
     * @param r the request
     * @return the conf
     */
    public static HttpCoreSrvConf srv(HttpRequest r) {
        if (r instanceof CoreRequest cr) {
            return cr.cscf();
        }
        return (HttpCoreSrvConf) r.srvConf(CORE);
    }
}
