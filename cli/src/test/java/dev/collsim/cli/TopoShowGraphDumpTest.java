package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@code topo show --graph-dump} on the real dumps of one run on 2 x H200 (data/device/h200x2-2026-11-29: NCCL 2.28,
 * NCCL_NVLS_ENABLE=0, {@code nccl-topo-dump.xml} and {@code nccl-graph-dump.xml} from the same communicator). The NCCL
 * rows are read off the graph file by hand: graph 0 (ring) {@code nchannels="12" speedintra="30" speedinter="30"
 * typeintra="NVL" typeinter="PIX"}, graph 1 (tree) 12 channels at 60, graphs 2, 3, 4 empty. By hand from NCCL 2.28.9
 * {@code src/graph/search.cc}: the GPUs' 18 NVLink4 links at NCCL's 20.6 GB/s are 370.8 GB/s, which holds 6 ring
 * channels at the top sm90 speed, 60 ({@code sm90SpeedArrayIntra}); {@code ncclTopoDupChannels} doubles them to 12
 * at 60 / 2 = 30 (60 is not below 25, nor below 50).
 */
class TopoShowGraphDumpTest {

    private static final String RUN = "../data/device/h200x2-2026-11-29/";

    @Test
    void collsimsSearchFindsTheGraphsNcclDumpedOnTwoH200() {
        CliRun r = CliRun.run("topo", "show", "-c", RUN + "nccl-topo-dump.xml", "--graph-dump",
                RUN + "nccl-graph-dump.xml", "--nccl-version", "2.28", "--env", "NCCL_NVLS_ENABLE=0");
        assertEquals(0, r.code(), r.err());
        String out = r.out();
        assertTrue(out.contains("vs collsim's search (2 GPUs, NCCL 2.28.9, NCCL_NVLS_ENABLE=0)"), out);
        assertTrue(out.contains("  0 ring           NCCL          12         30.0         30.0  NVL/PIX\n"
                + "                   collsim       12         30.0         30.0  NVL/PIX  same\n"), out);
        assertTrue(out.contains("  1 tree           NCCL          12         60.0         60.0  NVL/PIX\n"
                + "                   collsim       12         60.0         60.0  NVL/PIX  same\n"), out);
        assertTrue(out.contains("  3 nvls           NCCL           0  (no graph)\n"
                + "                   collsim        0  (no graph)  same\n"), out);
        assertTrue(!out.contains("differs"), out);
    }

    /**
     * The topology file lists the GPUs' NVLinks to NVSwitches, so without the run's NCCL_NVLS_ENABLE=0 NCCL's own
     * rule would search an NVLS graph (NCCL 2.28.9 {@code src/init.cc}: only when {@code comm->nvlsSupport}) and the
     * dump, which has none, differs.
     */
    @Test
    void withoutTheRunsSettingsTheNvlsGraphDiffers() {
        CliRun r = CliRun.run("topo", "show", "-c", RUN + "nccl-topo-dump.xml", "--graph-dump",
                RUN + "nccl-graph-dump.xml", "--nccl-version", "2.28");
        assertEquals(0, r.code(), r.err());
        String nvls = r.out().substring(r.out().indexOf("  3 nvls"));
        assertTrue(nvls.lines().skip(1).findFirst().orElse("").endsWith("differs"), nvls);
    }

    @Test
    void aTopologyFileGivenAsTheGraphDumpIsRefusedWithWhereItWent() {
        CliRun r = CliRun.run("topo", "show", "-c", RUN + "nccl-topo-dump.xml", "--graph-dump",
                RUN + "nccl-topo-dump.xml");
        assertEquals(3, r.code(), r.out());
        assertTrue(r.err().contains("nccl-topo-dump.xml:") && r.err().contains("<graphs"), r.err());
    }
}
