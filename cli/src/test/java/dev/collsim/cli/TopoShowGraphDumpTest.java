package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        assertTrue(out.contains("collsim       12         30.0         30.0  NVL/PIX  same\n"
                + "                   GPU order same in 12 channels\n  1 tree"), out);
        assertTrue(out.contains("collsim       12         60.0         60.0  NVL/PIX  same\n"
                + "                   GPU order same in 12 channels\n"), out);
    }

    /**
     * Channel by channel: the dump's ring lists GPUs 0 then 1 in each of its 12 channels, its tree 0 then 1 in
     * channels 0-5 and 1 then 0 in 6-11 (read off the file). A copy with ring channel 3 turned round (1 then 0) is
     * no longer collsim's ring, first at channel 3; the tree still agrees.
     */
    @Test
    void aChannelTurnedRoundDiffersAtThatChannel(@TempDir Path dir) throws Exception {
        String dump = Files.readString(Path.of(RUN + "nccl-graph-dump.xml"));
        String pair = "<gpu dev=\"0\"/>\n      <gpu dev=\"0x1\"/>";
        int at = -1;
        for (int c = 0; c <= 3; c++) {
            at = dump.indexOf(pair, at + 1);
        }
        assertTrue(at > 0 && at < dump.indexOf("<graph id=\"1\""), "channel 3 of graph 0");
        Path edited = dir.resolve("graph-ring-channel3-turned.xml");
        Files.writeString(edited, dump.substring(0, at) + "<gpu dev=\"0x1\"/>\n      <gpu dev=\"0\"/>"
                + dump.substring(at + pair.length()));
        CliRun r = CliRun.run("topo", "show", "-c", RUN + "nccl-topo-dump.xml", "--graph-dump", edited.toString(),
                "--nccl-version", "2.28", "--env", "NCCL_NVLS_ENABLE=0");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("GPU order differs at channel 3: NCCL 1 0, collsim 0 1\n  1 tree"), r.out());
        assertTrue(r.out().contains("GPU order same in 12 channels\n  4 collnet"), r.out());
    }

    /**
     * A dump of a run over two nodes (hand-written, two ring channels): each channel begins with the NET it enters
     * the node by and ends with the one it leaves by (NCCL 2.28.9 {@code src/graph/search.cc
     * ncclTopoGetXmlFromChannel}: {@code inter[0]}, the GPUs, {@code inter[1]}; devs in hex as NCCL writes them). On
     * a DGX H100 (a NIC per GPU) collsim's ring pairs its channels over two NICs (crossNic 2), and NCCL's rule for
     * such a pair is that an odd channel enters by the NIC the channel before it left by ({@code
     * ncclTopoSearchRecNet}, line 681) and leaves by the one it entered by ({@code ncclTopoSearchCheckNet}, line
     * 563): collsim's second channel is its first turned round. The file's channel 0 is the DGX H100 pair's first
     * channel as {@code ChannelNics.searched} documents it (enters by NIC 0 at GPU 0, leaves by GPU 7's NIC 7); its
     * channel 1 enters by NET 3, which breaks the pairing rule: the NICs differ there. Without the run's two nodes (-c dgx-h100) nothing is compared.
     */
    @Test
    void aMultiNodeDumpNamesEachChannelsNics(@TempDir Path dir) throws Exception {
        String gpus = "<gpu dev=\"0\"/><gpu dev=\"1\"/><gpu dev=\"2\"/><gpu dev=\"3\"/><gpu dev=\"4\"/>"
                + "<gpu dev=\"5\"/><gpu dev=\"6\"/><gpu dev=\"7\"/>";
        Path dump = dir.resolve("graph.xml");
        Files.writeString(dump, "<graphs version=\"1\">\n  <graph id=\"0\" pattern=\"4\" crossnic=\"2\""
                + " nchannels=\"2\" speedintra=\"40\" speedinter=\"40\" latencyinter=\"0\" typeintra=\"NVL\""
                + " typeinter=\"PIX\" samechannels=\"0\">\n"
                + "    <channel><net dev=\"0\"/>" + gpus + "<net dev=\"0x7\"/></channel>\n"
                + "    <channel><net dev=\"0x3\"/>" + gpus + "<net dev=\"0\"/></channel>\n  </graph>\n</graphs>\n");
        CliRun r = CliRun.run("topo", "show", "-c", "dgx-h100x2", "--graph-dump", dump.toString(), "--nccl-version",
                "2.28");
        assertEquals(0, r.code(), r.err());
        String nics = r.out().lines().dropWhile(l -> !l.contains("NICs in>out")).limit(2)
                .reduce("", (a, b) -> a + b + "\n");
        assertTrue(nics.contains("NICs in>out  NCCL    0>7 3>0\n"), r.out());
        String[] ours = nics.lines().skip(1).findFirst().orElseThrow().trim().split("\\s+");
        assertEquals("collsim", ours[0], nics);
        String[] first = ours[1].split(">");
        assertEquals(first[1] + ">" + first[0], ours[2], "the pair's second channel turns the first round: " + nics);
        assertEquals("differs at channel 1", ours[3] + " " + ours[4] + " " + ours[5] + " " + ours[6], nics);
        CliRun one = CliRun.run("topo", "show", "-c", "dgx-h100", "--graph-dump", dump.toString());
        assertTrue(one.out().contains("GPU order not compared: the dump's channels pass through NETs"), one.out());
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
