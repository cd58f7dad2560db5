/**
 * The Jinx kernel: the module system, the configuration language, cycles, the error log, the command line and
 * the OS bindings.
 */
module jinx.kernel {
    requires org.jnrproject.ffi;
    requires org.jnrproject.jffi;
    requires org.jnrproject.constants;
    requires org.slf4j;
    // sun.misc.Unsafe: native memory read and written without JNI on Java 17 to 21 (NativeMemory, MemoryAccess)
    requires jdk.unsupported;
    // the warm-up watches the JIT compiler (CompilationMXBean)
    requires java.management;

    exports jinx.kernel;
    exports jinx.kernel.spi;
    // jnr-ffi generates the binding implementations outside this module, so the binding package must be open to
    // everybody; it is not API (see its package-info).
    exports jinx.kernel.os;

    uses jinx.kernel.spi.JinxModule;

    provides jinx.kernel.spi.JinxModule with
        jinx.kernel.internal.core.MainCoreModule,
        jinx.kernel.internal.core.ErrlogCoreModule,
        jinx.kernel.internal.core.IncludeConfModule,
        jinx.kernel.internal.event.EventsCoreModule,
        jinx.kernel.internal.event.EventCoreModule;
}
