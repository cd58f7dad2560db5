package jinx.kernel.os;

/**
 * What {@link Files#fstat} reports of a {@code struct stat}.
 *
 * @param size {@code st_size}: bytes
 * @param mtimeSec {@code st_mtim.tv_sec}: last modification, seconds since the epoch
 * @param mtimeNsec {@code st_mtim.tv_nsec}: its nanoseconds
 * @param mode {@code st_mode}: file type and permissions
 * @param ino {@code st_ino}: the inode (nginx's open file cache compares it)
 * @param dev {@code st_dev}: the device
 */
public record FileStat(long size, long mtimeSec, long mtimeNsec, int mode, long ino, long dev) {

    /**
     * Returns whether this is a directory.
     *
     * @return {@code S_ISDIR(st_mode)}
     */
    public boolean isDirectory() {
        return (mode & Platform.S_IFMT) == Platform.S_IFDIR;
    }

    /**
     * Returns whether this is a regular file.
     *
     * @return {@code S_ISREG(st_mode)}
     */
    public boolean isRegular() {
        return (mode & Platform.S_IFMT) == Platform.S_IFREG;
    }

    /**
     * Returns the modification time in milliseconds since the epoch.
     *
     * @return the time
     */
    public long mtimeMillis() {
        return mtimeSec * 1000 + mtimeNsec / 1_000_000;
    }
}
