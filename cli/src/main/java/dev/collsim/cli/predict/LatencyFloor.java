package dev.collsim.cli.predict;

import dev.collsim.nccl.CollGeometry;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.InvalidRequestException;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.List;
import java.util.Locale;

/**
 * The floor the flow and links backends' rows are checked against: the analytical backend's time for the smallest
 * call of the same collective, type and op on the same ranks (one element per rank, or per peer for alltoall), which
 * is NCCL's latency of its fastest choice plus collsim's launch overhead. NCCL's model (2.28.9 src/graph/tuning.cc
 * ncclTopoTuneModel: time = latency + bytes / bandwidth for each algorithm and protocol, the minimum taken) never
 * grows shorter with more bytes, so no size of that call runs faster than this in NCCL's own model. The flow
 * backends charge no protocol, step or launch latency (docs/flow-backend.md), so their small sizes fall below it; a
 * row below it is marked {@link #MARK}.
 */
final class LatencyFloor {

    /** The mark the text table puts after a row below the floor, and the CSV {@code note} / JSON {@code note} value. */
    static final String MARK = "below-latency";

    private LatencyFloor() {
    }

    /**
     * @param floorUs the floor, microseconds
     * @return the header line that explains {@link #MARK}
     */
    static String note(double floorUs) {
        return String.format(Locale.ROOT, "%s: the time is below %.2f us, the analytical backend's time for the"
                + " smallest call of this collective on these ranks (NCCL's latency and launch, which this backend does"
                + " not charge): no real run is that fast; read these sizes from --backend analytical", MARK, floorUs);
    }

    /**
     * @param predictor the analytical backend
     * @param topo      the cluster
     * @param ranks     the ranks
     * @param c         the collective
     * @param type      the element type
     * @param op        the reduction
     * @param nccl      NCCL_* settings
     * @return the floor, microseconds; NaN (nothing is marked) where the analytical backend refuses the call
     */
    static double us(NcclPredictor predictor, Topology topo, List<Gpu> ranks, Collective c, DataType type, RedOp op,
            NcclSettings nccl) {
        int elt = type.size();
        int n = ranks.size();
        long size = elt;
        for (long s : new long[] {elt, (long) n * elt, (long) n * Math.max(16, elt)}) {
            size = s;
            if (CollGeometry.ofSize(c, s, elt, n).paramCount() > 0) {
                break;
            }
        }
        try {
            return predictor.predict(new PredictionRequest(topo, ranks, c, size, type, op, nccl)).timeUs();
        } catch (InvalidRequestException e) {
            return Double.NaN;
        }
    }
}
