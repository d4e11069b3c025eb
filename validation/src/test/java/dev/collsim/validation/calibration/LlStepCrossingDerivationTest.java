package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.PreparedCall;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.perf.LlStepCrossing;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.compare.ClusterGuess;
import dev.collsim.validation.compare.ClusterGuesser;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.compare.RunSettings;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.PerfPoint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Works {@link LlStepCrossing#LINE_GBPS} out again from the files (simulator {@code LlStepCrossing}'s javadoc): per
 * run, the measured time less the model's without the term, over x = hops x the line bytes of one LL step, at the
 * sizes up to 32 KiB the model runs as Ring or Tree LL (hiccups left out); the run's rate is 1 / the Theil-Sen
 * slope (the median of the pairwise slopes); a cluster's rate the median of its runs', the figure the median of
 * the clusters'. The step's data bytes, as NCCL's per-call channel count gives them (fact sheet §3.1: a channel per
 * 512 threads x 8 B for Tree, x nRanks for a Ring, whose step is 1 / nRanks of a channel's share): Tree nBytes / c,
 * Ring nBytes / (c x nRanks), c = nBytes / (512 x 8 (x nRanks)) between 1 and the call's channels, a Tree's at
 * most 512 x 8 B (the threshold step, as {@code LlStepCrossing} charges it); two line bytes per data byte. Hops by hand ({@code NetHops.of}): Tree AllReduce 2 log2(nodes); Ring AllReduce at 2 ranks per node
 * 2 nodes - 1, at 4 or more 2 nodes; Ring AllGather with more than one rank per node nodes.
 */
class LlStepCrossingDerivationTest {

    /** One run: its cluster, file and table line, ranks, and the network hops of its LL algorithm. */
    private record Run(String cluster, String file, int line, int ranks, int hops) {
    }

    private static final List<Run> RUNS = List.of(
            new Run("ABCI A100", "A-allreduce-2to16x8xA100-40GB-abci-anode-hdr-nccl2.8.txt", 33, 16, 2),
            new Run("ABCI A100", "A-allreduce-2to16x8xA100-40GB-abci-anode-hdr-nccl2.8.txt", 100, 32, 4),
            new Run("ABCI A100", "A-allreduce-2to16x8xA100-40GB-abci-anode-hdr-nccl2.8.txt", 199, 64, 6),
            new Run("ABCI A100", "A-allreduce-2to16x8xA100-40GB-abci-anode-hdr-nccl2.8.txt", 362, 128, 8),
            new Run("ABCI A100", "A-allreduce-2x8xA100-40GB-abci-anode-hdr-sharp-collnet-nccl2.8.txt", 35, 16, 2),
            new Run("ABCI V100", "A-allreduce-2to32x4xV100-16GB-abci-vnode-edr-nccl2.8.txt", 33, 8, 4),
            new Run("ABCI V100", "A-allreduce-2to32x4xV100-16GB-abci-vnode-edr-nccl2.8.txt", 100, 16, 4),
            new Run("ABCI V100", "A-allreduce-2to32x4xV100-16GB-abci-vnode-edr-nccl2.8.txt", 199, 32, 6),
            new Run("ABCI V100", "A-allreduce-2to32x4xV100-16GB-abci-vnode-edr-nccl2.8.txt", 362, 64, 8),
            new Run("ABCI V100", "A-allreduce-2to32x4xV100-16GB-abci-vnode-edr-nccl2.8.txt", 653, 128, 10),
            new Run("OCI BM.GPU4.8", "A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-horovod-container-sweep.txt", 81, 16,
                    2),
            new Run("OCI BM.GPU4.8", "A-allreduce-2x8xA100-40GB-oci-oke-sriov-roce-nccl2.26.txt", 31, 16, 2),
            new Run("DGX H100 2x2", "A-allreduce-2x2xH100-dgx-ib.txt", 19, 4, 3),
            new Run("Voltage Park", "A-allgather-4x8xH100-voltagepark-ib-nccl2.24.txt", 51, 32, 4),
            new Run("Voltage Park", "A-allreduce-4x8xH100-voltagepark-ib-nccl2.24.txt", 51, 32, 4),
            new Run("XE9680 NDR", "A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt", 34, 16, 2),
            new Run("XE9680 NDR", "A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt", 110, 32, 4),
            new Run("Nebius", "A-allreduce-2x8xH100-nebius-ib-dstack-docs.txt", 13, 16, 2),
            new Run("Lambda B200", "A-allreduce-2x8xB200-lambda-1cc-ib-dstack-nccl2.26.txt", 15, 16, 2),
            new Run("XE9680 H200 Spectrum-X", "A-allreduce-2x8xH200-dell-xe9680-spectrumx-bf3-openshift-nccl2.30.txt",
                    40, 16, 2),
            new Run("GCP A3 Ultra gIB 1.0.6", "A-allgather-2x8xH200-gcp-a3ultra-gke-gib-skypilot-nccl2.26.txt", 35, 16,
                    2),
            new Run("GCP A3 Ultra gIB 1.0.6", "A-allgather-2x8xH200-gcp-a3ultra-gke-gib-skypilot-nccl2.26.txt", 87, 16,
                    2),
            new Run("GCP A4X Max gIB", "A-allgather-2x4xGB300-gcp-a4xmax-gke-gib-cross-nvl-domain-nccl2.28.txt", 27, 8,
                    2),
            new Run("2x4 H100 16GB", "A-allreduce-2x4xH100-16GB.txt", 23, 8, 2));

    private final Comparer comparer = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null);

    @Test
    void rateIsTheMedianOfTheClustersTheilSenRates() throws Exception {
        Map<String, List<Double>> byCluster = new LinkedHashMap<>();
        for (Run r : RUNS) {
            byCluster.computeIfAbsent(r.cluster(), k -> new ArrayList<>()).add(runRate(r));
        }
        double[] clusters = byCluster.values().stream()
                .mapToDouble(v -> FileMedians.median(v.stream().mapToDouble(Double::doubleValue).toArray()))
                .toArray();
        assertEquals(12, clusters.length);
        double figure = FileMedians.median(clusters);
        double[] loo = FileMedians.leaveOneOutRange(clusters);
        assertEquals(LlStepCrossing.LINE_GBPS, figure, 0.05, byCluster.toString());
        assertEquals(2.67, loo[0], 0.05, byCluster.toString());
        assertEquals(2.95, loo[1], 0.05, byCluster.toString());
        assertTrue(loo[1] - loo[0] < figure, "leave-one-out spread within the figure");
    }

    /** @return the run's rate, GB/s of line bytes per hop: 1 / the Theil-Sen slope; infinite when it is not > 0 */
    private double runRate(Run r) throws Exception {
        Dataset d = Corpus.read(r.file()).stream().filter(x -> x.line() == r.line()).findFirst().orElseThrow();
        ClusterGuess c = ClusterGuesser.guess(d).orElseThrow();
        Map<String, String> settings = new LinkedHashMap<>(d.env());
        RunSettings.modelSettings(d, c, true, settings);
        Set<PerfPoint> hiccups = Comparer.leftOutPoints(d);
        List<PerfPoint> pts = Comparer.usable(d).stream()
                .filter(p -> p.sizeBytes() <= 32768 && !hiccups.contains(p)).toList();
        List<PreparedCall> calls = comparer.model(d, c, NcclSettings.modelled(settings), pts);
        List<double[]> xy = new ArrayList<>();
        for (int i = 0; i < pts.size(); i++) {
            Prediction p = calls.get(i).predict(PerformanceParameters.DEFAULTS);
            if (p.protocol() != Protocol.LL || (p.algorithm() != Algorithm.TREE && p.algorithm() != Algorithm.RING)) {
                continue;
            }
            double x = r.hops() * 2 * stepBytes(p.algorithm(), calls.get(i).bytes(), p.nChannels(), r.ranks()) / 1000;
            double without = p.timeUs() - x / LlStepCrossing.LINE_GBPS;
            xy.add(new double[] {x, pts.get(i).primary().timeUs() - without});
        }
        assertTrue(xy.size() >= 4, r.file() + ":" + r.line() + " has " + xy.size() + " LL points");
        List<Double> slopes = new ArrayList<>();
        for (int i = 0; i < xy.size(); i++) {
            for (int j = i + 1; j < xy.size(); j++) {
                double dx = xy.get(j)[0] - xy.get(i)[0];
                if (Math.abs(dx) > 0.3) {
                    slopes.add((xy.get(j)[1] - xy.get(i)[1]) / dx);
                }
            }
        }
        double s = FileMedians.median(slopes.stream().mapToDouble(Double::doubleValue).toArray());
        return s > 0 ? 1 / s : Double.POSITIVE_INFINITY;
    }

    /** @return data bytes of one LL step: the call's bytes over its channels (and ranks, for a Ring) */
    private static double stepBytes(Algorithm a, long nBytes, int callChannels, int ranks) {
        double perChannel = 512.0 * 8 * (a == Algorithm.RING ? ranks : 1);
        double wanted = nBytes / perChannel;
        double c = Math.max(1, callChannels < Math.floor(wanted) ? callChannels : wanted);
        double step = nBytes / c / (a == Algorithm.RING ? ranks : 1);
        return a == Algorithm.TREE ? Math.min(step, 512.0 * 8) : step;
    }
}
