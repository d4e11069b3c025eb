package dev.collsim.validation.compare;

import dev.collsim.io.InputException;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.edit.ClusterEditor;
import dev.collsim.topology.edit.ClusterEdits;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.topology.io.ClusterSource;
import dev.collsim.units.Bandwidth;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.NetworkLog;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The NICs a run's NCCL INFO log lists ({@link NetworkLog}) applied to catalog hosts: the speed NCCL read when every
 * listed device has the same one, and the count when it is below the catalog host's compute NICs (NCCL uses only the
 * devices it lists, e.g. with {@code NCCL_IB_HCA}). Stateless.
 */
final class LogNics {

    private LogNics() {
    }

    /**
     * @param d           the dataset
     * @param type        the catalog host type
     * @param hosts       host count
     * @param assumptions where to say what was read
     * @return the hosts with the log's NICs, empty when the log changes nothing (one host, or no NIC figures)
     */
    static Optional<Topology> apply(Dataset d, HostType type, int hosts, List<String> assumptions) {
        NetworkLog net = d.log().net();
        if (hosts < 2 || net.usedDevices().isEmpty() && net.ofiNics() == 0) {
            return Optional.empty();
        }
        ClusterSource built;
        try {
            built = ClusterLoader.hosts(type, hosts);
        } catch (InputException e) {
            throw new IllegalStateException("host type " + type.name() + " must build", e);
        }
        List<Nic> nics = built.topology().devices(Nic.class).stream().filter(n -> n.host() == 0 && n.rail() >= 0)
                .toList();
        OptionalDouble gbits = net.nicGbits();
        int count = net.nicCount();
        boolean speed = gbits.isPresent() && nics.stream().anyMatch(n -> Math.abs(n.speed().gbits()
                - gbits.getAsDouble()) > 1e-6);
        boolean fewer = count > 0 && count < nics.size();
        if (!speed && !fewer) {
            return Optional.empty();
        }
        int line = net.usedDevices().isEmpty() ? 0 : net.usedDevices().get(0).line();
        assumptions.add((fewer ? count + " of the " + nics.size() + " NICs per host" : "")
                + (fewer && speed ? " at " : "") + (speed ? Math.round(gbits.getAsDouble()) + " Gb/s per NIC" : "")
                + " as the NCCL INFO log lists them" + (line > 0 ? " (line " + line + ")" : ""));
        try {
            return Optional.of(ClusterEditor.build(built.spec(), new ClusterEdits(null, null,
                    speed ? Bandwidth.ofGbits(gbits.getAsDouble()) : null, fewer ? count : null, null, null, null,
                    null)));
        } catch (InputException e) {
            throw new IllegalStateException("host type " + type.name() + " must build", e);
        }
    }
}
