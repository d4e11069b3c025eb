package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * One real data file per provider whose header names the instance is compared on that instance of the catalog's
 * data file (validation/src/test/resources/data; sources in each file's {@code #@} header).
 */
class HeaderSystemTest {

    private static final Comparer COMPARER = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null);

    private static List<Nic> computeNics(Topology t) {
        return t.devices(Nic.class).stream().filter(n -> n.host() == 0 && n.rail() >= 0).toList();
    }

    /**
     * AWS: "hardware: AWS p5.48xlarge" (aws-samples EKS README), 2 hosts. p5 has 32 EFA devices of 100 Gb/s = 400 GB/s
     * per node, which aws-ofi-nccl presents to NCCL as 8 devices of 4 rails (topology.catalog.OfiRailGroups), so the 2-node AllReduce NIC bound is 400 x 2 (16 - 1) / 16 = 750 GB/s busbw; the file's 2 GiB row
     * (line 22: 9197.5 us, 437.79 GB/s busbw) is read as that row, and the prediction stays under the bound.
     */
    @Test
    void awsP5() throws Exception {
        Dataset d = Corpus.read("A-allreduce-2x8xH100-aws-p5-eks-efa-nccl2.18-partial.txt").get(0);
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        assertEquals("catalog:p5.48xlarge", g.source());
        assertEquals(2, g.topology().hostCount());
        assertSame(NetworkClass.EFA, g.topology().networkClass());
        assertEquals(8, computeNics(g.topology()).size());
        computeNics(g.topology()).forEach(n -> assertEquals(400.0, n.speed().gbits(), 1e-9));
        DatasetComparison c = COMPARER.compare(d, Optional.empty());
        assertEquals(750.0, c.physicalBoundBusBw(), 1e-9);
        PointComparison last = c.points().get(c.points().size() - 1);
        assertEquals(2147483648L, last.sizeBytes());
        assertEquals(9197.5, last.measuredUs(), 1e-9);
        assertEquals(437.79, last.measuredBusBw(), 0.01);
        assertTrue(last.predictedBusBw() > 0 && last.predictedBusBw() <= 750.0, last.toString());
    }

    /** GCP: "hardware: GCP A4 (a4-highgpu-8g)" (DraNet docs), 2x8; A4 has 8 CX-7 of 400 Gb/s, RoCE (gIB). */
    @Test
    void gcpA4() throws Exception {
        Dataset d = Corpus.read("A-allgather-2x8xB200-gke-a4-dranet-gib-nccl2.26.txt").get(0);
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        assertEquals("catalog:a4-highgpu-8g", g.source());
        assertSame(NetworkClass.ROCE, g.topology().networkClass());
        assertEquals(8, computeNics(g.topology()).size());
        computeNics(g.topology()).forEach(n -> assertEquals(400, n.speed().gbits(), 1e-9));
        assertTrue(COMPARER.compare(d, Optional.empty()).compared());
    }

    /** Azure: "hardware: Azure ND96isr_H100_v5" (Azure AI-benchmarking-guide), one VM of 8 H100. */
    @Test
    void azureNdH100V5() throws Exception {
        Dataset d = Corpus.read("A-allreduce-8xH100-azure-ndv5-nvls-nccl2.18-busbw-table.txt").get(0);
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        assertEquals("catalog:standard_nd96isr_h100_v5", g.source());
        assertEquals(1, g.topology().hostCount());
        assertTrue(g.assumptions().get(0).contains("learn.microsoft.com"), g.assumptions().toString());
        assertTrue(COMPARER.compare(d, Optional.empty()).compared());
    }

    /**
     * OCI: "hardware: OCI BM.GPU4.8" (oci-hpc-oke docs), 2x8 over RoCE. BM.GPU4.8 has 16 RDMA ports of 100 Gb/s =
     * 200 GB/s per node: the 2-node AllReduce NIC bound is 200 x 2 x 15/16 = 375 GB/s busbw; the A100's 12 NVLink3
     * (300 GB/s, no NVLS) bound inside a node is tighter, 300 x 8/7 x 15/16 = 321.43 (simulator PhysicalBound).
     */
    @Test
    void ociBmGpu48() throws Exception {
        Dataset d = Corpus.read("A-allreduce-2x8xA100-40GB-oci-oke-sriov-roce-nccl2.26.txt").get(0);
        ClusterGuess g = ClusterGuesser.guess(d).orElseThrow();
        assertEquals("catalog:bm.gpu4.8", g.source());
        assertSame(NetworkClass.ROCE, g.topology().networkClass());
        assertEquals(16, computeNics(g.topology()).size());
        computeNics(g.topology()).forEach(n -> assertEquals(100, n.speed().gbits(), 1e-9));
        assertEquals(300.0 * 8 / 7 * 15 / 16, COMPARER.compare(d, Optional.empty()).physicalBoundBusBw(), 1e-9);
    }

    /**
     * "hardware: run1 OCI BM.GPU3.8: 8x Tesla V100 ...; run2 OCI BM.GPU4.8: 8x A100": the A100 run is on BM.GPU4.8,
     * the V100 run keeps the V100 host (BM.GPU4.8 has A100s; BM.GPU3.8 is not in the catalog).
     */
    @Test
    void aNamedSystemOfAnotherGpuIsLeftAlone() throws Exception {
        List<Dataset> runs = Corpus.read("A-allreduce-1x8xV100-sxm2-oci-bmgpu38-and-1x8xA100-single-size.txt");
        assertEquals("catalog:dgx1-v100", ClusterGuesser.guess(runs.get(0)).orElseThrow().source());
        assertEquals("catalog:bm.gpu4.8", ClusterGuesser.guess(runs.get(1)).orElseThrow().source());
    }

    /**
     * The ABCI files' hardware lines name their nodes ("ABCI Compute Node (V) (FUJITSU PRIMERGY CX2570 M4)", "ABCI
     * Compute Node (A)"): the nodes of the ABCI block diagrams, not the DGX hosts of their GPU models.
     */
    @Test
    void abciNodesAreNamed() throws Exception {
        Dataset v = Corpus.read("A-allreduce-1x4xV100-16GB-abci-vnode-nccl2.8.txt").get(0);
        assertEquals("catalog:abci-node-v", ClusterGuesser.guess(v).orElseThrow().source());
        Dataset a = Corpus.read("A-allreduce-2to16x8xA100-40GB-abci-anode-hdr-nccl2.8.txt").get(0);
        assertEquals("catalog:abci-node-a", ClusterGuesser.guess(a).orElseThrow().source());
    }
}
