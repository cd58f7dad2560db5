package jinx.http.internal.modules;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;

import jinx.http.HttpRequest;
import jinx.http.internal.core.Captures;
import jinx.http.internal.core.HttpCoreModule;
import jinx.http.internal.core.HttpRegex;
import jinx.http.internal.request.CoreRequest;
import jinx.http.spi.ComplexValue;
import jinx.http.spi.HttpDirectives;
import jinx.kernel.ConfException;
import jinx.kernel.LogLevel;
import jinx.kernel.Rc;
import jinx.kernel.spi.ConfContext;

/**
 * The condition of the rewrite module's {@code if}: nginx's {@code ngx_http_rewrite_if_condition()} and the script
 * codes it compiles to ({@code ngx_http_script_equal_code()}, {@code ..._not_equal_code()}, the regex start code
 * in its test form, {@code ngx_http_script_file_code()}). A condition is a variable (true unless empty or
 * {@code "0"}), a comparison with {@code =} or {@code !=}, a regex match with {@code ~}, {@code ~*}, {@code !~} or
 * {@code !~*} (its captures are the request's afterwards), or a file test {@code -f}, {@code -d}, {@code -e},
 * {@code -x} or their negations {@code !-f} ... on a value with variables.
 */
final class RewriteIf {

    /** What a condition gives: true, false, or an error that ends the request with 500. */
    static final int TRUE = 1;
    /** The condition does not hold. */
    static final int FALSE = 0;
    /** The regex match was abandoned ({@link HttpRegex}'s budget). */
    static final int ERROR = -1;

    private RewriteIf() {
    }

    /** A compiled condition. */
    interface Condition {

        /**
         * Evaluates the condition.
         *
         * @param e the running program
         * @return {@link #TRUE}, {@link #FALSE} or {@link #ERROR}
         */
        int test(RewriteCode.Engine e);
    }

    /** {@code if ($var)}. */
    private record VariableTrue(int index) implements Condition {
        @Override
        public int test(RewriteCode.Engine e) {
            String v = varValue(e.r, index);
            return v.isEmpty() || v.equals("0") ? FALSE : TRUE;
        }
    }

    /** {@code if ($var = value)} and {@code if ($var != value)}. */
    private record Equal(int index, ComplexValue value, boolean negate) implements Condition {
        @Override
        public int test(RewriteCode.Engine e) {
            return varValue(e.r, index).equals(value.evaluate(e.r)) != negate ? TRUE : FALSE;
        }
    }

    /** {@code if ($var ~ regex)} and its caseless and negated forms. */
    private record Match(int index, HttpRegex regex, boolean negate) implements Condition {
        @Override
        public int test(RewriteCode.Engine e) {
            String line = varValue(e.r, index);
            Captures captures = e.r instanceof CoreRequest cr ? cr.captures : new Captures();
            int rc = regex.exec(line, captures);
            if (rc == Rc.ERROR) {
                CoreOutput.log(e.r, LogLevel.ALERT, 0, regex.failure(line));
                return ERROR;
            }
            boolean matched = rc == Rc.OK;
            e.notice("\"" + regex.source() + "\" " + (matched ? "matches" : "does not match") + " \"" + line + "\"");
            return matched != negate ? TRUE : FALSE;
        }
    }

    /** {@code if (-f path)} and the other file tests. */
    private record FileTest(ComplexValue path, char op, boolean negate) implements Condition {
        @Override
        public int test(RewriteCode.Engine e) {
            String name = path.evaluate(e.r);
            PosixFileAttributes a = stat(e.r, name);
            boolean holds = a != null && switch (op) {
                case 'f' -> a.isRegularFile();
                case 'd' -> a.isDirectory();
                case 'e' -> a.isRegularFile() || a.isDirectory() || a.isSymbolicLink();
                default -> a.permissions().contains(PosixFilePermission.OWNER_EXECUTE);
            };
            return holds != negate ? TRUE : FALSE;
        }

