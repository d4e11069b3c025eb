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
import dev.collsim.validation.ingest.HeaderNics;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The compute NICs a data file's header states, applied to catalog hosts ({@link HeaderNics}):
 * <ul>
 *   <li>a count with a speed equal to the catalog host's compute NIC count ({@code 8x 200 Gbps NICs} on the DGX H100
 *       layout of 8 NICs at 400 Gb/s, GCP A3 Mega): the stated speed;</li>
 *   <li>a count below the catalog's ({@code 4x ConnectX-7 InfiniBand} on an 8-GPU HGX host whose catalog type has 8):
 *       only that many NICs, the first by rail (as {@code nics-per-host} cables them), with the stated speed when the
 *       same figure gives one. NCCL's rings and trees cross the network through the NICs it finds
 *       ({@code src/graph/search.cc}), so 4 NICs carry half of what 8 carry;</li>
 *   <li>a count of the NICs a Kubernetes pod is given ({@link HeaderNics#podCount}: "one NIC per worker Pod", "each
 *       pod's claim gives 2 GPUs and 2 RDMA NICs") wins over the node's ("A3 Ultra: 8x 400 Gb/s CX-7 per node"): NCCL
 *       in the pod sees only the claimed NICs. The first by rail are kept, NIC 0 the one beside GPU 0, where a one-GPU
 *       pod's rank runs;</li>
 *   <li>a count above the catalog's leaves the catalog's NICs: such a figure may count ports or virtual functions
 *       ({@code 16x 100Gb RoCE RDMA VFs}).</li>
 * </ul>
 * Stateless.
 */
final class CatalogNics {

    private CatalogNics() {
    }

    /**
     * @param d           the dataset
     * @param type        the catalog host type
     * @param hosts       host count
     * @param assumptions where to say what was read
     * @return the hosts, with the header's NICs where it states a count this class applies
     */
    static Topology apply(Dataset d, HostType type, int hosts, List<String> assumptions) {
        ClusterSource built;
        try {
            built = ClusterLoader.hosts(type, hosts);
        } catch (InputException e) {
            throw new IllegalStateException("host type " + type.name() + " must build", e);
        }
        String interconnect = d.header().text("interconnect");
        Optional<double[]> stated = HeaderNics.countAndGbits(interconnect);
        OptionalInt pod = HeaderNics.podCount(interconnect + "; " + d.header().text("hardware"));
        OptionalInt count = pod.isPresent() ? pod : stated.map(s -> OptionalInt.of((int) s[0]))
                .orElseGet(() -> HeaderNics.deviceCount(interconnect + " " + d.header().text("hardware")));
        if (hosts < 2 || count.isEmpty()) {
            return built.topology();
        }
        List<Nic> nics = built.topology().devices(Nic.class).stream().filter(n -> n.host() == 0 && n.rail() >= 0)
                .toList();
        Double gbits = stated.map(s -> s[1]).orElse(null);
        boolean speed = gbits != null && nics.stream().anyMatch(n -> Math.abs(n.speed().gbits() - gbits) > 1e-6);
        boolean fewer = count.getAsInt() < nics.size();
        if (count.getAsInt() > nics.size() || !speed && !fewer) {
            return built.topology();
        }
        assumptions.add((fewer ? count.getAsInt() + " of the " + nics.size() + " NICs per host" : nics.size()
                + " NICs per host, as in the catalog,") + (speed ? " at " + Math.round(gbits) + " Gb/s" : "")
                + " read from the header" + (fewer && pod.isPresent() ? " (the NICs each pod is given)" : ""));
        try {
            return ClusterEditor.build(built.spec(), new ClusterEdits(null, null, speed ? Bandwidth.ofGbits(gbits)
                    : null, fewer ? count.getAsInt() : null, null, null, null, null));
        } catch (InputException e) {
            throw new IllegalStateException("host type " + type.name() + " must build", e);
        }
    }
}
