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
 *   <li>{@code streamGBps}: the rate of one TCP stream, for a transport that moves its data over kernel TCP sockets
 *       (NCCL's socket transport: a node moves at most channels x streams x this, {@link SocketStreams}); 0 for the
 *       RDMA classes, which have no such limit. In a parameters file, 0 or absent keeps the class's default
 *       ({@link NetClassDefaults}); a large value (10000) lifts it.</li>
 * </ul>
 *
 * @param stepUs       proxy cost per Simple network send, microseconds, in [0, 10000]
 * @param hopLatencyUs latency added per network hop, microseconds, in [0, 10000]
 * @param bwFraction   achieved fraction of the NIC line rate, in (0, 1]
 * @param streamGBps   rate of one TCP stream, GB/s, in [0, 10000]; 0: none
 */
@JsonPropertyOrder({"stepUs", "hopLatencyUs", "bwFraction", "streamGBps"})
public record NetClassProfile(@JsonProperty("stepUs") double stepUs,
        @JsonProperty("hopLatencyUs") double hopLatencyUs, @JsonProperty("bwFraction") double bwFraction,
        @JsonProperty("streamGBps") double streamGBps) {

    /** @throws IllegalArgumentException naming the field, its value and the allowed range */
    public NetClassProfile {
        check("stepUs", stepUs, 0, 1e4);
        check("hopLatencyUs", hopLatencyUs, 0, 1e4);
        check("streamGBps", streamGBps, 0, 1e4);
        if (!(bwFraction > 0 && bwFraction <= 1)) {
            throw new IllegalArgumentException("bwFraction = " + bwFraction + " is out of range; allowed (0, 1]");
        }
    }

    /** A class with no per-stream limit ({@code streamGBps} 0): the RDMA classes. */
    public NetClassProfile(double stepUs, double hopLatencyUs, double bwFraction) {
        this(stepUs, hopLatencyUs, bwFraction, 0);
    }

    /**
     * @param d the class's default
     * @return this profile, with the default's stream rate where this one gives none (0)
     */
    NetClassProfile orStreamOf(NetClassProfile d) {
        return streamGBps > 0 || d == null ? this : new NetClassProfile(stepUs, hopLatencyUs, bwFraction, d.streamGBps);
    }

    private static void check(String name, double v, double lo, double hi) {
        if (!(v >= lo && v <= hi)) {
            throw new IllegalArgumentException(name + " = " + v + " is out of range; allowed [" + lo + ", " + hi + "]");
        }
    }
}
