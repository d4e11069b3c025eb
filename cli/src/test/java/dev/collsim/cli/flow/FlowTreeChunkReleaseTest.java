package dev.collsim.cli.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code --nccl-version} reaches the flow backend's Tree chunk. The built-in report's 2:1 fat-tree variant (4 DGX
 * H100, 8 ports per leaf), 8 MiB AllReduce with {@code --schedule tree}: 16 channels (two trees per NIC), 8 per
 * tree, so each channel carries 8 MiB / 2 / 8 = 512 KiB; tree depth 9 (host tree over 4 hosts, depth 2, plus a chain
 * of 8 GPUs: 2 + 7). NCCL 2.30.7 keeps the 512 KiB Simple step at every size (src/enqueue.cc calcCollChunking has
 * the halving loop for CollNet only): 1 chunk, 1 + 2 x 9 - 1 = 18 steps of 512 KiB. NCCL 2.19 halves it
 * (v2.19.4-1 src/enqueue.cc computeColl, Tree/Simple; a given schedule takes the Simple rule): 8 MiB / (16 x
 * 512 KiB) = 1 < 72 -> 128 KiB (4), < 36 -> 64 KiB (8), < 9 -> 32 KiB (16): 16 chunks, 16 + 17 = 33 steps of
 * 32 KiB, about 33 / 16 = 2.1 steps' worth of 512 KiB on the busiest edge against 18: the same bytes over the same
 * edges, pipelined, so 2.19's time must be shorter.
 */
class FlowTreeChunkReleaseTest {

    private static List<String> row(String version) {
        CliRun r = CliRun.run("predict", "allreduce", "-c", "default", "--backend", "flow", "--fabric", "fat-tree",
                "--oversubscription", "2:1", "--leaf-radix", "8", "-d", "bfloat16", "-b", "8M", "-e", "8M",
                "--schedule", "tree", "--nccl-version", version);
        assertEquals(0, r.code(), r.err());
        List<List<String>> rows = r.out().lines().filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> List.of(l.trim().split("\\s+"))).toList();
        assertEquals(1, rows.size(), r.out());
        assertEquals("Tree", rows.get(0).get(9), r.out());
        return rows.get(0);
    }

    @Test
    void treeBeforeTwoTwentyPipelinesSmallerChunks() {
        double v219 = Double.parseDouble(row("2.19").get(5));
        double v230 = Double.parseDouble(row("2.30").get(5));
        assertTrue(v219 < v230, "2.19 " + v219 + " us, 2.30 " + v230 + " us");
    }
}
