package dev.collsim.cli.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The flow and links backends charge no protocol or launch latency (docs/flow-backend.md), so their small sizes are
 * faster than NCCL's own latency; such rows carry a {@code below-latency} mark (text), {@code note} column (CSV) and
 * {@code note} key (JSON), explained by one header line. NCCL 2.28.9 src/graph/tuning.cc ncclTunerConstantsDefaults:
 * the smallest base latency of any algorithm is Ring/LL's 6.6 us (Tree 6.8, PAT 8.0, NVLS 0 but its NVLink hardware
 * latency is 25 us), so no all_reduce on 8 H100 of one host costs less than 6.6 us in NCCL's model.
 */
class FlowBelowLatencyTest {

    private static List<String> rows(String out) {
        return out.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
    }

    /**
     * 1 KiB: the flow time is 2 x 7/8 x 1024 B / 450 GB/s (busbw of the NVSwitch ports) = 0.004 us, below 6.6 us:
     * marked. 256 MiB: 2 x 7/8 x 268435456 B / 450 GB/s = 1043.9 us, far above any NCCL latency: not marked.
     */
    @Test
    void smallFlowRowsAreMarkedLargeOnesAreNot() {
        CliRun r = CliRun.run("predict", "--backend", "flow", "-c", "dgx-h100", "allreduce", "-b", "1K", "-e", "256M",
                "-f", "262144");
        assertEquals(0, r.code(), r.err());
        List<String> rows = rows(r.out());
        assertEquals(2, rows.size(), r.out());
        assertTrue(rows.get(0).startsWith("        1024") && rows.get(0).endsWith("  below-latency"), rows.get(0));
        assertTrue(rows.get(1).contains("1043.9") && !rows.get(1).contains("below-latency"), rows.get(1));
        assertTrue(r.out().contains("# below-latency: the time is below "), r.out());
        assertTrue(r.out().contains("read these sizes from --backend analytical"), r.out());
    }

    /**
     * Two hosts, 8 B on the links backend: one route latency (1.20 us, the issue's figure), below NCCL's Tree/LL base
     * latency of 6.8 us alone (2.28.9 tuning.cc), so the CSV's note column and the JSON's note say below-latency.
     */
    @Test
    void csvAndJsonCarryTheMark() {
        String[] common = {"predict", "--backend", "links", "-c", "dgx-h100x2", "allreduce", "-b", "8", "-e", "8"};
        CliRun csv = CliRun.run(with(common, "csv"));
        assertEquals(0, csv.code(), csv.err());
        List<String> lines = csv.out().lines().toList();
        assertTrue(lines.get(0).endsWith(",links_bus_bw,note"), lines.get(0));
        assertTrue(lines.get(1).endsWith(",below-latency"), lines.get(1));
        CliRun json = CliRun.run(with(common, "json"));
        assertEquals(0, json.code(), json.err());
        assertTrue(json.out().contains("\"note\" : \"below-latency\""), json.out());
        CliRun analytical = CliRun.run("predict", "-c", "dgx-h100x2", "allreduce", "-b", "8", "-e", "8");
        assertFalse(analytical.out().contains("below-latency"), "the analytical backend is the floor itself");
    }

    private static String[] with(String[] common, String format) {
        String[] a = Arrays.copyOf(common, common.length + 2);
        a[common.length] = "--format";
        a[common.length + 1] = format;
        return a;
    }
}
