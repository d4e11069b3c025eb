package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.topology.paths.PathFinder;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.HeaderNics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** Clusters guessed from real public files whose GPU has no catalog host type: hosts synthesized, assumptions said. */
class ClusterGuesserTest {

    private static ClusterGuess guess(String file) throws Exception {
        Dataset d = Corpus.read(file).get(0);
        return ClusterGuesser.guess(d).orElseThrow(() -> new AssertionError(ClusterGuesser.why(d)));
    }

    private static boolean says(ClusterGuess g, String text) {
        return g.assumptions().stream().anyMatch(a -> a.contains(text));
    }

    @Test
    void gh200QuadNodesAreSynthesizedFromTheRankLines() throws Exception {
        // header: "NRIS Olivia: 4x NVIDIA GH200 120GB per node", nodes_x_gpus 2x4; no NIC speed stated, but "HPE
        // Slingshot" named: a Slingshot-11 NIC's 200 Gb/s (HeaderNics.SLINGSHOT_GBITS)
        ClusterGuess g = guess("A-allreduce-int8-2x4xGH200-sigma2-olivia-slingshot-nccl2.30.txt");
        assertTrue(g.source().startsWith("synthesized:"), g.source());
        assertEquals(2, g.topology().hostCount());
        assertEquals(8, g.ranks().size());
        assertTrue(says(g, "all-to-all NVLink, 6 links per GPU pair"), g.assumptions().toString()); // 18 / 3 peers
        assertTrue(says(g, "200 Gb/s read from the header"), g.assumptions().toString());
    }

    @Test
    void nicSpeedIsReadFromTheHeader() throws Exception {
        // header: "HPE Slingshot-11 (CXI, libfabric + aws-ofi-nccl plugin), 200 Gb/s per NIC"; 2x1
        ClusterGuess g = guess("A-allreduce-2x1xGH200-cscs-alps-slingshot-nccl2.30.txt");
        assertEquals(2, g.topology().hostCount());
        assertTrue(says(g, "NIC speed 200 Gb/s read from the header"), g.assumptions().toString());
    }

    /**
     * The H100 NVL hosts of NVIDIA/nccl#2441 (header lines 3 and 5: "2x AMD EPYC 9534 (Zen 4, 8 NUMA nodes) + 2x
     * NVIDIA H100 NVL (GPUs on different NUMA domains from NIC)", "Slingshot-200"; rank lines 16-19: buses 0000:61
     * and 0000:81 on each host). Two sockets and buses on both halves of 0x80 put the GPUs on two NUMA nodes
     * (BusNuma's rule), the NIC ("NIC", singular: one) on a third; NCCL joins every two CPU nodes by a SYS link (NCCL
     * 2.30.7 src/graph/topo.cc ncclTopoConnectCpus), so each GPU reaches the NIC over SYS, which is farther than the
     * default GDR level P2C (src/graph/paths.cc ncclTopoCheckGdr, line 511: netGdrLevel = PATH_P2C): no GPUDirect
     * RDMA, and the path's NCCL bandwidth is AMD_BW = 16 GB/s (src/graph/topo.h line 26). One NIC of 200 Gb/s per host.
     */
    @Test
    void nicOnOtherNumaNodeGivesSysPathWithoutGdr() throws Exception {
        ClusterGuess g = guess("A-allreduce-2x2xH100NVL-slingshot200-amd-epyc9534-nccl2.30-issue-nccl2441.txt");
        assertEquals(2, g.topology().hostCount());
        assertTrue(g.source().endsWith("-nic-numa-apart"), g.source());
        List<Nic> nics = g.topology().devices(Nic.class);
        assertEquals(2, nics.size()); // one per host
        PathFinder paths = PathFinder.of(g.topology());
        for (var gpu : g.ranks()) {
            Nic nic = nics.stream().filter(n -> n.host() == gpu.host()).findFirst().orElseThrow();
            var p = paths.path(gpu, nic);
            assertEquals(PathType.SYS, p.type(), p.toString());
            assertEquals(16.0, p.nccl().gbps(), 1e-9);
        }
        assertTrue(says(g, "GPUs split over NUMA nodes 0 and 1"), g.assumptions().toString());
        assertTrue(says(g, "GPUDirect RDMA off"), g.assumptions().toString());
        // a host without the header's words keeps its NIC near the GPU (a GH200: P2C, through its own Grace)
        ClusterGuess gh = guess("A-allreduce-2x1xGH200-cscs-alps-slingshot-nccl2.30.txt");
        assertTrue(!gh.source().endsWith("-nic-numa-apart"), gh.source());
    }

