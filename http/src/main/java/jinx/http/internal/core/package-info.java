/**
 * The HTTP core's configuration: the {@code http {}} block (module {@code http}), the directives of
 * {@code http_core} ({@code server}, {@code location}, {@code listen}, {@code server_name}, {@code root},
 * {@code types} ...) and their conf classes {@link jinx.http.internal.core.HttpCoreMainConf},
 * {@link jinx.http.internal.core.HttpCoreSrvConf} and {@link jinx.http.internal.core.HttpCoreLocConf}; merging;
 * the static location tree and the lookups the request engine uses at run time
 * ({@link jinx.http.internal.core.Locations}, {@link jinx.http.internal.core.Servers}); the phase engine and the
 * filter chains; the listening sockets. Follows nginx's {@code src/http/ngx_http.c}, {@code ngx_http_config.h}
 * and the configuration half of {@code ngx_http_core_module.c}.
 *
 * <h2>Regular expressions</h2>
 * nginx's regexes are PCRE; Jinx runs them with {@link java.util.regex}. {@link jinx.http.internal.core.HttpRegex}
 * translates what Java spells differently ({@code (?P<name>...)}, {@code (?P=name)}, {@code \k{name}},
 * {@code \g{-1}}, {@code [[:alpha:]]}, {@code \N}, a bare {@code [} inside a class, {@code (?#...)} ...) and refuses,
 * with the file and line, what Java cannot run (recursion {@code (?R)}, {@code (?1)}, {@code (?&name)},
 * conditionals, branch reset {@code (?|}, backtracking verbs {@code (*SKIP)}, {@code \K}, the ungreedy flag
 * {@code (?U)}, callouts). Named groups become plain numbered groups for Java, so PCRE names such as
 * {@code file_name} work. At run time a match reads its subject through a counting {@link java.lang.CharSequence}:
 * beyond {@link jinx.http.internal.core.HttpRegex#STEP_BUDGET} character reads (or a stack overflow inside
 * the regex engine) the match is abandoned and reported as an error, as PCRE's match limit does; the request
 * then ends with 500 and an error log line, and the loop thread never hangs on a crafted URI.
 */
package jinx.http.internal.core;
