package jinx.http.internal.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import jinx.http.spi.BodyFilter;
import jinx.http.spi.HeaderFilter;

/**
 * Builds the filter chains from links that are each a class of their own. A chain built of one class (a lambda
 * {@code r -> f.filter(r, rest)}) has one call site for every filter: the JIT sees it call all of them, dispatches
 * through the interface table at every link and inlines none. A hidden class defined from {@link HeaderLink}'s
 * or {@link BodyLink}'s bytes per link gives each link its own call site, which sees one filter, so a request's
 * trip down the chain compiles to direct calls. The classes are not strongly bound to the loader: a chain a reload
 * replaced is unloaded with its links.
 */
final class FilterLinks {

    private static final MethodType HEADER = MethodType.methodType(void.class, HeaderFilter.class,
        HeaderFilter.Next.class);
    private static final MethodType BODY = MethodType.methodType(void.class, BodyFilter.class, BodyFilter.Next.class);

    private FilterLinks() {
    }

    /**
     * Returns a link that runs {@code f}, then {@code next}.
     *
     * @param f the filter
     * @param next the rest of the chain
     * @return the link, an instance of a class of its own
     */
    static HeaderFilter.Next header(HeaderFilter f, HeaderFilter.Next next) {
        try {
            return (HeaderFilter.Next) constructor(HeaderLink.class, HEADER).invoke(f, next);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot define a header filter link", e);
        }
    }

    /**
     * Returns a link that runs {@code f}, then {@code next}.
     *
     * @param f the filter
     * @param next the rest of the chain
     * @return the link, an instance of a class of its own
     */
    static BodyFilter.Next body(BodyFilter f, BodyFilter.Next next) {
        try {
            return (BodyFilter.Next) constructor(BodyLink.class, BODY).invoke(f, next);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot define a body filter link", e);
        }
    }

    private static MethodHandle constructor(Class<?> template, MethodType type) throws ReflectiveOperationException {
        MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(bytes(template), true);
        return hidden.findConstructor(hidden.lookupClass(), type);
    }

    private static byte[] bytes(Class<?> template) {
        String name = template.getSimpleName() + ".class";
        try (InputStream in = template.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("no class file " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
