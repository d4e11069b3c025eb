package dev.collsim.topology;

import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jgrapht.Graph;

/**
 * A topology's graph and its id index, either given or built on first use (at most once, thread-safe), for a
 * {@link Topology#described} cluster whose hosts are built in full only when something asks for every device.
 */
final class GraphParts {

    /** The built parts: read-only graph and device id -> device. */
    record Built(Graph<Device, Link> graph, Map<String, Device> byId) {
    }

    private Supplier<Built> builder;
    private volatile Built built;
    /** Builds some hosts only (a described cluster), or null. */
    private final Function<int[], Topology> partial;

    private GraphParts(Built built, Supplier<Built> builder, Function<int[], Topology> partial) {
        this.built = built;
        this.builder = builder;
        this.partial = partial;
    }

    /** @return parts that exist already */
    static GraphParts of(Graph<Device, Link> graph, Map<String, Device> byId) {
        return new GraphParts(new Built(graph, byId), null, null);
    }

    /**
     * @param builder builds the parts on first {@link #get()}
     * @param partial builds only the given hosts ({@link #hostsOnly})
     * @return lazy parts
     */
    static GraphParts lazy(Supplier<Built> builder, Function<int[], Topology> partial) {
        return new GraphParts(null, Objects.requireNonNull(builder, "builder"), Objects.requireNonNull(partial,
                "partial"));
    }

    /** @param hosts host indices; @return a topology of those hosts only, or null when the parts are built */
    Topology hostsOnly(int[] hosts) {
        return partial == null || built() ? null : partial.apply(hosts);
    }

    /** @return true when the parts exist */
    boolean built() {
        return built != null;
    }

    /** @return the parts, built now if not yet (an exception of the builder leaves them unbuilt) */
    Built get() {
        Built b = built;
        if (b != null) {
            return b;
        }
        synchronized (this) {
            if (built == null) {
                built = builder.get();
                builder = null;
            }
            return built;
        }
    }
}
