package dev.collsim.validation.compare;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.List;

/**
 * The cluster a comparison runs on, and what was assumed to get it.
 *
 * @param topology    the cluster
 * @param ranks       the GPUs in rank order
 * @param source      where it came from (a catalog host type, or the user's file)
 * @param assumptions plain-words assumptions, empty when nothing was guessed
 */
public record ClusterGuess(Topology topology, List<Gpu> ranks, String source, List<String> assumptions) {

    /** Copies. */
    public ClusterGuess {
        ranks = List.copyOf(ranks);
        assumptions = List.copyOf(assumptions);
    }
}
