package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.hardware.GpuModels;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.units.Bandwidth;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * NCCL's ring search on 8 RTX PRO 6000 Blackwell (sm120) in two PCIe Gen5 switches of 4 under one CPU, P2P at every
 * distance ({@code NCCL_P2P_LEVEL=SYS}): the host of
 * {@code A-allreduce-1x8xRTXPRO6000-wrx90-cpayne-pcie-switches-torchdist-ring-nccl2.27.txt} ("4x c-payne PCIe Gen5
 * switches (4 GPUs each); test uses 8-GPU groups"), worked by hand from {@code src/graph/search.cc ncclTopoCompute}.
 *
 * <p>Every link is Gen5 x16, NCCL's 16 x 240 / 80 = 48 GB/s ({@code src/graph/topo.cc}), so maxBw = totalBw = 48. sm120
 * takes {@code sm100SpeedArrayIntra}. NCCL 2.28.9 (90, 80, 70, 60, 50, 40, 30, 24, ...; the same array in 2.27.5):
 * the first speed <= 48 is 40, one ring (2 x 40 would need 80 on a GPU link), 40 < totalBw, so the speed drops while
 * next / best > 0.49: 30 (one channel, 30 < 40 kept out), 24 (two channels, 48: better, and = totalBw: done). NCCL
 * 2.30.7 adds 45 to the array: one ring of 45, then 40, 30 (one channel each), 24 (24 / 45 = 0.53 > 0.49: two
 * channels, 48 > 45: kept, done). Both: 2 x 24, not duplicated (bwIntra 24 < 25, {@code ncclTopoDupChannels}), and
 * each uplink carries one ring crossing per direction and channel (2 x 24 = 48, within its 48). At run time
 * {@code ncclTopoPostset} doubles the channels: 4. The worst hop is a crossing through the CPU: typeIntra PHB.
 */
class PcieSwitchRingSearchTest {

    @ParameterizedTest
    @EnumSource(NcclVersion.class)
    void twoSwitchesOfFourGiveTwoRingsOf24(NcclVersion v) {
        Topology t = Catalog.standalone(new SynthesizedHost(GpuModels.sku("RTX PRO 6000 Blackwell").orElseThrow(), 8,
                Bandwidth.ofGbits(400), 4), 1);
        ChannelPlan p = ChannelSearch.search(t, t.gpus(), NcclSettings.parse(Map.of("NCCL_P2P_LEVEL", "SYS")), v);
        GraphSummary r = p.graphs().ring();
        assertEquals(2, r.nChannels(), "ring channels");
        assertEquals(24.0, r.bwIntra(), 1e-9, "ring GB/s per channel");
        assertEquals(PathType.PHB, r.typeIntra());
        assertEquals(4, p.runtimeChannels());
    }
}
