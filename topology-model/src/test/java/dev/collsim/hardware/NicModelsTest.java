package dev.collsim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The NIC database: families by free text, and a NIC's link at the lower of its own and its port's generation. */
class NicModelsTest {

    /**
     * Datasheets: ConnectX-6 PCIe Gen4 x16, ConnectX-7 Gen5 x16, ConnectX-8 Gen6 x16 (host link), BlueField-3 Gen5
     * x16; EFA's PCIe interface is not published, so it names no family.
     */
    @Test
    void familiesByText() {
        assertEquals(PcieGen.GEN4, NicModels.find("HDR 200G ConnectX-6").orElseThrow().pcieGen());
        assertEquals(PcieGen.GEN5, NicModels.find("4x CX-7 InfiniBand").orElseThrow().pcieGen());
        assertEquals(PcieGen.GEN5, NicModels.find("ConnectX7").orElseThrow().pcieGen());
        assertEquals(PcieGen.GEN6, NicModels.find("ConnectX-8 SuperNIC").orElseThrow().pcieGen());
        assertEquals(PcieGen.GEN5, NicModels.find("NVIDIA BlueField-3 DPU").orElseThrow().pcieGen());
        assertEquals(16, NicModels.find("ConnectX-7").orElseThrow().lanes());
        assertTrue(NicModels.find("EFA v2").isEmpty());
        assertTrue(NicModels.find(null).isEmpty());
    }

    /** PCIe link training settles on the lower generation and the fewer lanes of the two ends. */
    @Test
    void linkIsTheLowerOfNicAndPort() {
        NicModel cx7 = NicModels.find("ConnectX-7").orElseThrow();
        assertEquals(PcieGen.GEN5, cx7.link(PcieGen.GEN6));
        assertEquals(PcieGen.GEN4, cx7.link(PcieGen.GEN4));
        assertEquals(8, cx7.linkWidth(8));
        assertEquals(16, cx7.linkWidth(16));
        assertThrows(IllegalArgumentException.class, () -> new NicModel("x", PcieGen.GEN5, 0, 400, "none"));
        assertThrows(IllegalArgumentException.class, () -> new NicModel("x", PcieGen.GEN5, 16, 0, "none"));
    }

    /** Port speeds from the datasheets: ConnectX-6 HDR 200, ConnectX-7 NDR 400, ConnectX-8 XDR 800, BlueField-3 400 Gb/s. */
    @Test
    void portSpeeds() {
        assertEquals(200, NicModels.find("ConnectX-6").orElseThrow().portGbits());
        assertEquals(400, NicModels.find("ConnectX-7").orElseThrow().portGbits());
        assertEquals(800, NicModels.find("ConnectX-8").orElseThrow().portGbits());
        assertEquals(400, NicModels.find("BlueField-3").orElseThrow().portGbits());
    }
}
