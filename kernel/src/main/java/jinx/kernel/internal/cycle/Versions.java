package jinx.kernel.internal.cycle;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

import jinx.kernel.spi.JinxModule;

/**
 * Versions: Jinx's own, and a module's, for {@code -V} and {@code -m}.
 */
public final class Versions {

    /** Jinx's version, from the build. */
    public static final String JINX = readJinx();

    private Versions() {
    }

    /**
     * Returns a module's version: its JPMS module version, else its jar's {@code Implementation-Version}, else
     * Jinx's own for the kernel's modules, else {@code "-"}.
     *
     * @param module the module
     * @return the version
     */
    public static String of(JinxModule module) {
        Class<?> type = module.getClass();
        java.lang.Module jpms = type.getModule();
        if (jpms.getDescriptor() != null && jpms.getDescriptor().rawVersion().isPresent()) {
            return jpms.getDescriptor().rawVersion().get();
        }
        String impl = type.getPackage() == null ? null : type.getPackage().getImplementationVersion();
        if (impl != null) {
            return impl;
        }
        return type.getName().startsWith("jinx.kernel.") ? JINX : "-";
    }

    private static String readJinx() {
        Properties p = new Properties();
        try (InputStream in = Versions.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // a build without the resource still runs; it just cannot say its version
        }
        return p.getProperty("version", "unknown");
    }
}
