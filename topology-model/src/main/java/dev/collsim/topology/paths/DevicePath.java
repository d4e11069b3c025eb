package dev.collsim.topology.paths;

import dev.collsim.topology.Device;
import dev.collsim.topology.Link;
import dev.collsim.topology.PathType;
import dev.collsim.units.Bandwidth;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The path NCCL would use from one device to another, with its hops and bottleneck bandwidth in both views. For a
 * path that ends or starts at a NIC, the bottleneck also includes the NIC's port speed, because NCCL's path ends at
 * the NET node behind the NIC (NCCL 2.30 {@code src/graph/paths.cc}). This record is immutable.
 *
 * @param from      source device
 * @param to        destination device
 * @param type      NCCL path type
 * @param hops      hops from source to destination (empty for LOC and DIS)
 * @param physical  bottleneck of the datasheet bandwidths, GB/s per direction (LOC: 5000, DIS: 0)
 * @param nccl      bottleneck of NCCL's bandwidths, GB/s per direction (LOC: 5000, DIS: 0)
 * @param smiLabel  the {@code nvidia-smi topo -m} label (X, NV#, PIX, PXB, PHB, NODE, SYS), or empty when nvidia-smi
 *                  shows none (devices of different hosts)
 */
public record DevicePath(Device from, Device to, PathType type, List<Hop> hops, Bandwidth physical, Bandwidth nccl,
        String smiLabel) {

    /** Copies the hop list. */
    public DevicePath {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(physical, "physical");
        Objects.requireNonNull(nccl, "nccl");
        hops = List.copyOf(hops);
        smiLabel = smiLabel == null ? "" : smiLabel;
    }

    /** @param view which bandwidth; @return the bottleneck bandwidth in that view, GB/s per direction */
    public Bandwidth bandwidth(BandwidthView view) {
        return view == BandwidthView.PHYSICAL ? physical : nccl;
    }

    /** @return number of hops (NCCL's path {@code count}) */
    public int hopCount() {
        return hops.size();
    }

    /** @return every directed link crossed, in order (all parallel links of a hop, in the hop's order) */
    public List<Link> links() {
        List<Link> out = new ArrayList<>();
        for (Hop h : hops) {
            out.addAll(h.links());
        }
        return out;
    }

    /** @return a copy with another smi label */
    DevicePath withLabel(String label) {
        return new DevicePath(from, to, type, hops, physical, nccl, label);
    }
}
