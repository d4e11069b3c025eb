package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.Candidate;
import dev.collsim.simulator.PreparedCall;
import dev.collsim.simulator.perf.NetClassProfile;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.NetworkClass;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.PerfPoint;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * HPE Slingshot is a network class of its own ({@link NetworkClass#SLINGSHOT}), read from every public Slingshot
 * file, and its figures that are not InfiniBand's by assumption hold on the measured rows they were read from
 * (simulator {@code NetClassDefaults}, Slingshot).
 */
class SlingshotClassTest {

    private final Comparer comparer = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null);

    @Test
    void everyPublicSlingshotFileIsReadAsSlingshot() throws Exception {
        for (String f : new String[] {"A-allreduce-2x1xGH200-cscs-alps-slingshot-nccl2.30.txt",
                "A-allreduce-2x4xGH200-cscs-alps-slingshot-plugin-hook-vs-none.txt",
                "A-allreduce-int8-2x4xGH200-sigma2-olivia-slingshot-nccl2.30.txt",
                "A-allreduce-2x2xH100NVL-slingshot200-amd-epyc9534-nccl2.30-issue-nccl2441.txt"}) {
            Dataset d = Corpus.read(f).get(0);
            assertEquals(NetworkClass.SLINGSHOT, ClusterGuesser.guess(d).orElseThrow().topology().networkClass(), f);
        }
    }

    /**
     * Full line rate: the 2x1 GH200 Alps run (one rank and one 200 Gb/s NIC per node) takes 5871.07 us for 128 MiB
     * (line 28, 22.86 GB/s busbw; a 2-rank AllReduce moves each byte once over the NIC, so 25 GB/s would give
     * 5369 us plus its latency): within 3 % at bwFraction 1.
     */
    @Test
    void lineRateHoldsAtTheLargestSize() throws Exception {
        NetClassProfile p = PerformanceParameters.DEFAULTS.netProfile(NetworkClass.SLINGSHOT);
        assertEquals(1.0, p.bwFraction());
        PointComparison last = point("A-allreduce-2x1xGH200-cscs-alps-slingshot-nccl2.30.txt", 0, 134217728L);
        assertEquals(5871.07, last.measuredUs(), 1e-9);
        assertTrue(Math.abs(last.errorPercent()) < 3, String.valueOf(last.errorPercent()));
    }

    /**
     * No added hop latency: the Sigma2 Olivia 2x4 GH200 run takes 22.80 us at 8 B (line 30) and the CSCS hook run
     * 17.93 us (line 38); with hopLatencyUs 0 the prediction is within 25 % of both (the two runs differ by 27 %
     * between themselves), and one added microsecond per hop would only move it away from the faster one.
     */
    @Test
    void smallCallsNeedNoAddedHopLatency() throws Exception {
        assertEquals(0.0, PerformanceParameters.DEFAULTS.netProfile(NetworkClass.SLINGSHOT).hopLatencyUs());
        PointComparison olivia = point("A-allreduce-int8-2x4xGH200-sigma2-olivia-slingshot-nccl2.30.txt", 0, 8);
        assertEquals(22.80, olivia.measuredUs(), 1e-9);
        assertTrue(Math.abs(olivia.errorPercent()) < 25, String.valueOf(olivia.errorPercent()));
        PointComparison cscs = point("A-allreduce-2x4xGH200-cscs-alps-slingshot-plugin-hook-vs-none.txt", 0, 8);
        assertEquals(17.93, cscs.measuredUs(), 1e-9);
        assertTrue(cscs.errorPercent() > 0 && cscs.errorPercent() < 25, String.valueOf(cscs.errorPercent()));
    }

    /**
     * The release decides LL128 between GH200 hosts. The CSCS hook run's NCCL is 2.25.1 (its header: the image's CUDA
     * 12.8.1 base), which has no P2C path type and types a GH200's GPU-Grace-NIC path PHB, refused by its LL128 rule
     * (v2.25.1-1 {@code src/graph/tuning.cc} line 428: typeInter at most PXB, or PXN on sm90): no size runs LL128. The
     * Olivia run's NCCL 2.30.4 types it P2C, within the rule's PXN (v2.30.7-1 line 522): LL128 is allowed, and 1 MiB
     * is no Simple call (Ring/LL128 in the model, as before the host was built with its Graces).
     */
    @Test
    void ll128BetweenGh200HostsOnlyFromNccl227() throws Exception {
        DatasetComparison hook = comparer.compare(Corpus.read(
                "A-allreduce-2x4xGH200-cscs-alps-slingshot-plugin-hook-vs-none.txt").get(0), Optional.empty());
        assertTrue(hook.compared(), hook.reason());
        assertTrue(hook.points().stream().noneMatch(x -> x.protocol().equalsIgnoreCase("LL128")),
                hook.points().toString());
        PointComparison olivia = point("A-allreduce-int8-2x4xGH200-sigma2-olivia-slingshot-nccl2.30.txt", 0, 1048576);
        assertEquals("LL128", olivia.protocol().toUpperCase(Locale.ROOT));
    }

    /**
     * NCCL's own table ties Tree/Simple and Tree/LL128 at the Olivia run's last size, 128 MiB (line 54), worked out
     * from NCCL 2.30.7 {@code src/graph/tuning.cc} on the modelled tree graph (4 channels, bwIntra 48 GB/s: pass 2
     * doubles a two-node tree's bwIntra up to twice its bwInter of 24; a plain tree, x .85). Simple: busBw
     * min(0.92 x 4 x 48, 4 x 41.4 perChMaxTreeBw) = 165.6, x .85 x .5 x .9 (treeCorrectionFactor at 2^27 >> 6 = 2^21)
     * = 63.342 GB/s; latency 8.4 + 2 x (3 x 4.0 + 14) = 60.4 us: 2179.34 us. LL128: min(165.6 x 120/128,
     * 4 x 36.7 perChMaxTreeLL128Bw) = 146.8, x .85 x .5 x 1.0 = 62.39 GB/s; latency 14.0 + 2 x (3 x 1.25 + 8.5) = 38.5
     * us: 2189.77 us. Simple wins by 0.5 %; aws-ofi-nccl reports latency 0 off AWS, so nothing is added to either.
     */
    @Test
    void lastOliviaSizeIsATieInNcclsTable() throws Exception {
        Dataset d = Corpus.read("A-allreduce-int8-2x4xGH200-sigma2-olivia-slingshot-nccl2.30.txt").get(0);
        ClusterGuess c = ClusterGuesser.guess(d).orElseThrow();
        Map<String, String> settings = new LinkedHashMap<>(d.env());
        RunSettings.modelSettings(d, c, true, settings);
        List<PerfPoint> last = Comparer.usable(d).stream().filter(p -> p.sizeBytes() == 134217728L).toList();
        PreparedCall call = comparer.model(d, c, NcclSettings.modelled(settings), last).get(0);
        List<Candidate> all = call.candidates(PerformanceParameters.DEFAULTS);
        Candidate simple = tree(all, Protocol.SIMPLE);
        Candidate ll128 = tree(all, Protocol.LL128);
        assertEquals(60.4 + 134217728 / (1000 * 165.6 * .85 * .5 * .9), simple.ncclTimeUs(), 0.05);
        assertEquals(38.5 + 134217728 / (1000 * 146.8 * .85 * .5), ll128.ncclTimeUs(), 0.05);
        assertTrue(simple.chosen() && !ll128.chosen());
    }

    private static Candidate tree(List<Candidate> all, Protocol p) {
        return all.stream().filter(x -> x.algorithm() == Algorithm.TREE && x.protocol() == p).findFirst()
                .orElseThrow();
    }

    private PointComparison point(String file, int table, long bytes) throws Exception {
        DatasetComparison c = comparer.compare(Corpus.read(file).get(table), Optional.empty());
        assertTrue(c.compared(), c.reason());
        return c.points().stream().filter(x -> x.sizeBytes() == bytes).findFirst().orElseThrow();
    }
}
