package jinx.kernel.internal.cycle;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The binary format of a {@link ConfSnapshot}, big-endian through {@link DataOutputStream}; no Java serialization.
 *
 * <pre>
 * int    magic 0x4A4E5853 ("JNXS")
 * int    format version (2)
 * str    Jinx version
 * str    prefix;  str conf file;  nstr -g params;  nstr -e error log
 * int n, n x { str path; bytes content }                        files, in the order read
 * int n, n x { str pattern; int m, m x str match }              globs, in the order expanded
 * int n, n x { str path; str cached; str sha256 }               load_module jars, in the order loaded
 * int n, n x { str address; str bound; bool reuseport; int worker }   listening sockets, in order
 * bool   resolved present, then
 *        int worker_processes; nstr user; nstr group; int uid; int gid;
 *        int n, n x { int words, words x long }                 worker_cpu_affinity masks (BitSet.toLongArray)
 * int n, n x str path                                          the files the master opened, in order (version 2)
 * int    magic again: the end, so a truncated snapshot is never taken for a whole one
 *
 * str = int length, UTF-8 bytes; nstr = str, or length -1 for null; bytes = int length, bytes
 * </pre>
 */
final class SnapshotCodec {

    /** "JNXS". */
    static final int MAGIC = 0x4A4E5853;

    /** The format version; a reader refuses any other. */
    static final int VERSION = 2;

    /** More entries than this in one list is damage, not a configuration. */
    private static final int MAX_ENTRIES = 1 << 24;

    /** nginx's CPU_SETSIZE, 1024 CPUs, is 16 words; leave room. */
    private static final int MAX_MASK_WORDS = 1024;

    private SnapshotCodec() {
    }

