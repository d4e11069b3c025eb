package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.NetClassProfile;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.NetworkClass;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.Locale;
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

    private PointComparison point(String file, int table, long bytes) throws Exception {
        DatasetComparison c = comparer.compare(Corpus.read(file).get(table), Optional.empty());
        assertTrue(c.compared(), c.reason());
        return c.points().stream().filter(x -> x.sizeBytes() == bytes).findFirst().orElseThrow();
    }
}
