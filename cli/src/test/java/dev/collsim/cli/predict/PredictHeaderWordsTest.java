package dev.collsim.cli.predict;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Words of predict's header and first error that a user reads as facts: the nccl-tests binary the rank line names,
 * the ranks per node of an uneven layout, and which error a mistyped bandwidth gets first.
 */
class PredictHeaderWordsTest {

    private static CliRun ok(String... args) {
        CliRun r = run(args);
        assertEquals(0, r.code(), String.join(" ", args) + "\n" + r.err());
        return r;
    }

    /** nccl-tests names its binaries {@code <test>_perf}: AllToAll runs alltoall_perf, not all_reduce_perf. */
    @Test
    void rankLineNamesTheCollectivesBinary() {
        String out = ok("predict", "-c", "dgx-h100x2", "alltoall", "-b", "1G", "-e", "1G").out();
        assertTrue(out.contains("(as mpirun -np <GPUs> alltoall_perf -g 1)"), out);
        assertFalse(out.contains("all_reduce_perf -g 1"), out);
        String b = ok("predict", "-c", "dgx-h100x2", "broadcast", "-b", "1G", "-e", "1G").out();
        assertTrue(b.contains("broadcast_perf -g 1"), b);
    }

    /** 9 ranks on two 8-GPU hosts are 8 on the first and 1 on the second (ranks fill hosts in order). */
    @Test
    void unevenLayoutIsNamedHostByHost() {
        String out = ok("predict", "-c", "dgx-h100x2", "--ranks", "9", "allreduce", "-b", "1G", "-e", "1G").out();
        assertTrue(out.contains("9 ranks on 2 NCCL node(s), 8 + 1 per node"), out);
        String even = ok("predict", "-c", "dgx-h100x2", "allreduce", "-b", "1G", "-e", "1G").out();
        assertTrue(even.contains("16 ranks on 2 NCCL node(s), 8 per node"), even);
    }

