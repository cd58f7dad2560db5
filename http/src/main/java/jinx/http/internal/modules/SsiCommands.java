package jinx.http.internal.modules;

import java.util.List;
import java.util.Map;

import jinx.http.HttpRequest;
import jinx.kernel.Rc;

/**
 * SSI's commands, nginx's {@code ngx_http_ssi_commands[]} and their handlers: the table is data (parameters, their
 * indexes, which are mandatory; where a command may stand), and {@link #run} checks a parsed command against it
 * with nginx's error texts before calling its handler.
 */
final class SsiCommands {

    /** nginx's {@code NGX_HTTP_SSI_MAX_PARAMS}. */
    static final int MAX_PARAMS = 16;

    /** A handler: returns {@link Rc#OK}, {@link SsiFilter#SSI_ERROR}, or AGAIN/DONE/ERROR to stop the filter. */
    @FunctionalInterface
    private interface Handler {
        int run(HttpRequest r, SsiFilter ctx, String[] params);
    }

    /** A parameter: its name, its index in the handler's array, and whether it must be there. */
    private record Param(String name, int index, boolean mandatory) {
    }

    /** nginx's {@code ngx_http_ssi_command_t}. */
    private record Command(Handler handler, List<Param> params, int conditional, boolean block, boolean flush) {
    }

    private static final Map<String, Command> COMMANDS = Map.of(
        "include", new Command(SsiInclude::include, List.of(new Param("virtual", SsiInclude.VIRTUAL, false),
            new Param("file", SsiInclude.FILE, false), new Param("wait", SsiInclude.WAIT, false),
            new Param("set", SsiInclude.SET, false), new Param("stub", SsiInclude.STUB, false)), 0, false, true),
        "echo", new Command(SsiCommands::echo, List.of(new Param("var", 0, true), new Param("default", 1, false),
            new Param("encoding", 2, false)), 0, false, false),
        "config", new Command(SsiCommands::config, List.of(new Param("errmsg", 0, false),
            new Param("timefmt", 1, false)), 0, false, false),
        "set", new Command(SsiCommands::set, List.of(new Param("var", 0, true), new Param("value", 1, true)), 0,
            false, false),
        "if", new Command(SsiIf::ifCommand, List.of(new Param("expr", 0, true)), 0, false, false),
        "elif", new Command(SsiIf::ifCommand, List.of(new Param("expr", 0, true)), SsiFilter.COND_IF, false, false),
        "else", new Command(SsiIf::elseCommand, List.of(), SsiFilter.COND_IF, false, false),
        "endif", new Command(SsiIf::endif, List.of(), SsiFilter.COND_ELSE, false, false),
        "block", new Command(SsiCommands::block, List.of(new Param("name", 0, true)), 0, false, false),
        "endblock", new Command(SsiCommands::endblock, List.of(), 0, true, false));

    private SsiCommands() {
    }

    /**
     * Runs the command the parser ended, the checks of {@code ngx_http_ssi_body_filter()} first.
     *
     * @param r the request
     * @param ctx its SSI state
     * @return {@link Rc#OK}, {@link SsiFilter#SSI_ERROR}, or a result that stops the filter
     */
    static int run(HttpRequest r, SsiFilter ctx) {
        SsiParser p = ctx.parser;
        String name = p.command;
        Command cmd = COMMANDS.get(name);
        if (cmd == null) {
            if (ctx.output) {
                ctx.log("invalid SSI command: \"" + name + "\"");
                return SsiFilter.SSI_ERROR;
            }
            return Rc.OK;
        }
        if (!ctx.output && !cmd.block) {
            if (ctx.block) {
                keepInBlock(ctx, name, p.params);
                return Rc.OK;
            }
            if (cmd.conditional == 0) {
                return Rc.OK;
            }
        }
        if (cmd.conditional != 0 && (ctx.conditional == 0 || ctx.conditional > cmd.conditional)) {
            ctx.log("invalid context of SSI command: \"" + name + "\"");
            return SsiFilter.SSI_ERROR;
        }
        if (p.params.size() > MAX_PARAMS) {
            ctx.log("too many SSI command parameters: \"" + name + "\"");
            return SsiFilter.SSI_ERROR;
        }
        String[] params = new String[MAX_PARAMS + 1];
        for (SsiParser.Param given : p.params) {
            Param prm = find(cmd, given.key());
            if (prm == null) {
                ctx.log("invalid parameter name: \"" + given.key() + "\" in \"" + name + "\" SSI command");
                return SsiFilter.SSI_ERROR;
            }
            if (params[prm.index] != null) {
                ctx.log("duplicate \"" + given.key() + "\" parameter in \"" + name + "\" SSI command");
                return SsiFilter.SSI_ERROR;
            }
            params[prm.index] = given.value();
        }
        for (Param prm : cmd.params) {
            if (prm.mandatory && params[prm.index] == null) {
                ctx.log("mandatory \"" + prm.name + "\" parameter is absent in \"" + name + "\" SSI command");
                return SsiFilter.SSI_ERROR;
            }
        }
        if (cmd.flush && ctx.hasOutput() && ctx.output(r) == Rc.ERROR) {
            return Rc.ERROR;
        }
        return cmd.handler.run(r, ctx, params);
    }

