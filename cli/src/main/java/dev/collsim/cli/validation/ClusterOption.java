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
 * The {@code -c} value of compare and calibrate: a catalog host type with an optional host count
 * ({@code dgx-h100x2} or {@code dgx-h100:2}; hosts joined by one non-blocking leaf switch per NIC rail), or
 * anything the topology module's {@code ClusterLoader} reads (a YAML cluster file, nvidia-smi or NCCL XML
 * topology, a shipped config name).
 */
final class ClusterOption {

    private ClusterOption() {
    }

    static ClusterGuess resolve(String value, Dataset d) throws dev.collsim.io.InputException {
        java.util.regex.Matcher spec = java.util.regex.Pattern.compile("^(.+?)(?:x(\\d+)|:(\\d+))$").matcher(value);
        String[] parts = spec.matches() && Catalog.hostType(spec.group(1)).isPresent()
                ? new String[] {spec.group(1), spec.group(2) != null ? spec.group(2) : spec.group(3)} : new String[] {value};
        if (Catalog.hostType(parts[0]).isEmpty()) {
            if (!java.nio.file.Files.exists(java.nio.file.Path.of(value))
                    && !dev.collsim.topology.io.ClusterLoader.configNames().contains(value)) {
                throw new UserError("unknown cluster '" + value + "'; allowed: a cluster file, a shipped config ("
                        + String.join(", ", dev.collsim.topology.io.ClusterLoader.configNames())
                        + ") or a catalog name (" + String.join(", ", Catalog.names())
                        + ") with an optional host count, e.g. dgx-h100x2", ExitCodes.USAGE);
            }
            return fromTopology(dev.collsim.topology.io.ClusterLoader.load(value), value, d);
        }
        HostType type = Catalog.hostType(parts[0]).orElseThrow();
        int hosts;
        try {
            hosts = parts.length > 1 ? Integer.parseInt(parts[1]) : Math.max(1, d.nHosts());
        } catch (NumberFormatException e) {
            throw new UserError("-c " + value + ": host count '" + parts[1] + "' is not a number", ExitCodes.USAGE);
        }
        if (hosts < 1) {
            throw new UserError("-c " + value + ": host count must be at least 1", ExitCodes.USAGE);
        }
        // the one resolution path of every command's -c (rail-optimized fabric for N > 1 hosts)
        Topology topo = dev.collsim.topology.io.ClusterLoader.shorthand(type.name() + "x" + hosts).orElseThrow().build();
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

    /** Ranks on a loaded cluster: the first nRanks/hosts GPUs of each of the first hosts. */
    private static ClusterGuess fromTopology(Topology topo, String value, Dataset d) {
        int hosts = d.nHosts() > 0 ? d.nHosts() : topo.hostCount();
        if (hosts > topo.hostCount()) {
            throw new UserError(d.id() + " ran on " + hosts + " hosts; cluster " + value + " has "
                    + topo.hostCount(), ExitCodes.USAGE);
        }
        int perHost = (int) Math.ceil(d.nRanks() / (double) hosts);
        List<Gpu> ranks = new ArrayList<>();
        for (int h = 0; h < topo.hostCount() && ranks.size() < d.nRanks(); h++) {
            List<Gpu> g = topo.gpusOf(h);
            for (int i = 0; i < Math.min(perHost, g.size()) && ranks.size() < d.nRanks(); i++) {
                ranks.add(g.get(i));
            }
        }
        if (ranks.size() < d.nRanks()) {
            throw new UserError(d.id() + " has " + d.nRanks() + " ranks; cluster " + value + " offers "
                    + ranks.size() + " in " + hosts + " hosts", ExitCodes.USAGE);
        }
        return new ClusterGuess(topo, ranks, value + " (-c)", List.of());
    }
}
