package jinx.stream.spi;

import java.util.function.Consumer;

import jinx.kernel.ConfException;
import jinx.kernel.spi.ConfContext;
import jinx.stream.StreamPhase;
import jinx.stream.StreamSession;

/**
 * The {@code stream {}} block as a module's hooks and directive handlers see it: nginx's
 * {@code ngx_stream_core_main_conf_t} with its phases and variables.
 */
public interface StreamConfig {

    /**
     * Adds a handler to a phase (from {@code postconfiguration}); handlers of one phase run in module order.
     *
     * @param phase the phase, not {@link StreamPhase#CONTENT} (a server's content handler is
     *     {@link #contentHandler})
     * @param handler the handler
     */
    void addPhaseHandler(StreamPhase phase, StreamPhaseHandler handler);

    /**
     * Adds a variable (from {@code preconfiguration}).
     *
     * @param name the name without {@code $}
     * @param getter how it gets its value
     * @throws ConfException {@code duplicate variable "x"}
     */
    void addVariable(String name, StreamVariable getter) throws ConfException;

    /**
     * Returns the getter of a variable, for a directive that compiles {@code $name} (nginx's
     * {@code ngx_stream_get_variable_index()}: an unknown name is an error once the block is parsed).
     *
     * @param name the name without {@code $}
     * @return the getter, which looks the variable up when first called
     */
    StreamVariable variable(String name);

    /**
     * Adds a parameter of {@code listen} (from {@code preconfiguration}): a {@code listen} naming it calls
     * {@code handler} in its server's context, and the sessions it accepts answer
     * {@link StreamSession#listenParameter} with true. nginx's {@code ngx_stream_core_listen()} knows {@code ssl}
     * only with {@code ngx_stream_ssl_module} built in: here the TLS module adds it. Added in SPI 1.6.
     *
     * @param name the parameter ({@code ssl})
     * @param handler what the {@code listen} line does besides, e.g. remember its file and line
     */
    void addListenParameter(String name, ListenParameter handler);

    /**
     * What a {@code listen} naming a module's parameter does in the module. Added in SPI 1.6.
     */
    @FunctionalInterface
    interface ListenParameter {

        /**
         * Called for a {@code listen} line that names the parameter.
         *
         * @param cf the {@code listen} directive's context (its server's scope, file and line)
         * @throws ConfException with nginx's words
         */
        void set(ConfContext cf) throws ConfException;
    }

    /**
     * Returns the block's configuration from a directive's context.
     *
     * @param cf the directive's context
     * @return the block's configuration
     */
    static StreamConfig of(ConfContext cf) {
        return scope(cf).config();
    }

    /**
     * Sets the content handler of the server a directive stands in (nginx's {@code cscf->handler}, which
     * {@code proxy_pass} and {@code return} set).
     *
     * @param cf the directive's context, inside {@code server {}}
     * @param handler the handler
     */
    static void contentHandler(ConfContext cf, Consumer<StreamSession> handler) {
        scope(cf).contentHandler(handler);
    }

    private static StreamScope scope(ConfContext cf) {
        if (cf.scope() instanceof StreamScope s) {
            return s;
        }
        throw new IllegalStateException("\"" + cf.name() + "\" is not inside a stream block");
    }
}
