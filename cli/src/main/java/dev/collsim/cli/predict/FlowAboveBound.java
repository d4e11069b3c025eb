package dev.collsim.cli.predict;

import dev.collsim.simulator.Prediction;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The warning {@code predict --backend flow|links} prints when a simulated busbw exceeds the row's physical bound.
 * The bound is the analytical backend's ({@code bound.PhysicalBound}) lowered to the fabric's leaf uplinks ({@code
 * bound.FabricBound}, which the flow backends' links also obey): it counts what NCCL's network path allows,
 * including NCCL's socket streams ({@code --network socket}, {@code perf.SocketStreams}) and, without GPUDirect RDMA
 * ({@code NCCL_NET_GDR_LEVEL} nearer than the GPU-NIC path, or sockets), every network byte crossing the PCIe links to
 * and from the CPU. The flow backends route each network transfer GPU-direct from the GPU's PCIe switch to its NIC at
 * the NIC's line rate and model neither, so there their busbw can pass the bound; a figure above a bound is not
 * physical, and the user is told which column to read.
 */
final class FlowAboveBound {

    /** Relative slack: the two are computed along different paths; a row must pass its bound by more. */
    private static final double SLACK = 1e-6;

    private FlowAboveBound() {
    }

    /**
     * @param rows the flow or links rows
     * @return the warning line, empty when every row's busbw is at most its bound
     */
    static Optional<String> warning(List<PredictRow> rows) {
        List<Prediction> above = rows.stream().map(PredictRow::prediction)
                .filter(p -> p.busBw() > p.physicalBoundBusBw() * (1 + SLACK)).toList();
        if (above.isEmpty()) {
            return Optional.empty();
        }
        Prediction first = above.get(0);
        return Optional.of(String.format(Locale.ROOT, "Warning: busbw above the bound at %d of %d sizes (first %d B:"
                + " %.2f against %.2f GB/s): the flow and links backends move network bytes GPU-direct at the NICs'"
                + " line rate and model neither NCCL's socket streams (--network socket) nor the staging through host"
                + " memory without GPUDirect RDMA (NCCL_NET_GDR_LEVEL), which the bound counts: read the bound there",
                above.size(), rows.size(), first.sizeBytes(), first.busBw(), first.physicalBoundBusBw()));
    }
}