    /**
     * The same file's interconnect line says "with no NVLink bridge" (the topology dumps: no nvlink element
     * under either GPU), so the two GPUs of a host meet through the CPU: their NUMA nodes differ (0 and 1 here), so
     * the path is SYS, its NCCL bandwidth AMD_BW = 16 GB/s (NCCL 2.30.7 src/graph/topo.h line 26), where the bridged
     * H100 NVL of the GPU database (NVLink4, 18 links) gave NVL. A header saying only "no NVLink bridge info" keeps
     * the bridge (HeaderPcie's rule; the 2x2 file's wording before this layout was read).
     */
    @Test
    void noNvlinkBridgePutsTheGpuPairThroughTheCpu() throws Exception {
        ClusterGuess g = guess("A-allreduce-2x2xH100NVL-slingshot200-amd-epyc9534-nccl2.30-issue-nccl2441.txt");
        assertTrue(says(g, "no NVLink bridge between the GPUs, read from the header"), g.assumptions().toString());
        var p = PathFinder.of(g.topology()).path(g.ranks().get(0), g.ranks().get(1));
        assertEquals(PathType.SYS, p.type(), p.toString());
        assertEquals(16.0, p.nccl().gbps(), 1e-9);
        assertTrue(HeaderPcie.NO_BRIDGE.matcher("gpus 0000:61 and 0000:81 with no nvlink bridge (the").find());
        assertTrue(!HeaderPcie.NO_BRIDGE.matcher("gpus 0000:61 and 0000:81 (no nvlink bridge info given)").find());
    }

    @Test
    void geforceAndPlaceholderNamedGpus() throws Exception {
        ClusterGuess rtx = guess("A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt");
        assertEquals(1, rtx.topology().hostCount());
        assertTrue(says(rtx, "2x GeForce RTX 2080 Ti host synthesized"), rtx.assumptions().toString());
        // one consumer box: no traffic leaves it, so no NIC is assumed in words (not "one 400 Gb/s NIC per GPU")
        assertTrue(says(rtx, "no NIC: one host, so no traffic leaves it"), rtx.assumptions().toString());
        assertTrue(!says(rtx, "Gb/s NIC"), rtx.assumptions().toString());
        assertTrue(says(pro(), "Gb/s NIC per GPU on it") || says(pro(), "Gb/s NIC ("), pro().assumptions().toString());
        // rank lines print 'NVIDIA Graphics Device'; the header names RTX PRO 5000 (not a GB200)
        ClusterGuess pro = pro();
        assertTrue(says(pro, "8x RTX PRO 5000 Blackwell host synthesized"), pro.assumptions().toString());
        assertEquals(2, pro.topology().hostCount());
    }

    private static ClusterGuess pro() throws Exception {
        return guess("A-alltoall-2x8xRTXPRO5000-cx8-spectrumx-spcx-adaptive-routing-sweep-nccl2.30-problem.txt");
    }

    @Test
    void catalogHostsStayForNamedSystems() throws Exception {
        // header "hardware: Azure ND96amsr_A100_v4: 8x A100 80GB SXM4": the instance type of the catalog's data file
        ClusterGuess g = guess("A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt");
        assertEquals("catalog:standard_nd96amsr_a100_v4", g.source());
    }

    @Test
    void headerNicSpeeds() {
        assertEquals(200, HeaderNics.gbits("ConnectX-7 200GbE QSFP (RoCE)").orElseThrow(), 0);
        assertEquals(200, HeaderNics.gbits("inter-node HPE Slingshot-200 (Cassini-2 NICs)").orElseThrow(), 0);
        assertEquals(400, HeaderNics.gbits("8x 400 Gb/s NDR, 2x 200 Gb/s storage").orElseThrow(), 0);
        assertEquals(OptionalDouble.empty(), HeaderNics.gbits("NVLink4 intra-node (4 GH200 120GB)"));
        assertEquals(OptionalDouble.empty(), HeaderNics.gbits(null));
    }

    @Test
    void onlyANicOrNetworkPhraseSetsTheNicSpeed() throws Exception {
        // D-info-partial-allreduce-1x2xH100-pcie-nvlink-bridge-issue-nccltests194.txt line 5: the NVLink bridge's
        // "600 GB/s bidirectional" is bytes, in a clause naming no NIC: no speed (it was read as a 600 Gb/s NIC)
        String bridge = "NVLink bridge (H100 PCIe: 3 bridges / 12 NVLink4 links, 600 GB/s bidirectional) - NCCL uses"
                + " P2P/direct pointer, 24 channels";
        assertEquals(OptionalDouble.empty(), HeaderNics.gbits(bridge));
        assertEquals(Optional.empty(), HeaderNics.countAndGbits(bridge));
        // a size in bits outside a NIC clause: tinybox header "large BAR (32G BAR1)" is no 32 Gb/s NIC
        assertEquals(OptionalDouble.empty(), HeaderNics.gbits("6x GeForce RTX 4090 (MSI), large BAR (32G BAR1)"));
        // a real NIC line: A-allreduce-2x8xH100-gcp-a3mega-tcpxo.txt interconnect, "8x 200 Gbps NICs per node"
        String nics = "NVLink4/NVSwitch intra-node; inter-node GPUDirect-TCPXO (8x 200 Gbps NICs per node, FasTrak"
                + " plugin) per repo context; MPI bootstrap over TCP enp0s12";
        assertEquals(200, HeaderNics.gbits(nics).orElseThrow(), 0);
        assertArrayEquals(new double[] {8, 200}, HeaderNics.countAndGbits(nics).orElseThrow(), 0);
        // the synthesized 2x H100 PCIe host: no speed read, so its (unused, one host) NICs are the assumed 400 Gb/s
        ClusterGuess g = guess("D-info-partial-allreduce-1x2xH100-pcie-nvlink-bridge-issue-nccltests194.txt");
        assertTrue(g.topology().devices(Nic.class).stream().allMatch(n -> n.speed().gbits() == 400),
                g.topology().devices(Nic.class).toString());
    }

