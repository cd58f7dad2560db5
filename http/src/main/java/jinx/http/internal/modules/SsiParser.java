package jinx.http.internal.modules;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The SSI command parser, nginx's {@code ngx_http_ssi_parse()}: it walks a response body byte by byte, across
 * buffer boundaries, passing text through to a {@link Sink} and stopping at the end of each
 * {@code <!--#command param="value" ... -->}. The limits are nginx's: a command name of 32 bytes, a parameter
 * name of 32 bytes, a value of {@code ssi_value_length} bytes; an overlong or malformed command is logged as nginx
 * logs it and skipped up to its {@code -->}, and the filter writes the error message in its place.
 *
 * <p>Text is given to the sink as it is scanned; the bytes of a {@code <!--} that may start a command are held
 * back until the next byte tells, so a command split between two buffers is found, and held bytes that turn out
 * to be text are given to the sink then.
 */
final class SsiParser {

    /** nginx's {@code NGX_HTTP_SSI_COMMAND_LEN}. */
    static final int COMMAND_LEN = 32;
    /** nginx's {@code NGX_HTTP_SSI_PARAM_LEN}. */
    static final int PARAM_LEN = 32;

    /** {@link #parse} ended a command: {@link #command} and {@link #params} hold it. */
    static final int COMMAND = 0;
    /** {@link #parse} ended a malformed command: the error was logged. */
    static final int ERROR = 1;
    /** {@link #parse} used the whole buffer. */
    static final int AGAIN = 2;

    private static final byte[] OPEN = {'<', '!', '-', '-'};

    /** Where text goes and errors are logged. */
    interface Sink {

        /**
         * Takes text that is not part of a command.
         *
         * @param b the bytes
         * @param off the first
         * @param len how many
         */
        void text(byte[] b, int off, int len);

        /**
         * Logs a parse error at {@code error}.
         *
         * @param message nginx's words
         */
        void error(String message);
    }

    /** One parameter as written, its value unescaped of its quotes. */
    record Param(String key, String value) {
    }

    private enum State {
        START, TAG, COMMENT0, COMMENT1, SHARP, PRECOMMAND, COMMAND, PREPARAM, PARAM, PREEQUAL, PREVALUE,
        DOUBLE_QUOTED_VALUE, QUOTED_VALUE, QUOTED_SYMBOL, POSTPARAM, COMMENT_END0, COMMENT_END1, ERROR, ERROR_END0,
        ERROR_END1
    }

    private final int valueLen;
    private State state = State.START;
    private State savedState;
    /** How many bytes of {@code <!--} are held back. */
    private int looked;
    private final StringBuilder name = new StringBuilder(COMMAND_LEN);
    private final StringBuilder key = new StringBuilder(PARAM_LEN);
    private final StringBuilder value = new StringBuilder();
    private final byte[] chunk = new byte[4096];

    /** The command just parsed, lower case as written. */
    String command;
    /** Its parameters, in order. */
    final List<Param> params = new ArrayList<>();

    SsiParser(int valueLen) {
        this.valueLen = valueLen;
    }

    /** Tells whether a command is being parsed (or {@code <!--} bytes are held back). */
    boolean inCommand() {
        return state != State.START;
    }

    /**
     * Parses from the buffer's position until a command ends or the buffer is used up; the position moves past
     * what was parsed.
     *
     * @param in the body bytes
     * @param sink where text goes
     * @return {@link #COMMAND}, {@link #ERROR} or {@link #AGAIN}
     */
    int parse(ByteBuffer in, Sink sink) {
        while (in.hasRemaining()) {
            if (state == State.START) {
                text(in, sink);
                continue;
            }
            byte ch = in.get();
            int rc = step(ch, sink);
            if (rc != AGAIN) {
                return rc;
            }
        }
        return AGAIN;
    }

    /** The tight loop: text up to a {@code <}, given to the sink in chunks. */
    private void text(ByteBuffer in, Sink sink) {
        int n = 0;
        while (in.hasRemaining()) {
            byte ch = in.get();
            if (ch == '<') {
                state = State.TAG;
                looked = 1;
                break;
            }
            chunk[n++] = ch;
            if (n == chunk.length) {
                sink.text(chunk, 0, n);
                n = 0;
            }
        }
        if (n > 0) {
            sink.text(chunk, 0, n);
        }
    }

    /** Held {@code <!--} bytes turn out to be text; {@code ch} is looked at again. */
    private int notACommand(byte ch, Sink sink) {
        sink.text(OPEN, 0, looked);
        looked = 0;
        if (ch == '<') {
            state = State.TAG;
            looked = 1;
            return AGAIN;
        }
        state = State.START;
        chunk[0] = ch;
        sink.text(chunk, 0, 1);
        return AGAIN;
    }

    private int step(byte ch, Sink sink) {
        switch (state) {
            case TAG:
                if (ch != '!') {
                    return notACommand(ch, sink);
                }
                looked = 2;
                state = State.COMMENT0;
                return AGAIN;
            case COMMENT0:
                if (ch != '-') {
                    return notACommand(ch, sink);
                }
                looked = 3;
                state = State.COMMENT1;
                return AGAIN;
            case COMMENT1:
                if (ch != '-') {
                    return notACommand(ch, sink);
                }
                looked = 4;
                state = State.SHARP;
                return AGAIN;
            case SHARP:
                if (ch != '#') {
                    return notACommand(ch, sink);
                }
                looked = 0;
                state = State.PRECOMMAND;
                return AGAIN;
            case PRECOMMAND:
                if (!space(ch)) {
                    name.setLength(0);
                    name.append((char) (ch & 0xff));
                    params.clear();
                    state = State.COMMAND;
                }
                return AGAIN;
            case COMMAND:
                if (space(ch)) {
                    state = State.PREPARAM;
                } else if (ch == '-') {
                    state = State.COMMENT_END0;
                } else if (name.length() == COMMAND_LEN) {
                    sink.error("the \"" + name + (char) (ch & 0xff) + "...\" SSI command is too long");
                    state = State.ERROR;
                } else {
                    name.append((char) (ch & 0xff));
                }
                return AGAIN;
            case PREPARAM:
                if (ch == '-') {
                    state = State.COMMENT_END0;
                } else if (!space(ch)) {
                    key.setLength(0);
                    key.append((char) (ch & 0xff));
                    value.setLength(0);
                    state = State.PARAM;
                }
                return AGAIN;
            case PARAM:
                return param(ch, sink);
            case PREEQUAL:
                if (ch == '=') {
                    state = State.PREVALUE;
                } else if (!space(ch)) {
                    state = ch == '-' ? State.ERROR_END0 : State.ERROR;
                    sink.error("unexpected \"" + (char) (ch & 0xff) + "\" symbol after \"" + key + "\" parameter in \""
                               + name + "\" SSI command");
                }
                return AGAIN;
            case PREVALUE:
                if (ch == '"') {
                    state = State.DOUBLE_QUOTED_VALUE;
                } else if (ch == '\'') {
                    state = State.QUOTED_VALUE;
                } else if (!space(ch)) {
                    state = ch == '-' ? State.ERROR_END0 : State.ERROR;
                    sink.error("unexpected \"" + (char) (ch & 0xff) + "\" symbol before value of \"" + key
                               + "\" parameter in \"" + name + "\" SSI command");
                }
                return AGAIN;
            case DOUBLE_QUOTED_VALUE:
            case QUOTED_VALUE:
                return quoted(ch, sink);
            case QUOTED_SYMBOL:
                state = savedState;
                return valueByte(ch, sink);
            case POSTPARAM:
                params.add(new Param(key.toString(), value.toString()));
                if (space(ch)) {
                    state = State.PREPARAM;
                } else if (ch == '-') {
                    state = State.COMMENT_END0;
                } else {
                    sink.error("unexpected \"" + (char) (ch & 0xff) + "\" symbol after \"" + value + "\" value of \""
                               + key + "\" parameter in \"" + name + "\" SSI command");
                    state = State.ERROR;
                }
                return AGAIN;
            case COMMENT_END0:
                if (ch == '-') {
                    state = State.COMMENT_END1;
                } else {
                    unexpected(ch, sink);
                }
                return AGAIN;
            case COMMENT_END1:
                if (ch == '>') {
                    state = State.START;
                    command = name.toString();
                    return COMMAND;
                }
                unexpected(ch, sink);
                return AGAIN;
            case ERROR:
                if (ch == '-') {
                    state = State.ERROR_END0;
                }
                return AGAIN;
            case ERROR_END0:
                state = ch == '-' ? State.ERROR_END1 : State.ERROR;
                return AGAIN;
            case ERROR_END1:
                if (ch == '>') {
                    state = State.START;
                    return ERROR;
                }
                state = State.ERROR;
                return AGAIN;
            default:
                throw new IllegalStateException(state.name());
        }
    }

    private int param(byte ch, Sink sink) {
        if (space(ch)) {
            state = State.PREEQUAL;
        } else if (ch == '=') {
            state = State.PREVALUE;
        } else if (ch == '-') {
            state = State.ERROR_END0;
            key.append('-');
            sink.error("invalid \"" + key + "\" parameter in \"" + name + "\" SSI command");
        } else if (key.length() == PARAM_LEN) {
            state = State.ERROR;
            sink.error("too long \"" + key + (char) (ch & 0xff) + "...\" parameter in \"" + name + "\" SSI command");
        } else {
            key.append((char) (ch & 0xff));
        }
        return AGAIN;
    }

    private int quoted(byte ch, Sink sink) {
        char close = state == State.DOUBLE_QUOTED_VALUE ? '"' : '\'';
        if (ch == close) {
            state = State.POSTPARAM;
            return AGAIN;
        }
        if (ch == '\\') {
            // kept: the backslash is dropped only when the value is evaluated
            savedState = state;
            state = State.QUOTED_SYMBOL;
        }
        return valueByte(ch, sink);
    }

    private int valueByte(byte ch, Sink sink) {
        if (value.length() == valueLen) {
            sink.error("too long \"" + value + (char) (ch & 0xff) + "...\" value of \"" + key + "\" parameter in \""
                       + name + "\" SSI command");
            state = State.ERROR;
            return AGAIN;
        }
        value.append((char) (ch & 0xff));
        return AGAIN;
    }

    private void unexpected(byte ch, Sink sink) {
        sink.error("unexpected \"" + (char) (ch & 0xff) + "\" symbol in \"" + name + "\" SSI command");
        state = State.ERROR;
    }

    private static boolean space(byte ch) {
        return ch == ' ' || ch == '\r' || ch == '\n' || ch == '\t';
    }
}
