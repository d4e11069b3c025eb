package dev.collsim.sweep.spec;

import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The parts of a cluster that the cost model prices, counted on the topology as collsim builds it (topology-model
 * {@code FabricBuilder}: compute NICs cabled to leaves, one cable per leaf-spine pair). Immutable.
 *
 * @param gpus        GPUs
 * @param gpuModels   GPUs per model, by the model's name in the GPU database ({@code GpuModels}, e.g. {@code H100
 *                    SXM}); a GPU the database does not know keeps the name the cluster gives it
 * @param nicPorts    compute NIC ports cabled to the fabric (NICs with a network link)
 * @param switchPorts switch ports in use: one per cable end at a switch
 * @param cables      network cables: NIC-switch and switch-switch (a topology holds each cable as two directed
 *                    links)
 */
public record BillOfMaterials(int gpus, Map<String, Integer> gpuModels, int nicPorts, int switchPorts, int cables) {

    /** No parts (a design that could not be built). */
    public static final BillOfMaterials EMPTY = new BillOfMaterials(0, Map.of(), 0, 0, 0);

    /** Copies the map, sorted. */
    public BillOfMaterials {
        gpuModels = Collections.unmodifiableMap(new TreeMap<>(gpuModels));
    }

    /**
     * @param t a cluster
     * @return its parts
     */
    public static BillOfMaterials of(Topology t) {
        int nicPorts = 0;
        int switchEnds = 0;
        int directed = 0;
        for (Nic n : t.devices(Nic.class)) {
            if (t.outgoing(n).stream().anyMatch(l -> l.type() == LinkType.NET)) {
                nicPorts++;
            }
        }
        for (Link l : t.graph().edgeSet()) {
            if (l.type() != LinkType.NET) {
                continue;
            }
            directed += l.count();
            Device to = t.target(l);
            if (to instanceof NetSwitch) {
                switchEnds += l.count();
            }
        }
        Map<String, Integer> models = new TreeMap<>();
        for (Gpu g : t.gpus()) {
            models.merge(GpuModels.byName(g.model()).map(GpuModel::name).orElse(g.model()), 1, Integer::sum);
        }
        return new BillOfMaterials(t.gpus().size(), models, nicPorts, switchEnds, directed / 2);
    }
}
