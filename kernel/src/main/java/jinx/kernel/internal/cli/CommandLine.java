package jinx.kernel.internal.cli;

/**
 * The options of the {@code jinx} command, parsed as nginx's {@code ngx_get_options()} parses them: flags may
 * be grouped ({@code -tq}), a value may follow its flag directly ({@code -cfile}) or as the next word.
 */
final class CommandLine {

    boolean help;
    boolean version;
    boolean versionFull;
    boolean test;
    boolean dump;
    boolean quiet;
    boolean modules;
    boolean directives;
    /** The word after {@code -l}: list only this module's directives, or this directive. */
    String directivesOf;
    String signal;
    String prefix;
    String conf;
    String errorLog;
    String params;

    private CommandLine() {
    }

    /**
     * Parses the arguments.
     *
     * @param args the arguments
     * @return the options
     * @throws IllegalArgumentException with nginx's message ({@code invalid option: "x"})
     */
    static CommandLine parse(String[] args) {
        CommandLine cl = new CommandLine();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.length() < 2 || arg.charAt(0) != '-') {
                throw new IllegalArgumentException("invalid option: \"" + arg + "\"");
            }
            for (int p = 1; p < arg.length(); p++) {
                char flag = arg.charAt(p);
                if (cl.flag(flag)) {
                    // "-l hello": a word after -l that is no option names what to list
                    if (flag == 'l' && p == arg.length() - 1 && i + 1 < args.length && !args[i + 1].startsWith("-")) {
                        cl.directivesOf = args[++i];
                    }
                    continue;
                }
                String value = arg.length() > p + 1 ? arg.substring(p + 1) : (++i < args.length ? args[i] : null);
                cl.value(flag, value);
                break;
            }
        }
        return cl;
    }

    private boolean flag(char flag) {
        switch (flag) {
            case '?', 'h' -> {
                version = true;
                help = true;
            }
            case 'v' -> version = true;
            case 'V' -> {
                version = true;
                versionFull = true;
            }
            case 't' -> test = true;
            case 'T' -> {
                test = true;
                dump = true;
            }
            case 'q' -> quiet = true;
            case 'm' -> modules = true;
            case 'l' -> directives = true;
            case 'p', 'c', 'e', 'g', 's' -> {
                return false;
            }
            default -> throw new IllegalArgumentException("invalid option: \"" + flag + "\"");
        }
        return true;
    }

    private void value(char flag, String value) {
        switch (flag) {
            case 'p' -> prefix = required(value, "option \"-p\" requires directory name");
            case 'c' -> conf = required(value, "option \"-c\" requires file name");
            case 'e' -> errorLog = required(value, "option \"-e\" requires file name");
            case 'g' -> params = required(value, "option \"-g\" requires parameter");
            default -> {
                signal = required(value, "option \"-s\" requires parameter");
                if (!Signaller.SIGNALS.containsKey(signal)) {
                    throw new IllegalArgumentException("invalid option: \"-s " + signal + "\"");
                }
            }
        }
    }

    private static String required(String value, String message) {
        if (value == null) {
            throw new IllegalArgumentException(message);
        }
        return value;
    }
}
