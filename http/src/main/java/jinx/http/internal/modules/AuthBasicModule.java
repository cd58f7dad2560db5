package jinx.http.internal.modules;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import jinx.http.HttpRequest;
import jinx.http.internal.variables.HeaderVariables;
import jinx.http.spi.ComplexValue;
import jinx.http.spi.HttpConfig;
import jinx.http.spi.HttpCtx;
import jinx.http.spi.HttpDirectives;
import jinx.http.spi.HttpModule;
import jinx.http.spi.Phase;
import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.os.NativeIoException;
import jinx.kernel.spi.ApiVersion;
import jinx.kernel.spi.Arity;
import jinx.kernel.spi.ConfContext;
import jinx.kernel.spi.Ctx;
import jinx.kernel.spi.Directive;
import jinx.kernel.spi.JinxModule;
import jinx.kernel.spi.ModuleType;

/**
 * The {@code http_auth_basic} module, nginx's {@code ngx_http_auth_basic_module.c}: {@code auth_basic realm} (or
 * {@code off}) and {@code auth_basic_user_file file} (relative to the configuration's directory, variables
 * allowed) check the {@code Authorization: Basic} credentials against an htpasswd file read on every request, in
 * the ACCESS phase: 401 with {@code WWW-Authenticate: Basic realm="..."} without or with wrong credentials, 403 when
 * the file does not exist, 500 when it cannot be read. Hashes as {@link PasswordHash}.
 */
public final class AuthBasicModule implements JinxModule, HttpModule {

    /** The module's name. */
    public static final String NAME = "http_auth_basic";

    private static final Set<Ctx> MSLL = Set.of(HttpCtx.MAIN, HttpCtx.SRV, HttpCtx.LOC, HttpCtx.LMT);
    private static final int UNAUTHORIZED = 401;
    private static final int FORBIDDEN = 403;
    private static final int INTERNAL_SERVER_ERROR = 500;

    private static final List<Directive<?>> DIRECTIVES = List.of(
        Directive.of("auth_basic", MSLL, Arity.TAKE1, AuthBasicLocConf.class,
            (cf, c) -> c.realm = HttpDirectives.compile(cf, cf.arg(1)))
            .syntax("string | off").defaults("off").describe("Enables validation of user name and password using "
                + "the \"HTTP Basic Authentication\" protocol; the parameter is the realm."),
        Directive.of("auth_basic_user_file", MSLL, Arity.TAKE1, AuthBasicLocConf.class,
            AuthBasicModule::userFile)
            .syntax("file").describe("Specifies a file that keeps user names and passwords, in the htpasswd "
                + "format."));

    /** The location conf: nginx's {@code ngx_http_auth_basic_loc_conf_t}. */
    static final class AuthBasicLocConf {
        ComplexValue realm;
        ComplexValue userFile;
        /** The configuration's directory with a final slash, for a relative file name made of variables. */
        String confPrefix;
    }

    private int ctxIndex = -1;

    /**
     * The module, as {@code ServiceLoader} makes it.
     */
    public AuthBasicModule() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModuleType type() {
        return HttpCtx.HTTP;
    }

    @Override
    public ApiVersion builtFor() {
        return ApiVersion.of(ApiVersion.MAJOR, ApiVersion.MINOR);
    }

    @Override
    public List<Directive<?>> directives() {
        return DIRECTIVES;
    }

    @Override
    public Object context() {
        return this;
    }

    @Override
    public Object createLocConf() {
        return new AuthBasicLocConf();
    }

    @Override
    public void mergeLocConf(Object parent, Object child) {
        AuthBasicLocConf prev = (AuthBasicLocConf) parent;
        AuthBasicLocConf conf = (AuthBasicLocConf) child;
        if (conf.realm == null) {
            conf.realm = prev.realm;
        }
        if (conf.userFile == null) {
            conf.userFile = prev.userFile;
            conf.confPrefix = prev.confPrefix;
        }
    }

    @Override
    public void postconfiguration(HttpConfig cf) throws ConfException {
        ctxIndex = cf.ctxIndex(this);
        cf.addPhaseHandler(Phase.ACCESS, this::handler);
    }

