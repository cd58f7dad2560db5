package jinx.kernel.os;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link Processes#spawn(SpawnSpec)} starts: a worker JVM, a new master on USR2, or any program. Immutable;
 * the {@code with} methods return a copy. The signal sets are the caller's and must stay open until
 * {@code spawn} returns.
 *
 * @param program the program; searched in the parent's {@code PATH} when it has no slash ({@code posix_spawnp})
 * @param argv the arguments, {@code argv[0]} included (usually the program's name)
 * @param env the environment as {@code NAME=value} strings, or null to pass this process's own ({@code environ})
 * @param dup2s descriptors to place at fixed numbers in the child, in order; a source may be another's target
 *     (the spawn routes them through free numbers then)
 * @param closeFrom -1 to close nothing; else every descriptor from this number up is closed in the child except
 *     the {@code dup2s} targets ({@code posix_spawn_file_actions_addclosefrom_np}, or a close-on-exec sweep of
 *     this process's descriptors where libc lacks it)
 * @param sigmask the child's signal mask ({@code POSIX_SPAWN_SETSIGMASK}), or null to inherit the calling
 *     thread's
 * @param sigdefault signals reset to their default action in the child ({@code POSIX_SPAWN_SETSIGDEF}; ignored
 *     signals otherwise stay ignored across exec), or null
 * @param setsid whether the child starts a new session ({@code POSIX_SPAWN_SETSID}, glibc 2.26)
 * @param pgroup -1 to stay in this process group, 0 for a new group led by the child, or a group to join
 *     ({@code POSIX_SPAWN_SETPGROUP})
 */
public record SpawnSpec(String program, List<String> argv, List<String> env, List<Dup2> dup2s, int closeFrom,
                        SigSet sigmask, SigSet sigdefault, boolean setsid, int pgroup) {

    /**
     * A descriptor of this process placed at a number in the child ({@code adddup2}); the child's copy is not
     * close-on-exec, even when {@code fd == target} (glibc 2.29 clears the flag then).
     *
     * @param fd the descriptor here
     * @param target its number in the child
     */
    public record Dup2(int fd, int target) {

        /**
         * Validates.
         *
         * @param fd the descriptor here
         * @param target its number in the child
         */
        public Dup2 {
            if (fd < 0 || target < 0) {
                throw new IllegalArgumentException("dup2 " + fd + " to " + target);
            }
        }
    }

    /**
     * Validates and copies the lists.
     *
     * @param program the program
     * @param argv the arguments, argv[0] included
     * @param env the environment, or null
     * @param dup2s the descriptors to place
     * @param closeFrom -1, or the lowest descriptor to close, at least 3
     * @param sigmask the mask, or null
     * @param sigdefault the signals to reset, or null
     * @param setsid whether to start a session
     * @param pgroup -1, 0 or a group
     */
    public SpawnSpec {
        if (program.isEmpty() || argv.isEmpty()) {
            throw new IllegalArgumentException("no program or no argv[0]");
        }
        if (closeFrom < -1 || closeFrom >= 0 && closeFrom < 3) {
            throw new IllegalArgumentException("closeFrom " + closeFrom + ": -1 or at least 3 (stdio stays)");
        }
        if (setsid && Platform.POSIX_SPAWN_SETSID == 0) {
            throw new UnsupportedOperationException("POSIX_SPAWN_SETSID: this libc's headers lack it");
        }
        argv = List.copyOf(argv);
        env = env == null ? null : List.copyOf(env);
        dup2s = List.copyOf(dup2s);
    }

    /**
     * A program with its arguments, nothing else: this process's environment, descriptors and mask.
     *
     * @param argv the program and its arguments ({@code "/bin/sh", "-c", "exit 3"}); argv[0] is the program
     * @return the spec
     */
    public static SpawnSpec command(String... argv) {
        return new SpawnSpec(argv[0], List.of(argv), null, List.of(), -1, null, null, false, -1);
    }

    /**
     * Returns a copy with another environment.
     *
     * @param newEnv {@code NAME=value} strings, or null for this process's own
     * @return the copy
     */
    public SpawnSpec withEnv(List<String> newEnv) {
        return new SpawnSpec(program, argv, newEnv, dup2s, closeFrom, sigmask, sigdefault, setsid, pgroup);
    }

    /**
     * Returns a copy that also places {@code fd} at {@code target} in the child.
     *
     * @param fd a descriptor here
     * @param target its number in the child
     * @return the copy
     */
    public SpawnSpec withDup2(int fd, int target) {
        List<Dup2> more = new ArrayList<>(dup2s);
        more.add(new Dup2(fd, target));
        return new SpawnSpec(program, argv, env, more, closeFrom, sigmask, sigdefault, setsid, pgroup);
    }

    /**
     * Returns a copy that closes every descriptor from {@code from} up in the child, but the dup2 targets.
     *
     * @param from the lowest, at least 3
     * @return the copy
     */
    public SpawnSpec withCloseFrom(int from) {
        return new SpawnSpec(program, argv, env, dup2s, from, sigmask, sigdefault, setsid, pgroup);
    }

    /**
     * Returns a copy with the child's signal mask.
     *
     * @param mask the mask, or null
     * @return the copy
     */
    public SpawnSpec withSigmask(SigSet mask) {
        return new SpawnSpec(program, argv, env, dup2s, closeFrom, mask, sigdefault, setsid, pgroup);
    }

    /**
     * Returns a copy that resets signals to their default action in the child.
     *
     * @param signals the signals, or null
     * @return the copy
     */
    public SpawnSpec withSigdefault(SigSet signals) {
        return new SpawnSpec(program, argv, env, dup2s, closeFrom, sigmask, signals, setsid, pgroup);
    }

    /**
     * Returns a copy whose child starts a new session.
     *
     * @return the copy
     */
    public SpawnSpec withSetsid() {
        return new SpawnSpec(program, argv, env, dup2s, closeFrom, sigmask, sigdefault, true, pgroup);
    }

    /**
     * Returns a copy whose child joins or leads a process group.
     *
     * @param group 0 for a new group led by the child, or a group's id
     * @return the copy
     */
    public SpawnSpec withPgroup(int group) {
        return new SpawnSpec(program, argv, env, dup2s, closeFrom, sigmask, sigdefault, setsid, group);
    }
}
