package dev.collsim.topology.io;

import dev.collsim.topology.io.xml.NcclGraphDump;
import dev.collsim.topology.io.xml.NcclGraphXmlReader;

import static dev.collsim.topology.io.TestFiles.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.topology.PathType;
import dev.collsim.topology.io.xml.NcclGraphDump.Graph;
import dev.collsim.topology.GraphPattern;
import dev.collsim.topology.io.xml.NcclGraphDump.Step;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reads Azure's vendor-shipped NCCL_GRAPH_FILE for NC A100 v4 (C-graph-azure-ncv4-4xA100pcie.xml). The expected
 * values were read off the file by hand: three graphs (ring, tree, tree), speeds 12 GB/s, types SYS/PIX.
 */
class NcclGraphXmlReaderTest {

    private final NcclGraphXmlReader reader = new NcclGraphXmlReader();

    @Test
    void azureNcv4GraphFileHasARingOfTwoChannelsAndTwoTreesOfFour() throws InputException {
        NcclGraphDump dump = reader.read("ncv4-graph.xml", text("C-graph-azure-ncv4-4xA100pcie.xml"));
        assertEquals(1, dump.version());
        assertEquals(3, dump.graphs().size());
        Graph ring = dump.graphs().get(0);
        assertEquals(0, ring.id());
        assertEquals(GraphPattern.RING, ring.pattern());
        assertEquals(2, ring.nChannels());
        assertEquals(12.0, ring.bwIntra());
        assertEquals(12.0, ring.bwInter());
        assertEquals(PathType.SYS, ring.typeIntra());
        assertEquals(PathType.PIX, ring.typeInter());
        assertEquals(0, ring.crossNic());
        assertEquals(0, ring.sameChannels());
        assertEquals(List.of(0, 1, 2, 3), ring.channels().get(0).gpuOrder());
        assertEquals(List.of(0, 3, 2, 1), ring.channels().get(1).gpuOrder());
        Graph tree = dump.graphs().get(1);
        assertEquals(GraphPattern.BALANCED_TREE, tree.pattern());
        assertEquals(4, tree.nChannels());
        assertEquals(List.of(1, 0, 3, 2), tree.channels().get(1).gpuOrder());
        assertEquals(List.of(2, 3, 0, 1), tree.channels().get(3).gpuOrder());
        Graph chain = dump.graphs().get(2);
        assertEquals(2, chain.id());
        assertEquals(GraphPattern.TREE, chain.pattern());
        assertEquals(List.of(3, 2, 1, 0), chain.channels().get(2).gpuOrder());
        assertTrue(reader.accepts(text("C-graph-azure-ncv4-4xA100pcie.xml")));
    }

    @Test
    void badTypesAndAChannelCountThatDisagreesAreAllReported() {
        String xml = """
                <graphs version="1">
                  <graph id="0" pattern="4" nchannels="2" speedintra="fast" speedinter="12" typeintra="NVLINK" typeinter="PIX">
                    <channel><net dev="0"/><gpu dev="0"/><net dev="x"/></channel>
                  </graph>
                </graphs>
                """;
        InputException e = assertThrows(InputException.class, () -> reader.read("g.xml", xml));
        List<String> p = e.problems().stream().map(Object::toString).toList();
        assertEquals(4, p.size(), p.toString());
        assertTrue(p.get(0).startsWith("g.xml:2:29: graph.nchannels: found 2 but the graph holds 1"), p.get(0));
        assertTrue(p.get(1).startsWith("g.xml:2:43: graph.speedintra: found 'fast'"), p.get(1));
        assertTrue(p.get(2).startsWith("g.xml:2:77: graph.typeintra: found 'NVLINK'; allowed: one of [LOC, NVL"),
                p.get(2));
        assertTrue(p.get(3).startsWith("g.xml:3:47: net.dev: found 'x'"), p.get(3));
    }

    /**
     * NCCL 2.28.9 reads a channel's {@code dev} with {@code strtol(str, NULL, 16)} ({@code src/graph/search.cc
     * ncclTopoGetChannelFromXml}): {@code "10"} is 16 and {@code "0x1f"} is 31, {@code "0"} is 0. A device of host 1
     * of a multi-node NVLink system is {@code NCCL_TOPO_ID(1, dev)} = {@code (1 << 56) + dev} ({@code
     * src/graph/topo.h}), as NCCL's {@code "%#lx"} writes it: GPU 3 of system 1 is {@code 0x100000000000003}, NET 2
     * of system 0x7f is {@code 0x7f00000000000002}.
     */
    @Test
    void devIsReadInHexAsNcclReadsItWithTheSystemIdInTheHighBits() throws InputException {
        String xml = """
                <graphs version="1">
                  <graph id="0" pattern="4" nchannels="1" speedintra="20" speedinter="20" typeintra="NVL" typeinter="PIX">
                    <channel><net dev="10"/><gpu dev="0"/><gpu dev="0x1f"/><gpu dev="0x100000000000003"/><net dev="0x7f00000000000002"/></channel>
                  </graph>
                </graphs>
                """;
        List<Step> steps = reader.read("g.xml", xml).graphs().get(0).channels().get(0).devices();
        assertEquals(List.of(new Step(true, 0, 16), new Step(false, 0, 0), new Step(false, 0, 31),
                new Step(false, 1, 3), new Step(true, 127, 2)), steps);
    }

    /**
     * Refused, each with its place and what is allowed: a device index of 576 ({@code 0x240}, one past NCCL's
     * {@code NCCL_TOPO_MAX_NODES} nodes of a type), a value above {@code LONG_MAX} (system id 128: NCCL's strtol
     * clamps it), a negative one, and text that is no hex number.
     */
    @Test
    void devOutsideNcclsTopologyIdsIsReportedWithItsPlace() {
        String xml = """
                <graphs version="1">
                  <graph id="0" pattern="4" nchannels="1" speedintra="20" speedinter="20" typeintra="NVL" typeinter="PIX">
                    <channel><net dev="0x240"/><gpu dev="0x8000000000000000"/><gpu dev="-1"/><net dev="1g"/></channel>
                  </graph>
                </graphs>
                """;
        InputException e = assertThrows(InputException.class, () -> reader.read("g.xml", xml));
        List<String> p = e.problems().stream().map(Object::toString).toList();
        assertEquals(4, p.size(), p.toString());
        assertTrue(p.get(0).startsWith("g.xml:3:19: net.dev: found '0x240' (device index 576); allowed: NCCL's"
                + " topology id in hex"), p.get(0));
        assertTrue(p.get(1).startsWith("g.xml:3:37: gpu.dev: found '0x8000000000000000'; allowed:"), p.get(1));
        assertTrue(p.get(2).startsWith("g.xml:3:68: gpu.dev: found '-1'; allowed:"), p.get(2));
        assertTrue(p.get(3).startsWith("g.xml:3:83: net.dev: found '1g'; allowed:"), p.get(3));
    }
}
