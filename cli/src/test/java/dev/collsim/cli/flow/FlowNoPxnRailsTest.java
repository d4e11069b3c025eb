package dev.collsim.cli.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * The NIC a ring channel uses with and without PXN (NCCL_PXN_DISABLE, {@code --no-pxn}) on hosts with fewer NICs
 * than GPUs. NCCL gives every rank of a channel the channel's NIC ({@code src/graph/search.cc ncclTopoGetNetDev}:
 * {@code graph->inter[channel * 2 + index]}); PXN only decides whether the sending GPU reaches it through an NVLink
 * peer ({@code ncclTopoGetIntermediateRank}). NCCL's ring search (first pass {@code crossNic} 0) closes each chain
 * from a GPU local to the entry NIC when one is left, so on an NVSwitch host with 2 NICs the ring enters at GPU 0 and
 * leaves from GPU 1, both on NIC 0, with or without PXN.
 *
 * <p>Fixture {@code machines/two-nic-h100x2.yaml}: 2 hosts of 8 H100 on NVSwitch, NIC 0 next to GPUs 0, 1 and NIC 1
 * next to GPUs 4, 5, 200 Gb/s each; rail-optimized with 4:1 leaf uplinks (one leaf per rail, 2 x 25 GB/s of host
 * ports over 12.5 GB/s of uplinks). A ring AllReduce's busbw is the per-host network bandwidth when every channel
 * stays on its rail: 2 x 25 = 50 GB/s. Chains leaving from the GPU before their entry (7 and 3 for the channels
 * entering at 0 and 4) took that GPU's own NIC without PXN, crossing rails over the 4:1 uplinks: 24.98 GB/s.
 */
class FlowNoPxnRailsTest {

    private static double busBw(String... extra) {
        String[] base = {"predict", "allreduce", "-c", "../cli/src/test/resources/machines/two-nic-h100x2.yaml",
            "-b", "1G", "-e", "1G", "--backend", "flow", "--schedule", "ring", "--fabric", "rail-optimized",
            "--oversubscription", "4:1"};
        String[] args = new String[base.length + extra.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        CliRun r = CliRun.run(args);
        assertEquals(0, r.code(), r.err());
        String row = r.out().lines().filter(l -> l.trim().startsWith("1073741824")).findFirst().orElseThrow();
        return Double.parseDouble(row.trim().split("\\s+")[7]);
    }

    @Test
    void ringChannelsStayOnTheirRailWithAndWithoutPxn() {
        for (String[] extra : new String[][] {{}, {"--no-pxn"}}) {
            double bw = busBw(extra);
            assertTrue(bw > 49 && bw <= 50, String.join(" ", extra) + ": " + bw);
        }
    }
}
