package dev.collsim.reports.plan;

import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.Precision;
import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.CollectivePredictor;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.bound.HostNicShare;
import dev.collsim.simulator.bound.LeafGroups;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Times one training step of a job on a cluster: derives its collectives ({@link StepCollectives}), places the
 * groups ({@link GroupPlacement}), predicts each collective with a {@link CollectivePredictor} on the GPUs the group
 * really spans (a group that crosses hosts together with the other groups of its kind, {@link
 * CollectivePredictor#predictConcurrent}, so a fabric-aware predictor lets them share links), raises that to the
 * simulator's NIC-sharing bound ({@link HostNicShare}) when several groups share a node's NICs at once, and to the
 * fabric's leaf uplinks shared by those groups ({@link LeafGroups#shared}: the c groups of a kind on a host span the
 * same hosts, so each gets 1/c of every leaf group's uplink); never for a group alone: then the per-call time is
 * exactly what {@code collsim predict} gives for the same point, its own fabric limit included; and adds
 * compute, pipeline bubble and overlap (definitions in {@link StepPlan}).
 *
 * <p>Compute time from the job's {@link ComputeRate} ({@link StepCompute}; FLOPs per token from {@link ModelFlops});
 * peak is the dense BF16 (FP16 where there is no BF16) FLOP/s of the GPU-model database ({@link GpuModels}).
 * Instances are immutable and thread-safe when the predictor is.
 */
public final class StepPlanner {

    private final CollectivePredictor predictor;
    private final NcclSettings ncclSettings;
    private final RankOrder order;

    /**
     * @param predictor predicts each collective
     * @param ncclSettings NCCL_* settings passed to every prediction (null: NCCL's defaults)
     * @param order     rank order for placing groups
     */
    public StepPlanner(CollectivePredictor predictor, NcclSettings ncclSettings, RankOrder order) {
        this.predictor = Objects.requireNonNull(predictor, "predictor");
        this.ncclSettings = ncclSettings == null ? NcclSettings.DEFAULTS : ncclSettings;
        this.order = Objects.requireNonNull(order, "order");
    }

    /**
     * @param topology  the cluster; needs at least {@code job.nGpus()} GPUs
     * @param job       the job
     * @param peakFlops peak FLOP/s per GPU, or NaN to look the GPU model up
     * @return the step breakdown
     * @throws IllegalArgumentException when the cluster is too small, or compute time cannot be derived (unknown
     *                                  GPU model and no peak given), or the predictor rejects a point
     */
    public StepPlan plan(Topology topology, TrainingJob job, double peakFlops) {
        GroupPlacement placement = new GroupPlacement(topology, job, order);
        List<CommTiming> timings = new ArrayList<>();
        double comm = 0;
        for (CommOp op : StepCollectives.derive(job)) {
            CommTiming t = time(placement, op, job);
            timings.add(t);
            comm += t.totalUs();
        }
        double[] behind = StepCompute.behind(job, timings);
        double behindBackward = behind[0];
        double behindForward = behind[1];
        double overlappable = behindBackward + behindForward;
        double peak = Double.isNaN(peakFlops) ? peakOf(topology.gpus().get(0).model(), job) : peakFlops;
        StepCompute c = StepCompute.of(job, peak, comm, behindBackward, behindForward);
        return new StepPlan(job, topology.name(), timings, c.computeUs(), c.bubbleUs(), comm, overlappable,
                c.hiddenUs(), c.source(), peak, c.warning(), MemoryModel.of(job, memoryOf(topology.gpus().get(0)),
                nvlinkDomainGpus(topology)), GroupPlacement.idleGpus(topology, job).orElse(""));
    }

    /**
     * @return GPUs in the NVLink domain of the first GPU: its host's GPUs, and every GPU on a multi-host NVLink
     *         switch it is cabled to (a GB200 NVL72 rack: 72); a cluster described once by one host (whose NVLink
     *         stays inside the host) is answered from that host
     */
    static int nvlinkDomainGpus(Topology topology) {
        Topology t = topology.hostTemplate().orElse(topology);
        Gpu first = t.gpus().get(0);
        Set<Device> domain = new HashSet<>(t.gpusOf(first.host()));
        for (Link l : t.outgoing(first)) {
            if (t.target(l) instanceof NvSwitch s && s.host() < 0) {
                for (Link back : t.outgoing(s)) {
                    if (t.target(back) instanceof Gpu g) {
                        domain.add(g);
                    }
                }
            }
        }
        return domain.size();
    }

    /** @return the GPU's memory in bytes: the topology's figure, else the GPU-model database's, else NaN */
    static double memoryOf(Gpu gpu) {
        if (gpu.memoryBytes() > 0) {
            return gpu.memoryBytes();
        }
        return GpuModels.find(gpu.model()).map(m -> (double) m.memoryBytes()).orElse(Double.NaN);
    }

    /**
     * @return the GPU model's dense peak in the job's precision (BF16 falls back to FP16 where there is no BF16),
     *         NaN when unknown and the job gives its compute time
     */
    private static double peakOf(String model, TrainingJob job) {
        Precision p = job.compute().precision();
        OptionalDouble peak = GpuModels.find(model).map(m -> p == Precision.BF16 ? m.halfPrecisionFlops()
                : m.flops(p)).orElse(OptionalDouble.empty());
        if (peak.isEmpty() && job.compute().needsPeak()) {
            throw new IllegalArgumentException("no " + p + " peak FLOP/s known for GPU model '" + model
                    + "'; give --step-compute-ms or --peak-tflops");
        }
        return peak.orElse(Double.NaN);
    }

    private CommTiming time(GroupPlacement placement, CommOp op, TrainingJob job) {
        GroupKind gk = op.kind().group();
        List<Gpu> ranks = placement.group(gk);
        int hosts = placement.hosts(gk);
        int sharing = placement.groupsSharingHost(gk);
        if (ranks.size() < 2) {
            return new CommTiming(op, ranks.size(), hosts, sharing, null, 0, "one rank: no communication");
        }
        int eltBytes = switch (op.kind()) {
            case DP_ALLREDUCE, DP_REDUCE_SCATTER, EDP_ALLREDUCE, EDP_REDUCE_SCATTER -> job.gradBytes();
            case DP_ALLGATHER, EDP_ALLGATHER -> job.paramBytes();
            default -> job.actBytes();
        };
        PredictionRequest request = new PredictionRequest(placement.topology(), ranks, op.kind().collective(),
                op.sizeBytes(), dataType(eltBytes), null, ncclSettings);
        Prediction p = hosts > 1 ? predictor.predictConcurrent(request, placement.groups(gk))
                : predictor.predict(request);
        double nicUs = HostNicShare.boundUs(placement.topology(), ranks, op.kind().collective(), op.sizeBytes(),
                sharing, p.algorithm() == Algorithm.RING);
        String[] fabricWhy = {""};
        double fabricUs = sharing < 2 ? 0 : LeafGroups.limiting(placement.topology(), ranks).map(g -> g.shared(sharing))
                .map(g -> {
                    double limit = g.busBw(op.kind().collective(), ncclSettings, p.algorithm() == Algorithm.RING);
                    fabricWhy[0] = String.format(Locale.ROOT, "%s, the share of each of %d concurrent %s groups",
                            g.describe(limit), sharing, gk);
                    return g.floorUs(op.kind().collective(), NcclPredictor.effectiveBytes(request), limit);
                }).orElse(0.0);
        double shared = Math.max(nicUs, fabricUs);
        if (!Double.isFinite(p.timeUs()) || p.timeUs() < 0) {
            if (shared > 0) {
                return new CommTiming(op, ranks.size(), hosts, sharing, p, shared, String.format(Locale.ROOT,
                        "no estimate from the NCCL model for this layout (%s); timed instead by the %s shared"
                        + " by %d concurrent %s groups",
                        p.bottleneck(), fabricUs > nicUs ? "fabric leaf uplinks" : "host NICs", sharing, gk));
            }
            throw new IllegalArgumentException("the simulator gave no finite time for " + op.kind().label() + " of "
                    + op.sizeBytes() + " B on " + ranks.size() + " ranks (" + p.bottleneck() + ")");
        }
        if (sharing > 1 && fabricUs > Math.max(nicUs, p.timeUs())) {
            return new CommTiming(op, ranks.size(), hosts, sharing, p, fabricUs, fabricWhy[0]);
        }
        if (sharing > 1 && shared > p.timeUs()) {
            return new CommTiming(op, ranks.size(), hosts, sharing, p, shared, String.format(Locale.ROOT,
                    "host NICs shared by %d concurrent %s groups (%.0f GB/s per host)", sharing, gk,
                    HostNicShare.hostNicGBps(placement.topology(), ranks.get(0).host())));
        }
        return new CommTiming(op, ranks.size(), hosts, sharing, p, p.timeUs(), p.bottleneck());
    }

    /** @return the NCCL type of that element size: 8 double, 4 float, 2 bfloat16, 1 int8 */
    static DataType dataType(int eltBytes) {
        return switch (eltBytes) {
            case 8 -> DataType.DOUBLE;
            case 4 -> DataType.FLOAT;
            case 2 -> DataType.BFLOAT16;
            default -> DataType.INT8;
        };
    }

    /** @return the rank order used */
    public RankOrder order() {
        return order;
    }
}
