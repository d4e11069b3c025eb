package dev.collsim.cli.validation;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code collsim diagnose FILE} without {@code -c} on a plain 2x8 H100 all_reduce log from AWS: no {@code #@} lines,
 * and aws-ofi-nccl's INFO lines name the EFA provider but no NIC speed, so the bound was "unknown" while compare
 * modelled the run on p5.48xlarge (the one catalog system of H100 SXM over EFA, systems.tsv). Now diagnose judges it
 * by that system's NICs, as compare models it: the 32 EFA cards of 100 Gb/s per host (AWS p5 documentation: 32 network
 * cards, 3,200 Gbps) as aws-ofi-nccl presents them to NCCL, 8 devices of 4 x 100 = 400 Gb/s
 * (topology.catalog.OfiRailGroups), all 8 local to the run's 8 GPUs per host. Made-up rows.
 */
class DiagnoseShownSystemCliTest {

    @TempDir
    Path dir;

    @Test
    void anEfaLogIsJudgedByTheSystemItShows() throws Exception {
        StringBuilder sb = new StringBuilder("# nThread 1 nGpus 1 minBytes 8388608 maxBytes 33554432 step: 4(factor)"
                + " warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n");
        for (int r = 0; r < 16; r++) {
            sb.append(String.format(Locale.ROOT, "#  Rank %2d Group  0 Pid %6d on %13s device  %d [0x%02x] NVIDIA H100"
                    + " 80GB HBM3%n", r, 1000 + r, r < 8 ? "ip-10-1-12-41" : "ip-10-1-13-7", r % 8, 0x53 + r % 8));
        }
        sb.append("ip-10-1-12-41:1000:1021 [0] NCCL INFO NET/OFI Selected Provider is efa (found 32 nics)\n"
                + "ip-10-1-12-41:1000:1021 [0] NCCL INFO Using network AWS Libfabric\n");
        sb.append("#       size         count      type   redop    root     time   algbw   busbw #wrong     time"
                + "   algbw   busbw #wrong\n#        (B)    (elements)                               (us)  (GB/s)"
                + "  (GB/s)            (us)  (GB/s)  (GB/s)\n");
        sb.append("     8388608       2097152     float     sum      -1    453.9   18.48   34.65      0    451.2"
                + "   18.59   34.86      0\n    33554432       8388608     float     sum      -1    623.6   53.81"
                + "  100.90      0    623.6   53.81  100.90      0\n");
        sb.append("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 67.83\n#\n");
        Path f = Files.writeString(dir.resolve("p5.log"), sb.toString());
        CliRun r = run("diagnose", f.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("network 8 x 400 Gb/s per host (the NICs local to 8 GPU(s) of the 8 per host of"
                + " p5.48xlarge (the one catalog system of the file's GPU over its network; -c to name another))"),
                r.out());
        assertFalse(r.out().contains("bound unknown"), r.out());
    }
}
