package jinx.http.internal.core;

import java.util.LinkedHashMap;
import java.util.List;

import jinx.http.HttpRequest;
import jinx.http.spi.HttpCtx;
import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.os.SockAddr;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.ConfScope;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The block directives of {@code http_core}: {@code server} ({@code ngx_http_core_server()}), {@code location}
 * ({@code ngx_http_core_location()}), {@code limit_except} ({@code ngx_http_core_limit_except()}) and
 * {@code types} ({@code ngx_http_core_types()}, {@code ngx_http_core_type()}).
 */
final class CoreBlocks {

    private static final String[] METHOD_NAMES = {
        "GET", "HEAD", "POST", "PUT", "DELETE", "MKCOL", "COPY", "MOVE", "OPTIONS", "PROPFIND", "PROPPATCH",
        "LOCK", "UNLOCK", "PATCH"};
    private static final int[] METHODS = {
        HttpRequest.GET, HttpRequest.HEAD, HttpRequest.POST, HttpRequest.PUT, HttpRequest.DELETE,
        HttpRequest.MKCOL, HttpRequest.COPY, HttpRequest.MOVE, HttpRequest.OPTIONS, HttpRequest.PROPFIND,
        HttpRequest.PROPPATCH, HttpRequest.LOCK, HttpRequest.UNLOCK, HttpRequest.PATCH};

    private CoreBlocks() {
    }

    static void server(ConfContext cf, Void unused) throws ConfException {
        HttpScope http = HttpScope.of(cf);
        HttpBlockConf block = http.block();
        HttpConfCtx ctx = new HttpConfCtx(http.confs().mainConf, block.createSrvConfs(), block.createLocConfs());
        HttpCoreSrvConf cscf = HttpCoreModule.srvConf(ctx.srvConf);
        cscf.ctx = ctx;
        cscf.file = cf.file();
        cscf.line = cf.line();
        HttpCoreLocConf clcf = HttpCoreModule.locConf(ctx);
        clcf.locConf = ctx.locConf;
        HttpCoreMainConf cmcf = block.core();
        cmcf.servers.add(cscf);

        cf.parseBlock(http.nested(HttpCtx.SRV, ctx));

        if (!cscf.listen) {
            // nginx's default: *:80 for root, *:8000 otherwise
            int port = geteuid() == 0 ? 80 : 8000;
            ListenOpt opt = new ListenOpt(SockAddr.parse("*:" + port));
            opt.wildcard = true;
            opt.file = cf.file();
            opt.line = cf.line();
            Listens.add(cmcf, cscf, opt);
        }
    }

    private static int geteuid() {
        try {
            return Syscalls.geteuid();
        } catch (RuntimeException | LinkageError e) {
            return -1;
        }
    }

    static void location(ConfContext cf, Void unused) throws ConfException {
        HttpScope parent = HttpScope.of(cf);
        HttpConfCtx pctx = parent.confs();
        HttpConfCtx ctx = new HttpConfCtx(pctx.mainConf, pctx.srvConf, parent.block().createLocConfs());
        HttpCoreLocConf clcf = HttpCoreModule.locConf(ctx);
        clcf.locConf = ctx.locConf;
        clcf.file = cf.file();
        clcf.line = cf.line();
        List<String> value = cf.args();
        if (value.size() == 3) {
            String mod = value.get(1);
            String name = value.get(2);
            switch (mod) {
                case "=" -> {
                    clcf.name = name;
                    clcf.exactMatch = true;
                }
                case "^~" -> {
                    clcf.name = name;
                    clcf.noregex = true;
                }
                case "~" -> regexLocation(cf, clcf, name, false);
                case "~*" -> regexLocation(cf, clcf, name, true);
                default -> throw new ConfException("invalid location modifier \"" + mod + "\"");
            }
        } else {
            String name = value.get(1);
            if (name.startsWith("=")) {
                clcf.name = name.substring(1);
                clcf.exactMatch = true;
            } else if (name.startsWith("^~")) {
                clcf.name = name.substring(2);
                clcf.noregex = true;
            } else if (name.startsWith("~*")) {
                regexLocation(cf, clcf, name.substring(2), true);
            } else if (name.startsWith("~")) {
                regexLocation(cf, clcf, name.substring(1), false);
            } else {
                clcf.name = name;
                clcf.named = name.startsWith("@");
            }
        }

        HttpCoreLocConf pclcf = HttpCoreModule.locConf(pctx);
        if (parent.ctx().equals(HttpCtx.LOC)) {
            nestedChecks(clcf, pclcf);
        }
        LocationBuilder.add(pclcf, clcf, cf.file(), cf.line());
        cf.parseBlock(parent.nested(HttpCtx.LOC, ctx));
    }

