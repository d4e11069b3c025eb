package dev.collsim.simulator.perf;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What one network transport class ({@link dev.collsim.topology.NetworkClass}) costs between nodes, relative to
 * InfiniBand, the class the rest of the model and NCCL's own latency tables were made for. This record is immutable.
 *
 * <ul>
 *   <li>{@code stepUs}: fixed cost of one network send of NCCL's proxy for Simple ({@link NetTransport}); on
 *       InfiniBand this is {@link PerformanceParameters#netStepUs}.</li>
 *   <li>{@code hopLatencyUs}: one-way latency the transport adds to each network hop on the critical path of a call
 *       (every protocol), on top of NCCL's NET hardware latency ({@code hwLat[NET]}, NCCL 2.30.7
 *       {@code src/graph/tuning.cc}, InfiniBand figures); the hops are counted by {@link NetHops}.</li>
 *   <li>{@code bwFraction}: the share of the NICs' line rate the transport reaches at large sizes (the node's NIC
 *       bound is multiplied by it).</li>
 * </ul>
 *
 * @param stepUs       proxy cost per Simple network send, microseconds, in [0, 10000]
 * @param hopLatencyUs latency added per network hop, microseconds, in [0, 10000]
 * @param bwFraction   achieved fraction of the NIC line rate, in (0, 1]
 */
@JsonPropertyOrder({"stepUs", "hopLatencyUs", "bwFraction"})
public record NetClassProfile(@JsonProperty("stepUs") double stepUs,
        @JsonProperty("hopLatencyUs") double hopLatencyUs, @JsonProperty("bwFraction") double bwFraction) {

    /** @throws IllegalArgumentException naming the field, its value and the allowed range */
    public NetClassProfile {
        check("stepUs", stepUs, 0, 1e4);
        check("hopLatencyUs", hopLatencyUs, 0, 1e4);
        if (!(bwFraction > 0 && bwFraction <= 1)) {
            throw new IllegalArgumentException("bwFraction = " + bwFraction + " is out of range; allowed (0, 1]");
        }
    }

    private static void check(String name, double v, double lo, double hi) {
        if (!(v >= lo && v <= hi)) {
            throw new IllegalArgumentException(name + " = " + v + " is out of range; allowed [" + lo + ", " + hi + "]");
        }
    }
}
