package jinx.kernel.os;

/**
 * A child's state change as {@code waitpid(2)} reports it, decoded as glibc's {@code W*} macros decode it.
 *
 * <p>The layout is the Linux ABI (the kernel builds it in {@code kernel/exit.c}; glibc decodes it in
 * {@code bits/waitstatus.h}): an exit is {@code code << 8}; a death by signal is the signal in the low 7 bits,
 * plus {@code 0x80} when a core was dumped; a stop is {@code signal << 8 | 0x7f}; a continue is {@code 0xffff}.
 * {@code PlatformTest} checks this decoding against the C macros on the probe's samples, and the process tests
 * against real children.
 *
 * @param pid the child
 * @param status the raw status
 */
public record WaitStatus(int pid, int status) {

    /**
     * {@code WIFEXITED}: the child called {@code exit}.
     *
     * @return whether it exited
     */
    public boolean exited() {
        return termSig() == 0;
    }

    /**
     * {@code WEXITSTATUS}: the exit code, when {@link #exited()}.
     *
     * @return 0 to 255
     */
    public int exitCode() {
        return (status & 0xff00) >> 8;
    }

    /**
     * {@code WIFSIGNALED}: a signal ended the child.
     *
     * @return whether a signal killed it
     */
    public boolean signaled() {
        return ((byte) ((status & 0x7f) + 1) >> 1) > 0;
    }

    /**
     * {@code WTERMSIG}: the signal that ended the child, when {@link #signaled()}.
     *
     * @return the signal
     */
    public int termSig() {
        return status & 0x7f;
    }

    /**
     * {@code WCOREDUMP}: the child dumped core, when {@link #signaled()}.
     *
     * @return whether a core was dumped
     */
    public boolean coreDumped() {
        return (status & 0x80) != 0;
    }

    /**
     * {@code WIFSTOPPED}: the child was stopped (only reported with {@code WUNTRACED}).
     *
     * @return whether it stopped
     */
    public boolean stopped() {
        return (status & 0xff) == 0x7f;
    }

    /**
     * {@code WSTOPSIG}: the signal that stopped the child, when {@link #stopped()}.
     *
     * @return the signal
     */
    public int stopSig() {
        return exitCode();
    }

    /**
     * {@code WIFCONTINUED}: the child was continued (only reported with {@code WCONTINUED}).
     *
     * @return whether it continued
     */
    public boolean continued() {
        return status == 0xffff;
    }

    /**
     * Words the end of a child as nginx's {@code ngx_process_get_status()} does: {@code worker process 12 exited
     * on signal 9}, {@code ... exited on signal 11 (core dumped)}, {@code ... exited with code 2}.
     *
     * @param process what the child was ({@code "worker process"})
     * @return the text
     */
    public String describe(String process) {
        if (termSig() != 0) {
            return process + " " + pid + " exited on signal " + termSig() + (coreDumped() ? " (core dumped)" : "");
        }
        return process + " " + pid + " exited with code " + exitCode();
    }
}