    private static void nestedChecks(HttpCoreLocConf clcf, HttpCoreLocConf pclcf) throws ConfException {
        if (pclcf.exactMatch) {
            throw new ConfException("location \"" + clcf.name + "\" cannot be inside the exact location \""
                                    + pclcf.name + "\"");
        }
        if (pclcf.named) {
            throw new ConfException("location \"" + clcf.name + "\" cannot be inside the named location \""
                                    + pclcf.name + "\"");
        }
        if (clcf.named) {
            throw new ConfException("named location \"" + clcf.name + "\" can be on the server level only");
        }
        if (clcf.regex == null && !clcf.name.startsWith(pclcf.name)) {
            throw new ConfException("location \"" + clcf.name + "\" is outside location \"" + pclcf.name + "\"");
        }
    }

    private static void regexLocation(ConfContext cf, HttpCoreLocConf clcf, String regex, boolean caseless)
        throws ConfException {
        clcf.regex = HttpCoreModule.compileRegex(cf, regex, caseless);
        clcf.name = regex;
    }

    static void limitExcept(ConfContext cf, HttpCoreLocConf pclcf) throws ConfException {
        int limited = -1;
        for (String m : cf.args().subList(1, cf.args().size())) {
            int bit = method(m);
            if (bit == 0) {
                throw new ConfException("invalid method \"" + m + "\"");
            }
            limited &= ~bit;
        }
        if ((limited & HttpRequest.GET) == 0) {
            limited &= ~HttpRequest.HEAD;
        }
        pclcf.limitExcept = limited;
        HttpScope parent = HttpScope.of(cf);
        HttpConfCtx pctx = parent.confs();
        HttpConfCtx ctx = new HttpConfCtx(pctx.mainConf, pctx.srvConf, parent.block().createLocConfs());
        HttpCoreLocConf clcf = HttpCoreModule.locConf(ctx);
        pclcf.limitExceptLocConf = ctx.locConf;
        clcf.locConf = ctx.locConf;
        clcf.name = pclcf.name;
        clcf.noname = true;
        clcf.lmtExcpt = true;
        clcf.file = cf.file();
        clcf.line = cf.line();
        LocationBuilder.add(pclcf, clcf, cf.file(), cf.line());
        cf.parseBlock(parent.nested(HttpCtx.LMT, ctx));
    }

    private static int method(String name) {
        for (int i = 0; i < METHOD_NAMES.length; i++) {
            if (METHOD_NAMES[i].equalsIgnoreCase(name)) {
                return METHODS[i];
            }
        }
        return 0;
    }

    static void types(ConfContext cf, HttpCoreLocConf clcf) throws ConfException {
        if (clcf.types == null) {
            clcf.types = new LinkedHashMap<>();
        }
        cf.parseBlock(new TypesScope(clcf));
    }

    /** The inside of {@code types {}}: every line is a content type and its extensions, or an include. */
    private record TypesScope(HttpCoreLocConf clcf) implements ConfScope {

        private static final Ctx TYPES = Ctx.of("types");

        @Override
        public Ctx ctx() {
            return TYPES;
        }

        @Override
        public ModuleType moduleType() {
            return HttpCtx.HTTP;
        }

        @Override
        public Object conf(JinxModule module, Class<?> type) {
            return null;
        }

        @Override
        public LineHandler lineHandler() {
            return this::type;
        }

        private void type(ConfContext cf, List<String> words) throws ConfException {
            if (words.get(0).equals("include")) {
                if (words.size() != 2) {
                    throw new ConfException("invalid number of arguments in \"include\" directive");
                }
                BlockLines.include(cf);
                return;
            }
            String contentType = words.get(0);
            for (String ext : words.subList(1, words.size())) {
                String low = CoreDirectives.lowerAscii(ext);
                String old = clcf.types.put(low, contentType);
                if (old != null) {
                    cf.log(LogLevel.WARN, "duplicate extension \"" + low + "\", content type: \"" + contentType
                                          + "\", previous content type: \"" + old + "\"");
                }
            }
        }
    }
}
