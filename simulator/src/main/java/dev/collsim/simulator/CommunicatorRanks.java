package dev.collsim.simulator;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.List;
import java.util.Locale;

/** The check that a communicator's ranks are GPUs of its topology ({@link PreparedCommunicator#prepare}). */
final class CommunicatorRanks {

    private CommunicatorRanks() {
    }

    /**
     * Every rank must be one of the topology's GPUs, compared by value (devices are records): a GPU of a separately
     * built copy of the same cluster is one, and the channel search treats it as the topology's own; a GPU of another
     * cluster, or one that differs in any field, would be searched with no links and is refused.
     *
     * @throws InvalidRequestException naming the first rank that is not a GPU of the topology
     */
    static void check(Topology topology, List<Gpu> ranks) {
        if (ranks == topology.gpus()) {
            return;
        }
        boolean described = topology.hostTemplate().isPresent();
        for (int i = 0; i < ranks.size(); i++) {
            Gpu g = ranks.get(i);
            boolean own = described ? g.host() >= 0 && g.host() < topology.hostCount() && ownLocal(topology, g)
                    : topology.device(g.id()).filter(g::equals).isPresent();
            if (!own) {
                List<Gpu> all = topology.gpus();
                throw new InvalidRequestException(String.format(Locale.ROOT, "rank %d: GPU %s (host %d, index %d,"
                        + " %s) is not a GPU of cluster %s; allowed: the cluster's own GPUs (%s)", i, g.id(),
                        g.host(), g.index(), g.model(), topology.name(), all.isEmpty() ? "it has none"
                        : all.get(0).id() + " to " + all.get(all.size() - 1).id()));
            }
        }
    }

    /** A described cluster's GPUs of a host are made on demand: look at the one of the same local index first. */
    private static boolean ownLocal(Topology topology, Gpu g) {
        List<Gpu> host = topology.gpusOf(g.host());
        return g.index() >= 0 && g.index() < host.size() && host.get(g.index()).equals(g) || host.contains(g);
    }
}
