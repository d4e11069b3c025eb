package dev.collsim.simulator.channel;

import java.util.List;
import java.util.Objects;

/**
 * One ring channel of NCCL's multi-node graph on one host, as collsim's search ({@link GraphSearch}) keeps it: the
 * GPU order the channel walks, the NIC it enters the host by and the NIC it leaves by. NCCL records the two NICs as
 * {@code graph->inter[2c]} and {@code graph->inter[2c + 1]}; the channel's first GPU receives through the first and
 * every other GPU of the channel, its last one included, sends through the second (NCCL 2.30 {@code
 * src/graph/search.cc ncclTopoGetNetDev}: {@code index = graph->intra[channel * ngpus] == rank ? 0 : 1}), over PXN
 * when the NIC is not local to it ({@code ncclTopoGetIntermediateRank}). With crossNic 0 both are one NIC; under
 * NCCL_CROSS_NIC=2 (crossNic 2) an even channel may leave by another NIC and the odd one after it enters by that one
 * and leaves by the even one's entry NIC ({@link SearchNets}). This record is immutable.
 *
 * @param order    the channel's GPUs in the order it walks them, as positions in the searched host's GPU list
 *                 ({@link SearchedHost#gpus}), entry GPU first
 * @param entryNic the NIC the channel enters by, as its position among its host's NICs in NCCL's NET device order
 *                 ({@link SearchedHost#nicPosition}), the same on every host built from one description
 * @param exitNic  the NIC the channel leaves by, as {@code entryNic}
 * @param crossNic NCCL's {@code crossNic} of the search that found the graph (0: same NIC, 1: any, 2: paired)
 */
public record RingChannel(List<Integer> order, int entryNic, int exitNic, int crossNic) {

    /** @throws IllegalArgumentException on an empty order or a negative NIC position */
    public RingChannel {
        order = List.copyOf(Objects.requireNonNull(order, "order"));
        if (order.isEmpty() || entryNic < 0 || exitNic < 0) {
            throw new IllegalArgumentException("ring channel needs GPUs and NICs, got " + order + " NICs " + entryNic
                    + " -> " + exitNic);
        }
    }
}
