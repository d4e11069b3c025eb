package dev.collsim.cli.validation;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.validation.compare.ClusterGuess;
import dev.collsim.validation.ingest.Dataset;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code -c} value of compare and calibrate: a catalog host type with an optional host count,
 * {@code NAME[:HOSTS]} (e.g. {@code dgx-h100:2}). Hosts are joined by one non-blocking leaf switch per NIC rail.
 * (YAML cluster files are read once the topology module's cluster loader is available.)
 */
final class ClusterOption {

    private ClusterOption() {
    }

    static ClusterGuess resolve(String value, Dataset d) {
        String[] parts = value.split(":");
        HostType type = Catalog.hostType(parts[0]).orElseThrow(() -> new UserError("unknown cluster '" + parts[0]
                + "'; allowed catalog names: " + String.join(", ", Catalog.names())
                + " (optionally with :HOSTS, e.g. dgx-h100:2)", ExitCodes.USAGE));
        int hosts;
        try {
            hosts = parts.length > 1 ? Integer.parseInt(parts[1]) : Math.max(1, d.nHosts());
        } catch (NumberFormatException e) {
            throw new UserError("-c " + value + ": host count '" + parts[1] + "' is not a number", ExitCodes.USAGE);
        }
        Topology topo = dev.collsim.validation.compare.ClusterGuesser.buildCatalog(type, hosts);
        int perHost = (int) Math.ceil(d.nRanks() / (double) hosts);
        if (perHost > type.gpusPerHost()) {
            throw new UserError(d.id() + " has " + d.nRanks() + " ranks, more than " + hosts + " x "
                    + type.gpusPerHost() + " GPUs of -c " + value, ExitCodes.USAGE);
        }
        List<Gpu> ranks = new ArrayList<>();
        for (int h = 0; h < hosts && ranks.size() < d.nRanks(); h++) {
            for (Gpu g : topo.gpusOf(h)) {
                if (ranks.size() < d.nRanks() && ranks.stream().filter(x -> x.host() == g.host()).count() < perHost) {
                    ranks.add(g);
                }
            }
        }
        return new ClusterGuess(topo, ranks, "catalog:" + type.name() + " (-c " + value + ")", List.of());
    }
}