    /** nginx's {@code ngx_http_auth_basic_user_file()}: a static name is made absolute now. */
    private static void userFile(ConfContext cf, AuthBasicLocConf alcf) throws ConfException {
        String value = cf.arg(1);
        alcf.userFile = HttpDirectives.compile(cf, value);
        // nginx's conf_prefix: a relative name is the configuration directory's, whether or not it has variables
        Path parent = cf.resolveConf("x").getParent();
        alcf.confPrefix = parent == null ? "/" : parent + "/";
    }

    /** nginx's {@code ngx_http_auth_basic_handler()}. */
    private int handler(HttpRequest r) {
        AuthBasicLocConf alcf = (AuthBasicLocConf) r.locConf(ctxIndex);
        if (alcf.realm == null || alcf.userFile == null) {
            return Rc.DECLINED;
        }
        String realm = alcf.realm.evaluate(r);
        if (realm.equals("off")) {
            return Rc.DECLINED;
        }
        String auth = HeaderVariables.basicCredentials(r);
        if (auth == null) {
            CoreOutput.log(r, LogLevel.INFO, 0, "no user/password was provided for basic authentication");
            return setRealm(r, realm);
        }
        int colon = auth.indexOf(':');
        String user = auth.substring(0, colon);
        String file = alcf.userFile.evaluate(r);
        if (!file.startsWith("/")) {
            file = alcf.confPrefix + file;
        }
        byte[] data;
        try {
            data = Files.readAllBytes(Path.of(file));
        } catch (NoSuchFileException e) {
            CoreOutput.log(r, LogLevel.ERROR, 0, "open() \"" + file + "\" failed (2: No such file or directory)");
            return FORBIDDEN;
        } catch (IOException | RuntimeException e) {
            // a directory opens and fails to read, as nginx's ngx_read_file() logs it
            String call = Files.isDirectory(Path.of(file)) ? "pread() \"" : "open() \"";
            CoreOutput.log(r, LogLevel.CRIT, 0, call + file + "\" failed (" + reason(e) + ")");
            return INTERNAL_SERVER_ERROR;
        }
        String stored = find(new String(data, StandardCharsets.ISO_8859_1), user);
        if (stored == null) {
            CoreOutput.log(r, LogLevel.ERROR, 0, "user \"" + user + "\" was not found in \"" + file + "\"");
            return setRealm(r, realm);
        }
        String encrypted;
        try {
            encrypted = PasswordHash.crypt(auth.substring(colon + 1), stored);
        } catch (NativeIoException | LinkageError e) {
            CoreOutput.log(r, LogLevel.CRIT, 0, e instanceof NativeIoException ? e.getMessage()
                : "crypt() failed (" + e + ")");
            return INTERNAL_SERVER_ERROR;
        }
        if (encrypted.equals(stored)) {
            return Rc.OK;
        }
        CoreOutput.log(r, LogLevel.ERROR, 0, "user \"" + user + "\": password mismatch");
        return setRealm(r, realm);
    }

    private static String reason(Exception e) {
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "13: Permission denied";
        }
        String m = String.valueOf(e.getMessage());
        return m.contains("Is a directory") ? "21: Is a directory" : m;
    }

    /**
     * Finds a user's password in an htpasswd file, as nginx's state machine reads it: {@code user:password} lines,
     * anything after a second {@code :} ignored, lines starting with {@code #} skipped.
     *
     * @param text the file
     * @param user the user
     * @return the stored password, or null
     */
    static String find(String text, String user) {
        int start = 0;
        int n = text.length();
        while (start < n) {
            int end = text.indexOf('\n', start);
            if (end < 0) {
                end = n;
            }
            int ul = user.length();
            if (end - start > ul && text.charAt(start) != '#' && text.charAt(start) != '\r'
                && text.startsWith(user, start) && text.charAt(start + ul) == ':') {
                int p = start + ul + 1;
                int q = p;
                while (q < end && text.charAt(q) != '\r' && text.charAt(q) != ':') {
                    q++;
                }
                return text.substring(p, q);
            }
            start = end + 1;
        }
        return null;
    }

    /** nginx's {@code ngx_http_auth_basic_set_realm()}. */
    private static int setRealm(HttpRequest r, String realm) {
        // kept in its field: under "satisfy any" the core removes it when another module allows the request
        r.headersOut.wwwAuthenticate = r.headersOut.headers.add("WWW-Authenticate", "Basic realm=\"" + realm + "\"");
        return UNAUTHORIZED;
    }
}
