package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Nic;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.MeasurementReader;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * A user's 2x8 all_reduce log from AWS whose header names no instance, but whose NCCL INFO lines show aws-ofi-nccl's
 * EFA provider ({@code NET/OFI Selected Provider is efa (found 32 nics)}, the plugin's form in
 * {@code src/nccl_ofi_net.c}): only AWS runs EFA, and the catalog's data file (systems.tsv) has one EFA system with
 * H100 SXM GPUs, p5.48xlarge (32 x 100 Gb/s EFA per host), so compare models that instance, not a DGX H100 with
 * InfiniBand NICs. With H200 GPUs two EFA systems qualify (p5e.48xlarge and p5en.48xlarge): none is chosen and the
 * GPU's own catalog host, dgx-h200, stays. Made-up rows.
 */
class SystemByNetworkTest {

    private static Dataset log(String gpu) {
        StringBuilder sb = new StringBuilder("# nThread 1 nGpus 1 minBytes 1048576 maxBytes 4194304 step: 4(factor)"
                + " warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n");
        for (int r = 0; r < 16; r++) {
            sb.append(String.format(Locale.ROOT, "#  Rank %2d Group  0 Pid %6d on %13s device  %d [0x%02x] %s%n", r,
                    1000 + r, r < 8 ? "ip-10-1-12-41" : "ip-10-1-13-7", r % 8, 0x53 + r % 8, gpu));
        }
        sb.append("ip-10-1-12-41:1000:1021 [0] NCCL INFO NET/OFI Selected Provider is efa (found 32 nics)\n"
                + "ip-10-1-12-41:1000:1021 [0] NCCL INFO Using network AWS Libfabric\n");
        sb.append("#       size         count      type   redop    root     time   algbw   busbw #wrong     time"
                + "   algbw   busbw #wrong\n#        (B)    (elements)                               (us)  (GB/s)"
                + "  (GB/s)            (us)  (GB/s)  (GB/s)\n");
        sb.append("     1048576        262144     float     sum      -1    250.0    4.19    7.86      0    251.0"
                + "    4.18    7.83      0\n     4194304       1048576     float     sum      -1    380.0   11.04"
                + "   20.70      0    381.0   11.01   20.64      0\n");
        sb.append("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 14.26\n#\n");
        return MeasurementReader.read("user.txt", sb.toString()).get(0);
    }

    @Test
    void anEfaLogOfH100IsComparedOnTheOneEfaSystemOfThatGpu() throws Exception {
        ClusterGuess g = ClusterGuesser.guess(log("NVIDIA H100 80GB HBM3")).orElseThrow();
        assertEquals("catalog:p5.48xlarge", g.source());
        assertEquals(2, g.topology().hostCount());
        // the log's 32 EFA devices, as aws-ofi-nccl's RDMA protocol presents them: 8 of 4 rails (OfiRailGroups)
        assertEquals(8, g.topology().devices(Nic.class).stream()
                .filter(n -> n.host() == 0 && n.rail() >= 0).count());
        assertTrue(g.assumptions().stream().anyMatch(a -> a.startsWith("system p5.48xlarge, the one catalog system"
                + " of the file's GPU (H100 SXM) over AWS EFA (aws-ofi-nccl), read from the NCCL INFO log")),
                g.assumptions().toString());
    }

    @Test
    void twoEfaSystemsOfTheGpuLeaveTheGpusOwnHost() throws Exception {
        ClusterGuess g = ClusterGuesser.guess(log("NVIDIA H200")).orElseThrow();
        assertEquals("catalog:dgx-h200", g.source());
        assertTrue(g.assumptions().stream().noneMatch(a -> a.startsWith("system ")), g.assumptions().toString());
    }

    /**
     * GCP's two GPU-direct TCP plugins are two network classes, each of one catalog system with H100 SXM GPUs
     * (systems.tsv: a3-highgpu-8g runs GPUDirect-TCPX, a3-megagpu-8g GPUDirect-TCPXO; GCP's page in their rows), so
     * a header naming only the plugin picks its machine type. Made-up row.
     */
    @Test
    void eachGcpTcpPluginNamesItsOneH100System() throws Exception {
        for (String[] c : new String[][] {{"GPUDirect-TCPX", "catalog:a3-highgpu-8g"},
                {"GPUDirect-TCPXO", "catalog:a3-megagpu-8g"}}) {
            String text = "#@ source: made up\n#@ hardware: 8x NVIDIA H100 80GB per VM\n#@ nodes_x_gpus: 2x8\n"
                    + "#@ interconnect: NVLink4/NVSwitch intra-node; " + c[0] + " between VMs\n\n"
                    + "#       size         count      type   redop    root     time   algbw   busbw #wrong     time"
                    + "   algbw   busbw #wrong\n"
                    + "   536870912       8388608     float    none      -1   7098.6   75.63   70.90    N/A   7054.3"
                    + "   76.11   71.35    N/A\n";
            Dataset d = MeasurementReader.read("gcp.txt", text).get(0);
            assertEquals(c[1], ClusterGuesser.guess(d).orElseThrow().source(), c[0]);
        }
    }
}
