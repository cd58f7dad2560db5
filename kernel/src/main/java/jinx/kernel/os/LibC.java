package jinx.kernel.os;

/**
 * The C library calls the kernel makes, mirroring their C prototypes. Called only through {@link Syscalls}.
 */
public interface LibC {

    /**
     * {@code int kill(pid_t pid, int sig);}
     *
     * @param pid the process
     * @param sig the signal
     * @return 0, or -1 with errno set
     */
    int kill(int pid, int sig);

    /**
     * {@code uid_t geteuid(void);}
     *
     * @return the effective user id
     */
    int geteuid();

    /**
     * {@code char *strerror(int errnum);}
     *
     * @param errnum the error number
     * @return its text
     */
    String strerror(int errnum);
}
