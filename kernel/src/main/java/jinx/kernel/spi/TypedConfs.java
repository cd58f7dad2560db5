package jinx.kernel.spi;

import java.util.Objects;

/**
 * The conf objects of the modules of one type, indexed by their type index: what a block such as
 * {@code events {}} makes (nginx's {@code ngx_event_ctx} array hung from the owner's {@code conf_ctx} slot). The
 * core module that owns the block returns a fresh one from {@link CoreModule#createConf}; {@link TypedBlock}
 * fills it.
 */
public final class TypedConfs {

    private final ModuleType type;
    private Object[] confs;

    /**
     * An empty set of confs for the modules of {@code type}.
     *
     * @param type the type of the modules inside the block
     */
    public TypedConfs(ModuleType type) {
        this.type = Objects.requireNonNull(type, "type");
    }

    /**
     * Returns the type of the modules inside the block.
     *
     * @return the type
     */
    public ModuleType type() {
        return type;
    }

    /**
     * Tells whether the block has been parsed.
     *
     * @return true once the confs exist
     */
    public boolean isSet() {
        return confs != null;
    }

    /**
     * Returns the conf object of the module with type index {@code typeIndex}, or null.
     *
     * @param typeIndex the module's type index
     * @return the conf object, or null
     */
    public Object get(int typeIndex) {
        if (confs == null || typeIndex >= confs.length) {
            return null;
        }
        return confs[typeIndex];
    }

    void set(Object[] created) {
        confs = created;
    }
}