    private static Param find(Command cmd, String key) {
        for (Param prm : cmd.params) {
            if (prm.name.equals(key)) {
                return prm;
            }
        }
        return null;
    }

    /** A command inside a {@code block} is kept as text, written again as nginx writes it. */
    private static void keepInBlock(SsiFilter ctx, String name, List<SsiParser.Param> params) {
        StringBuilder b = new StringBuilder("<!--#").append(name);
        for (SsiParser.Param prm : params) {
            b.append(' ').append(prm.key()).append("=\"").append(prm.value()).append('"');
        }
        b.append(" -->");
        ctx.shared.blocks.get(ctx.shared.blocks.size() - 1).content.write(b.toString());
    }

    /** nginx's {@code ngx_http_ssi_get_variable()}: a capture digit, then the document's variables. */
    static String ssiVariable(SsiFilter ctx, String name) {
        if (name.length() == 1 && name.charAt(0) >= '0' && name.charAt(0) <= '9') {
            int i = name.charAt(0) - '0';
            if (i < ctx.shared.captures.length) {
                return ctx.shared.captures[i];
            }
        }
        return ctx.shared.variables.get(name);
    }

    /** A document variable, else the request's variable of that name; null when neither is found. */
    static String variable(HttpRequest r, SsiFilter ctx, String name) {
        String v = ssiVariable(ctx, name);
        if (v != null) {
            return v;
        }
        return ctx.variables.get(r, name);
    }

    /** nginx's {@code ngx_http_ssi_echo()}. */
    private static int echo(HttpRequest r, SsiFilter ctx, String[] params) {
        String value = variable(r, ctx, CoreOutput.lowerAscii(params[0]));
        if (value == null) {
            value = params[1] == null ? "(none)" : params[1];
        }
        if (value.isEmpty()) {
            return Rc.OK;
        }
        String enc = params[2];
        if (enc != null) {
            switch (enc) {
                case "none" -> ctx.encoding = SsiFilter.NO_ENCODING;
                case "url" -> ctx.encoding = SsiFilter.URL_ENCODING;
                case "entity" -> ctx.encoding = SsiFilter.ENTITY_ENCODING;
                default -> ctx.log("unknown encoding \"" + enc + "\" in the \"echo\" command");
            }
        }
        ctx.emit(switch (ctx.encoding) {
            case SsiFilter.URL_ENCODING -> escapeHtmlUri(value);
            case SsiFilter.ENTITY_ENCODING -> AutoindexPage.escapeHtml(value);
            default -> value;
        });
        return Rc.OK;
    }

    /**
     * nginx's {@code ngx_escape_uri(..., NGX_ESCAPE_HTML)} as Debian's nginx 1.22 answers: controls, space,
     * {@code " # % ' < > \ ^ ` { | }} and 0x7f up, as {@code %XX}.
     */
    static String escapeHtmlUri(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c >= 0x7f || "\"#%'<>\\^`{|}".indexOf(c) >= 0) {
                b.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4 & 0xf, 16)))
                    .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** nginx's {@code ngx_http_ssi_config()}. */
    private static int config(HttpRequest r, SsiFilter ctx, String[] params) {
        if (params[1] != null) {
            ctx.timefmt = params[1];
        }
        if (params[0] != null) {
            ctx.errmsg = params[0];
        }
        return Rc.OK;
    }

    /** nginx's {@code ngx_http_ssi_set()}. */
    private static int set(HttpRequest r, SsiFilter ctx, String[] params) {
        String value = SsiIf.evaluate(r, ctx, params[1], false);
        if (value == null) {
            return SsiFilter.SSI_ERROR;
        }
        ctx.shared.variables.put(CoreOutput.lowerAscii(params[0]), value);
        return Rc.OK;
    }

    /** nginx's {@code ngx_http_ssi_block()}. */
    private static int block(HttpRequest r, SsiFilter ctx, String[] params) {
        ctx.shared.blocks.add(new SsiFilter.Block(params[0]));
        ctx.output = false;
        ctx.block = true;
        return Rc.OK;
    }

    /** nginx's {@code ngx_http_ssi_endblock()}. */
    private static int endblock(HttpRequest r, SsiFilter ctx, String[] params) {
        ctx.output = true;
        ctx.block = false;
        return Rc.OK;
    }
}
