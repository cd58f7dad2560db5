package jinx.proxy.upstream;

import java.net.InetAddress;
import java.util.List;
import java.util.function.Consumer;

import jinx.kernel.Event;

/**
 * One lookup of a {@link Resolver}: nginx's {@code ngx_resolver_ctx_t}. Its handler runs once, with
 * {@link #state()} 0 and the addresses (IPv4 first, each family in an order rotated at random per answer, as
 * nginx's {@code ngx_resolver_export()}), or with the error. {@link #cancel} ends it early
 * ({@code ngx_resolve_name_done()}).
 */
public final class Resolution {

    /** The state while the lookup runs (nginx's {@code NGX_AGAIN}). */
    public static final int PENDING = -2;

    private final String name;
    private final Consumer<Resolution> handler;
    private int state = PENDING;
    private List<InetAddress> addresses = List.of();
    /** The CNAMEs followed so far (nginx's {@code ctx->recursion}). */
    int recursion;
    /** The lookup's timeout ({@code resolver_timeout}). */
    final Event timer = new Event();
    /** The name being queried for it (a CNAME's target after one), and the loop state that queries it. */
    String querying;
    ResolverLoop owner;
    boolean done;

    Resolution(String name, Consumer<Resolution> handler) {
        this.name = name;
        this.handler = handler;
        this.querying = name;
    }

    /**
     * The name asked for.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The outcome: 0, {@link #PENDING}, or one of {@link Resolver}'s error states.
     *
     * @return the state
     */
    public int state() {
        return state;
    }

    /**
     * The addresses found, when {@link #state()} is 0.
     *
     * @return the addresses
     */
    public List<InetAddress> addresses() {
        return addresses;
    }

    /**
     * The failure as nginx logs it: {@code example.com could not be resolved (3: Host not found)}.
     *
     * @return the text
     */
    public String failure() {
        return name + " could not be resolved (" + state + ": " + Resolver.strerror(state) + ")";
    }

    /**
     * Ends the lookup: its timer goes, and a query in flight that nobody else waits for is dropped. Safe to call
     * more than once, and after the handler ran.
     */
    public void cancel() {
        if (done) {
            return;
        }
        done = true;
        if (owner != null) {
            owner.cancel(this);
        }
    }

    /** Sets the outcome and runs the handler (nginx: {@code ctx->state = ...; ctx->handler(ctx)}). */
    void finish(int outcome, List<InetAddress> found) {
        state = outcome;
        addresses = found;
        if (owner != null) {
            owner.stopTimer(this);
        }
        handler.accept(this);
    }
}