    /** A bandwidth typo is named before the rules about which options need --backend flow or --fabric. */
    @Test
    void mistypedLinkSpeedIsTheFirstError() {
        CliRun r = run("predict", "-c", "dgx-h100x2", "--link-speed", "400Gbps", "allreduce", "-b", "1G", "-e", "1G");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("--link-speed") && r.err().contains("400Gbps"), r.err());
        assertFalse(r.err().contains("needs --backend"), r.err());
        assertFalse(r.err().contains("internal error"), r.err());
    }

    /** picocli wraps descriptions at dots; the sweep line must not break inside "./collsim". */
    @Test
    void helpHasNoBrokenLauncherPath() {
        String help = ok("--help").out();
        assertFalse(help.contains(".\n") && help.contains("\n /collsim"), help);
        assertFalse(help.contains(" /collsim launcher"), help);
    }
    /**
     * The analytical backend times the leaf uplinks as a floor: on the shipped 2:1 fat-tree of 32 DGX H100
     * (configs/dgx-h100-32x-fattree-2to1.yaml: leaf radix 32, 4 hosts per leaf, U_i = 4 x 400 / 2 = 800 GB/s, G = 8)
     * a 1 GiB AllReduce may use 6400 / 14 = 457 GB/s of algbw across the uplinks, above the NICs' limit, so its row is
     * the non-blocking rail-optimized one's (configs/dgx-h100-32x-rail.yaml) and no '# fabric:' line is printed;
     * on 4 hosts one per leaf (leaf radix 8) at 2:1 the 8 GiB Ring is held to U_i = 200 GB/s of busbw and named,
     * the same whether the cluster is a YAML file or -c dgx-h100x4 rebuilt with --fabric (analytical backend).
     * The footer, where a user reads what is not modelled, names link sharing above the uplinks and --backend flow.
     */
    @Test
    void footerAndFabricLineSayWhatTheUplinksDo(@TempDir Path dir) throws IOException {
        String fat = ok("predict", "-c", "dgx-h100-32x-fattree-2to1", "allreduce", "-b", "1G", "-e", "1G").out();
        String rail = ok("predict", "-c", "dgx-h100-32x-rail", "allreduce", "-b", "1G", "-e", "1G").out();
        assertEquals(row(rail), row(fat));
        assertFalse(fat.contains("\n# fabric:"), fat);
        assertTrue(fat.contains("Not modelled: congestion from other jobs, link sharing above the leaf uplinks (ECMP"
                + " collisions: --backend flow)"), fat);
        Path four = dir.resolve("four.yaml");
        Files.writeString(four, "schema: collsim/v1\nname: f4\nhosts: dgx-h100\ncount: 4\nfabric:\n  kind: fat-tree\n"
                + "  oversubscription: \"2:1\"\n  leafRadix: 8\n  linkSpeed: 400 Gb/s\n");
        String small = ok("predict", "-c", four.toString(), "allreduce", "-b", "8G", "-e", "8G", "-d", "bfloat16")
                .out();
        String line = "# fabric: 1 of 1 sizes (from 8589934592 B) timed by the fabric leaf uplinks: busbw <= 200.0 GB/s"
                + " (4 leaf groups, 200.0 GB/s of uplink each)";
        assertTrue(small.contains(line), small);
        String rebuilt = ok("predict", "-c", "dgx-h100x4", "--fabric", "fat-tree", "--oversubscription", "2:1",
                "--leaf-radix", "8", "allreduce", "-b", "8G", "-e", "8G", "-d", "bfloat16").out();
        assertTrue(rebuilt.contains(line), rebuilt);
    }

    /**
     * NVLSTree runs on comm.nvlsChannels (16 on sm90 by NCCL's default), which NCCL_MAX_NCHANNELS does not clamp
     * (NCCL 2.30.7 src/enqueue.cc, src/transport/nvls.cc): one note says so; with Ring chosen there is none.
     */
    @Test
    void maxNchannelsNotReachingNvlsTreeIsNoted() {
        String out = ok("predict", "-c", "dgx-h100x2", "--env", "NCCL_MAX_NCHANNELS=4", "--algo", "NVLSTree",
                "allreduce", "-b", "1G", "-e", "1G").out();
        assertTrue(out.contains("# note: NCCL_MAX_NCHANNELS=4 does not apply to NVLSTree: it runs on the NVLS"
                + " channels (16)"), out);
        assertEquals(1, out.split("does not apply to", -1).length - 1, out);
        String ring = ok("predict", "-c", "dgx-h100x2", "--env", "NCCL_MAX_NCHANNELS=4", "--algo", "Ring",
                "allreduce", "-b", "1G", "-e", "1G").out();
        assertFalse(ring.contains("does not apply to"), ring);
    }

    private static String row(String out) {
        return out.lines().filter(l -> l.startsWith("  1073741824")).findFirst().orElseThrow();
    }

    /**
     * A launch line placing its 8 ranks on one host of a two-host cluster (torchrun --nproc_per_node 8: one node) is
     * one NCCL node, so the calibration line names the one-host NVSwitch class of a DGX H100 (8 H100 on NVSwitch),
     * not the InfiniBand class of the two hosts, which a run over all 16 GPUs gets; tune's band follows the same class.
     */
    @Test
    void ranksOnOneHostOfTwoGetTheOneHostClass() {
        String one = ok("predict", "-c", "dgx-h100x2", "torchrun", "--nproc_per_node", "8", "all_reduce_perf", "-b",
                "1M", "-e", "1M").out();
        assertTrue(one.contains("none shipped for hopper-1host-nvswitch"), one);
        assertFalse(one.contains("hopper-infiniband"), one);
        String all = ok("predict", "-c", "dgx-h100x2", "all_reduce_perf", "-b", "1M", "-e", "1M").out();
        assertTrue(all.contains("none shipped for hopper-infiniband"), all);
        String tune = ok("tune", "-c", "dgx-h100x2", "--ranks", "8", "all_reduce").out();
        assertTrue(tune.contains("none shipped for hopper-1host-nvswitch"), tune);
    }
}
