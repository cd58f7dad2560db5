package jinx.contrib.echo;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import jinx.http.HttpRequest;
import jinx.http.spi.ComplexValue;
import jinx.http.spi.HttpResponses;
import jinx.kernel.Buf;
import jinx.kernel.BufChain;
import jinx.kernel.Event;
import jinx.kernel.EventLoop;
import jinx.kernel.Rc;

/**
 * One request's run through its location's echo commands: nginx's {@code ngx_http_echo_run_cmds()}. Output is
 * buffered until {@code echo_flush}, the end, or a {@code echo_sleep} that finds it waiting; the header goes out
 * with the first output. {@code echo_sleep} sets a timer and returns; the timer's handler goes on with the next
 * command. The request is kept alive across the wait ({@link HttpRequest#retain()}) and the timer deleted if the
 * request is freed first (a client that went away).
 */
final class EchoRun {

    /** {@link #run()}'s answer when a timer was set: the request goes on later. */
    private static final int SLEEPING = Integer.MIN_VALUE;

    private final HttpRequest r;
    private final List<EchoCommand> commands;
    private final Event sleep = new Event();
    private int next;
    private BufChain pending;
    private BufChain pendingTail;
    private boolean retained;

    EchoRun(HttpRequest r, List<EchoCommand> commands) {
        this.r = r;
        this.commands = commands;
        sleep.handler = ev -> resume();
        sleep.log = r.log();
        sleep.data = r.connection();
    }

    /** Runs from the CONTENT handler: its result is the handler's. */
    int start() {
        int rc = run();
        return rc == SLEEPING ? Rc.DONE : rc;
    }

    /** The timer fired: go on, and finish the request unless another sleep began. */
    private void resume() {
        int rc;
        try {
            rc = run();
        } catch (RuntimeException e) {
            r.log().alert("unexpected " + e + " in the \"echo\" module");
            rc = r.headerSent ? Rc.ERROR : 500;
        }
        if (rc != SLEEPING) {
            r.finalizeRequest(rc);
        }
    }

    private int run() {
        while (next < commands.size()) {
            EchoCommand cmd = commands.get(next++);
            int rc = switch (cmd.kind()) {
                case ECHO -> append(echo(cmd));
                case DUPLICATE -> duplicate(cmd);
                case FLUSH -> send(false);
                case SLEEP -> sleep(cmd);
                case EXEC -> exec(cmd);
            };
            if (rc != Rc.OK) {
                return rc;
            }
        }
        return send(true);
    }

    private String echo(EchoCommand cmd) {
        StringBuilder sb = new StringBuilder();
        List<ComplexValue> words = cmd.args();
        for (int i = 0; i < words.size(); i++) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(words.get(i).evaluate(r));
        }
        if (cmd.newline()) {
            sb.append('\n');
        }
        return sb.toString();
    }

    private int duplicate(EchoCommand cmd) {
        String count = cmd.args().get(0).evaluate(r);
        int n;
        try {
            n = Integer.parseInt(count);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 0) {
            r.log().error("invalid size specified: \"" + count + "\"");
            return 500;
        }
        return append(cmd.args().get(1).evaluate(r).repeat(n));
    }

    private int sleep(EchoCommand cmd) {
        String value = cmd.args().get(0).evaluate(r);
        long ms;
        try {
            ms = Math.round(Double.parseDouble(value) * 1000);
        } catch (NumberFormatException e) {
            ms = -1;
        }
        if (ms < 0 || value.isEmpty() || !Character.isDigit(value.charAt(value.length() - 1))) {
            r.log().error("invalid sleep duration \"" + value + "\"");
            return 400;
        }
        if (!retained) {
            retained = true;
            r.retain();
            EventLoop loop = r.loop();
            r.addCleanup(() -> {
                if (sleep.timerSet()) {
                    loop.deleteTimer(sleep);
                }
            });
        }
        r.loop().addTimer(sleep, ms);
        return SLEEPING;
    }

    private int exec(EchoCommand cmd) {
        if (r.headerSent) {
            r.log().error("echo_exec is used after the response header was sent");
            return Rc.ERROR;
        }
        pending = null;
        pendingTail = null;
        String uri = cmd.args().get(0).evaluate(r);
        String args = cmd.args().size() > 1 ? cmd.args().get(1).evaluate(r) : null;
        if (uri.startsWith("@")) {
            r.namedLocation(uri);
        } else {
            int q = uri.indexOf('?');
            if (q >= 0 && args == null) {
                args = uri.substring(q + 1);
                uri = uri.substring(0, q);
            }
            r.internalRedirect(uri, args);
        }
        // the redirect holds the request; what this run kept alive is released by the DONE
        return retained ? releaseAfterRedirect() : Rc.DONE;
    }

    private int releaseAfterRedirect() {
        retained = false;
        r.finalizeRequest(Rc.DONE);
        return SLEEPING;
    }

    private int append(String text) {
        if (text.isEmpty() || r.headerOnly) {
            return Rc.OK;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ByteBuffer data = ByteBuffer.allocateDirect(bytes.length);
        data.put(bytes).flip();
        BufChain link = BufChain.of(Buf.of(data));
        if (pending == null) {
            pending = link;
        } else {
            pendingTail.next = link;
        }
        pendingTail = link;
        return Rc.OK;
    }

    /** Sends the header if it is not sent, then what is buffered: flushed, or as the body's end. */
    private int send(boolean last) {
        if (!r.headerSent) {
            r.headersOut.status = 200;
            HttpResponses.setContentType(r);
            int rc = r.sendHeader();
            if (rc == Rc.ERROR || rc > Rc.OK || r.headerOnly) {
                return rc;
            }
        }
        if (r.headerOnly) {
            return Rc.OK;
        }
        Buf marker = null;
        if (pending == null) {
            marker = new Buf();
        }
        BufChain out = pending != null ? pending : BufChain.of(marker);
        Buf tail = pending != null ? pendingTail.buf : marker;
        if (last) {
            tail.last = true;
            tail.lastInChain = true;
        } else {
            tail.flush = true;
        }
        pending = null;
        pendingTail = null;
        int rc = r.outputFilter(out);
        if (rc == Rc.ERROR) {
            return Rc.ERROR;
        }
        return last ? rc : Rc.OK;
    }
}
