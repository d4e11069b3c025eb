package dev.collsim.topology;

import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.Objects;

/**
 * A directed edge of the topology graph: one direction of a physical link (or of a bundle of identical
 * parallel lanes counted by {@code count}). Each link carries a unique id, because JGraphT silently ignores an
 * edge equal to one already present.
 *
 * @param id        unique id, e.g. {@code h0/gpu0>h0/nvs0#0}
 * @param type      link type
 * @param count     number of lanes bundled (NVLinks for NVLINK, lanes for PCIe, 1 otherwise), >= 1
 * @param bandwidth total bandwidth of this direction (all lanes), > 0
 * @param latency   one-way latency
 * @param detail    generation text, e.g. {@code NVLink4}, {@code PCIe Gen5 x16}, {@code UPI}, {@code IB NDR}
 * @param ncclBandwidth the bandwidth NCCL assigns to this direction (nccl-model.md section 5.2, NCCL 2.30
 *                  {@code src/graph/topo.h}), e.g. 18 x 20.6 GB/s for 18 NVLink4 links of an sm90 GPU; see
 *                  {@link NcclBandwidths}. Null means "same as {@code bandwidth}".
 */
public record Link(String id, LinkType type, int count, Bandwidth bandwidth, Latency latency, String detail,
        Bandwidth ncclBandwidth) {

    /**
     * A link whose NCCL bandwidth equals its physical bandwidth.
     *
     * @throws IllegalArgumentException on a count below 1 or a zero bandwidth
     */
    public Link(String id, LinkType type, int count, Bandwidth bandwidth, Latency latency, String detail) {
        this(id, type, count, bandwidth, latency, detail, null);
    }

    /** @throws IllegalArgumentException on a count below 1 or a zero physical or NCCL bandwidth */
    public Link {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(bandwidth, "bandwidth");
        latency = latency == null ? Latency.ZERO : latency;
        detail = detail == null ? "" : detail;
        if (count < 1) {
            throw new IllegalArgumentException("link " + id + ": count must be >= 1, got " + count);
        }
        if (bandwidth.gbps() <= 0) {
            throw new IllegalArgumentException("link " + id + ": bandwidth must be > 0 GB/s");
        }
        ncclBandwidth = ncclBandwidth == null ? bandwidth : ncclBandwidth;
        if (ncclBandwidth.gbps() <= 0) {
            throw new IllegalArgumentException("link " + id + ": NCCL bandwidth must be > 0 GB/s");
        }
    }
}