    /**
     * The 2x RTX 2080 Ti header: "both GPUs behind one PCIe switch (PIX) ... P2P not supported (topo -p2p = NS)":
     * the synthesized host puts both GPUs on one switch, and the run is modelled with NCCL_P2P_DISABLE=1 (NVML P2P
     * not OK: NCCL 2.30.7 paths.cc ncclTopoCheckP2p sets p2p = 0, as at level LOC); the RTX PRO 6000 file ("no PCIe
     * switch", P2P not said to be unsupported) gets neither.
     */
    @Test
    void headerPcieSwitchAndMissingP2p() throws Exception {
        String file = "A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt";
        Dataset d = Corpus.read(file).get(0);
        ClusterGuess rtx = guess(file);
        assertTrue(says(rtx, "all GPUs behind one"), rtx.assumptions().toString());
        Map<String, String> settings = new HashMap<>(d.env());
        assertTrue(HeaderPcie.p2pOff(d, 1, settings).isPresent());
        assertEquals("1", settings.get("NCCL_P2P_DISABLE"));
        assertTrue(HeaderPcie.p2pOff(d, 1, new HashMap<>(Map.of("NCCL_P2P_LEVEL", "SYS"))).isEmpty(),
                "a run's own P2P setting wins");
        Dataset pro = Corpus.read("A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt").get(0);
        assertTrue(HeaderPcie.p2pOff(pro, 1, new HashMap<>()).isEmpty());
        assertTrue(!HeaderPcie.oneSwitch(pro));
    }

    /**
     * The 8x RTX PRO 6000 file's header: "16x RTX PRO 6000 ..., 4x c-payne PCIe Gen5 switches (4 GPUs each); test uses
     * 8-GPU groups": its 8-rank runs get a synthesized host of 8 GPUs in 2 switches of 4, not one switch per GPU;
     * the 4x RTX PRO 6000 file ("direct-attach to CPU, no PCIe switch") keeps one per GPU and the 2x RTX 2080 Ti file
     * ("behind one PCIe switch") all behind one.
     */
    @Test
    void headerGpusPerSwitch() throws Exception {
        String file = "A-allreduce-1x8xRTXPRO6000-wrx90-cpayne-pcie-switches-torchdist-ring-nccl2.27.txt";
        Dataset d = Corpus.read(file).get(0);
        assertEquals(4, HeaderPcie.gpusPerSwitch(d, 8));
        assertEquals(2, HeaderPcie.gpusPerSwitch(d, 2), "at most the host's GPUs");
        ClusterGuess g = guess(file);
        assertTrue(says(g, "4 GPUs behind each of 2"), g.assumptions().toString());
        Dataset direct = Corpus.read("A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt").get(0);
        assertEquals(1, HeaderPcie.gpusPerSwitch(direct, 4));
        Dataset one = Corpus.read("A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt")
                .get(0);
        assertEquals(2, HeaderPcie.gpusPerSwitch(one, 2));
    }

    /**
     * The RTX PRO 6000 file's two runs name their transport in their titles, "Stock (SHM)" and "Patched (P2P)"
     * (NCCL 2.29.7 connected the PHB pairs with SHM; the patched build with P2P): the first is modelled with
     * NCCL_P2P_DISABLE=1, the second with NCCL_P2P_LEVEL=SYS; the header sets neither for both runs. A run that sets a
     * P2P variable itself keeps it, and the 2080 Ti runs (no transport in their titles) get nothing from this rule.
     */
    @Test
    void transportNamedInTheRunTitle() throws Exception {
        List<Dataset> pro = Corpus.read("A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt");
        assertEquals(List.of("Stock (SHM)", "Patched (P2P)"), pro.stream().map(Dataset::label).toList());
        Map<String, String> shm = new HashMap<>(pro.get(0).env());
        assertTrue(HeaderPcie.runTransport(pro.get(0), 1, shm).isPresent());
        assertEquals(Map.of("NCCL_P2P_DISABLE", "1"), shm);
        Map<String, String> p2p = new HashMap<>(pro.get(1).env());
        assertTrue(HeaderPcie.runTransport(pro.get(1), 1, p2p).isPresent());
        assertEquals(Map.of("NCCL_P2P_LEVEL", "SYS"), p2p);
        assertTrue(HeaderPcie.runTransport(pro.get(0), 1, new HashMap<>(Map.of("NCCL_P2P_LEVEL", "PHB"))).isEmpty(),
                "a run's own P2P setting wins");
        assertTrue(HeaderPcie.runTransport(pro.get(0), 2, new HashMap<>()).isEmpty(), "one host only");
        Dataset rtx = Corpus.read("A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt")
                .get(0);
        assertTrue(HeaderPcie.runTransport(rtx, 1, new HashMap<>()).isEmpty());
    }
}