    static void write(ConfSnapshot s, OutputStream os) throws IOException {
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(os));
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        writeString(out, s.jinxVersion());
        writeString(out, s.prefix().toString());
        writeString(out, s.confFile().toString());
        writeString(out, s.params());
        writeString(out, s.errorLog());
        out.writeInt(s.files().size());
        for (KernelCycle.ConfFile f : s.files()) {
            writeString(out, f.path().toString());
            writeBytes(out, f.content());
        }
        out.writeInt(s.globs().size());
        for (ConfSnapshot.Glob g : s.globs()) {
            writeString(out, g.pattern().toString());
            out.writeInt(g.matches().size());
            for (Path p : g.matches()) {
                writeString(out, p.toString());
            }
        }
        out.writeInt(s.jars().size());
        for (ConfSnapshot.ModuleJar j : s.jars()) {
            writeString(out, j.path().toString());
            writeString(out, j.cached().toString());
            writeString(out, j.sha256());
        }
        out.writeInt(s.listening().size());
        for (ConfSnapshot.ListenSocket ls : s.listening()) {
            writeString(out, ls.address());
            writeString(out, ls.bound());
            out.writeBoolean(ls.reuseport());
            out.writeInt(ls.worker());
        }
        writeResolved(out, s.resolved());
        out.writeInt(s.openFiles().size());
        for (Path p : s.openFiles()) {
            writeString(out, p.toString());
        }
        out.writeInt(MAGIC);
        out.flush();
    }

    private static void writeResolved(DataOutputStream out, ConfSnapshot.Resolved r) throws IOException {
        out.writeBoolean(r != null);
        if (r == null) {
            return;
        }
        out.writeInt(r.workerProcesses());
        writeString(out, r.user());
        writeString(out, r.group());
        out.writeInt(r.uid());
        out.writeInt(r.gid());
        out.writeInt(r.cpuAffinity().size());
        for (BitSet mask : r.cpuAffinity()) {
            long[] words = mask.toLongArray();
            out.writeInt(words.length);
            for (long w : words) {
                out.writeLong(w);
            }
        }
    }

    static ConfSnapshot read(InputStream is) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(is));
        try {
            if (in.readInt() != MAGIC) {
                throw new IOException("not a configuration snapshot");
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw new IOException("configuration snapshot format " + version + ", expected " + VERSION);
            }
            ConfSnapshot s = readBody(in);
            if (in.readInt() != MAGIC) {
                throw new IOException("damaged configuration snapshot: no end mark");
            }
            return s;
        } catch (EOFException e) {
            throw new IOException("truncated configuration snapshot", e);
        }
    }

    private static ConfSnapshot readBody(DataInputStream in) throws IOException {
        String jinx = required(in);
        Path prefix = readPath(in);
        Path conf = readPath(in);
        String params = readString(in);
        String errorLog = readString(in);
        List<KernelCycle.ConfFile> files = new ArrayList<>();
        for (int i = count(in); i > 0; i--) {
            files.add(new KernelCycle.ConfFile(readPath(in), readBytes(in)));
        }
        List<ConfSnapshot.Glob> globs = new ArrayList<>();
        for (int i = count(in); i > 0; i--) {
            Path pattern = readPath(in);
            List<Path> matches = new ArrayList<>();
            for (int m = count(in); m > 0; m--) {
                matches.add(readPath(in));
            }
            globs.add(new ConfSnapshot.Glob(pattern, matches));
        }
        List<ConfSnapshot.ModuleJar> jars = new ArrayList<>();
        for (int i = count(in); i > 0; i--) {
            jars.add(new ConfSnapshot.ModuleJar(readPath(in), readPath(in), required(in)));
        }
        List<ConfSnapshot.ListenSocket> listening = new ArrayList<>();
        for (int i = count(in); i > 0; i--) {
            listening.add(new ConfSnapshot.ListenSocket(required(in), required(in), in.readBoolean(),
                in.readInt()));
        }
        ConfSnapshot.Resolved resolved = readResolved(in);
        List<Path> openFiles = new ArrayList<>();
        for (int i = count(in); i > 0; i--) {
            openFiles.add(readPath(in));
        }
        return new ConfSnapshot(jinx, prefix, conf, params, errorLog, files, globs, jars, listening, resolved,
            openFiles);
    }

    private static ConfSnapshot.Resolved readResolved(DataInputStream in) throws IOException {
        if (!in.readBoolean()) {
            return null;
        }
        int workers = in.readInt();
        String user = readString(in);
        String group = readString(in);
        int uid = in.readInt();
        int gid = in.readInt();
        List<BitSet> masks = new ArrayList<>();
        for (int i = count(in); i > 0; i--) {
            int n = count(in);
            if (n > MAX_MASK_WORDS) {
                throw new IOException("damaged configuration snapshot: a CPU mask of " + n + " words");
            }
            long[] words = new long[n];
            for (int w = 0; w < words.length; w++) {
                words[w] = in.readLong();
            }
            masks.add(BitSet.valueOf(words));
        }
        return new ConfSnapshot.Resolved(workers, user, group, uid, gid, masks);
    }

    private static int count(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_ENTRIES) {
            throw new IOException("damaged configuration snapshot: " + n + " entries");
        }
        return n;
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        writeBytes(out, s.getBytes(StandardCharsets.UTF_8));
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readString(DataInputStream in) throws IOException {
        int n = in.readInt();
        return n == -1 ? null : new String(readBytes(in, n), StandardCharsets.UTF_8);
    }

    private static String required(DataInputStream in) throws IOException {
        String s = readString(in);
        if (s == null) {
            throw new IOException("damaged configuration snapshot: a missing name");
        }
        return s;
    }

    private static Path readPath(DataInputStream in) throws IOException {
        String name = required(in);
        try {
            return Path.of(name);
        } catch (InvalidPathException e) {
            throw new IOException("damaged configuration snapshot: " + e.getMessage(), e);
        }
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        return readBytes(in, in.readInt());
    }

    /** Read in pieces: a damaged length meets the end of the stream, not an array of gigabytes. */
    private static byte[] readBytes(DataInputStream in, int n) throws IOException {
        if (n < 0) {
            throw new IOException("damaged configuration snapshot: length " + n);
        }
        byte[] b = in.readNBytes(n);
        if (b.length != n) {
            throw new EOFException();
        }
        return b;
    }
}