        /** {@code stat()} through the link, as {@code ngx_open_cached_file()}; not found is null, as other errors. */
        private static PosixFileAttributes stat(HttpRequest r, String name) {
            try {
                return Files.readAttributes(Path.of(name), PosixFileAttributes.class);
            } catch (NoSuchFileException | NotDirectoryException | InvalidPathException e) {
                return null;
            } catch (AccessDeniedException e) {
                CoreOutput.log(r, LogLevel.CRIT, 0, "stat() \"" + name + "\" failed (13: Permission denied)");
                return null;
            } catch (FileSystemException e) {
                // ENOTDIR and ENAMETOOLONG are "not found" without a line, as nginx has them
                String reason = e.getReason();
                if (reason == null || !reason.contains("Not a directory") && !reason.contains("name too long")) {
                    CoreOutput.log(r, LogLevel.CRIT, 0, "stat() \"" + name + "\" failed (" + reason + ")");
                }
                return null;
            } catch (IOException | UnsupportedOperationException e) {
                CoreOutput.log(r, LogLevel.CRIT, 0, "stat() \"" + name + "\" failed (" + e.getMessage() + ")");
                return null;
            }
        }
    }

    private static String varValue(HttpRequest r, int index) {
        String v = r.variable(index);
        return v == null ? "" : v;
    }

    /**
     * Compiles the condition of an {@code if} directive: nginx's {@code ngx_http_rewrite_if_condition()}.
     *
     * @param cf the directive, {@code if (...)}
     * @return the condition
     * @throws ConfException with nginx's words ({@code invalid condition "x"}, {@code unexpected "x" in condition})
     */
    static Condition compile(ConfContext cf) throws ConfException {
        List<String> value = new ArrayList<>(cf.args());
        int last = value.size() - 1;
        String first = value.get(1);
        if (first.isEmpty() || first.charAt(0) != '(') {
            throw invalid(first);
        }
        int cur = 1;
        if (first.length() == 1) {
            cur = 2;
        } else {
            value.set(1, first.substring(1));
        }
        String end = value.get(last);
        if (end.isEmpty() || end.charAt(end.length() - 1) != ')') {
            throw invalid(end);
        }
        if (end.length() == 1) {
            last--;
        } else {
            value.set(last, end.substring(0, end.length() - 1));
        }
        if (cur > last) {
            throw invalid(value.get(Math.min(cur, value.size() - 1)));
        }
        String p = value.get(cur);
        if (p.length() > 1 && p.charAt(0) == '$') {
            if (cur != last && cur + 2 != last) {
                throw invalid(p);
            }
            int index = HttpDirectives.variableIndex(cf, p.substring(1));
            if (cur == last) {
                return new VariableTrue(index);
            }
            String op = value.get(cur + 1);
            String arg = value.get(last);
            switch (op) {
                case "=", "!=" -> {
                    return new Equal(index, HttpDirectives.compile(cf, arg), op.length() == 2);
                }
                case "~", "~*", "!~", "!~*" -> {
                    HttpRegex regex = HttpCoreModule.compileRegex(cf, arg, op.endsWith("*"));
                    return new Match(index, regex, op.charAt(0) == '!');
                }
                default -> throw new ConfException("unexpected \"" + op + "\" in condition");
            }
        }
        boolean file = p.length() == 2 && p.charAt(0) == '-' || p.length() == 3 && p.startsWith("!-");
        if (file) {
            if (cur + 1 != last) {
                throw invalid(p);
            }
            char op = p.charAt(p.length() - 1);
            if ("fdex".indexOf(op) < 0) {
                throw invalid(p);
            }
            return new FileTest(HttpDirectives.compile(cf, value.get(last)), op, p.charAt(0) == '!');
        }
        throw invalid(p);
    }

    private static ConfException invalid(String word) {
        return new ConfException("invalid condition \"" + word + "\"");
    }
}
