package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.hardware.PcieGen;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.catalog.HostContext;
import dev.collsim.units.Bandwidth;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The GPUs local to a NIC ({@link LocalNet#localGpus}) as NCCL 2.30.7 finds them: {@code ncclTopoGetLocal} from the
 * NET node over paths whose bandwidth is the least over their links ({@code src/graph/paths.cc
 * ncclTopoComputePaths}), the first link being the NET link at the port speed ({@code src/graph/topo.cc
 * ncclTopoAddNet}: {@code ncclTopoConnectNodes(net, nic, LINK_NET, net->net.bw)}).
 */
class LocalNetTest {

    /**
     * One CPU with two PCIe switches on Gen5 x16 root ports. Switch 0 holds GPU0 on a Gen4 x16 link and the NIC on
     * Gen5 x16; switch 1 holds GPU1 on Gen5 x16. NCCL bandwidths (topo.h: x16 Gen4 24, Gen5 48 GB/s): NIC to GPU0
     * is PIX at min(48, 24) = 24 over the PCIe links; NIC to GPU1 is PHB (switch 0, CPU, switch 1) at 48.
     */
    private static HostModel host(double nicGbits) {
        TopologyBuilder b = Topology.builder("nic-cap").source("test");
        HostContext ctx = new HostContext(b, 0);
        Cpu cpu = ctx.cpu(0, "x86_64", "GenuineIntel", "Xeon Platinum 8480C");
        PcieSwitch sw0 = ctx.pcieSwitch(0, 0);
        PcieSwitch sw1 = ctx.pcieSwitch(1, 1);
        ctx.pcie(cpu, sw0, PcieGen.GEN5, 16);
        ctx.pcie(cpu, sw1, PcieGen.GEN5, 16);
        Gpu g0 = ctx.gpu(0, "L40S", 89, 48L << 30);
        Gpu g1 = ctx.gpu(1, "H100-PCIe", 90, 80L << 30);
        ctx.pcie(sw0, g0, PcieGen.GEN4, 16);
        ctx.pcie(sw1, g1, PcieGen.GEN5, 16);
        Nic nic = ctx.nic(0, "mlx5_0", Bandwidth.ofGbits(nicGbits), true, 0);
        ctx.pcie(sw0, nic, PcieGen.GEN5, 16);
        Topology t = b.build();
        return new HostModel(t, Set.of(0), t.gpus(), NcclSettings.DEFAULTS, 30);
    }

    /** The two paths as the header of this class works them out, so the tests below start from checked figures. */
    @Test
    void pathsAsWorkedOut() {
        HostModel h = host(100);
        assertEquals(PathType.PIX, h.nicToGpu[0][0].type());
        assertEquals(24.0, h.nicToGpu[0][0].bandwidth(), 1e-9);
        assertEquals(PathType.PHB, h.nicToGpu[0][1].type());
        assertEquals(48.0, h.nicToGpu[0][1].bandwidth(), 1e-9);
    }

    /**
     * A 100 Gb/s NIC (100 / 8 = 12.5 GB/s): both paths are capped to 12.5, so the best type decides: GPU0 (PIX).
     * Without the NET link the PHB path's 48 beat the PIX path's 24 and GPU1 was taken.
     */
    @Test
    void slowNicCapsBothPathsAndTheClosestGpuWins() {
        assertArrayEquals(new int[] {0}, LocalNet.localGpus(host(100), 0));
    }

    /** A 400 Gb/s NIC (50 GB/s) caps neither path: 48 (PHB) beats 24 (PIX), GPU1 is local. */
    @Test
    void fastNicLeavesThePcieBandwidthsToDecide() {
        assertArrayEquals(new int[] {1}, LocalNet.localGpus(host(400), 0));
    }

    /**
     * NCCL's {@code mirrorBits} (2.30.7 {@code src/graph/topo.h}) reverses the low log2(pow2) bits: 1 over 4 values
     * (01) is 2 (10); 3 over 8 (011) is 6 (110); over 16, 1 = 0001 -> 1000 = 8, 2 -> 4, 3 = 0011 -> 1100 = 12,
     * 5 = 0101 -> 1010 = 10, 0 stays 0; 1 over 2 stays 1; over 1 value everything is 0.
     */
    @Test
    void mirrorBitsReversesTheLowBits() {
        assertEquals(2, LocalNet.mirrorBits(1, 4));
        assertEquals(6, LocalNet.mirrorBits(3, 8));
        assertEquals(0, LocalNet.mirrorBits(0, 16));
        assertEquals(8, LocalNet.mirrorBits(1, 16));
        assertEquals(4, LocalNet.mirrorBits(2, 16));
        assertEquals(12, LocalNet.mirrorBits(3, 16));
        assertEquals(10, LocalNet.mirrorBits(5, 16));
        assertEquals(1, LocalNet.mirrorBits(1, 2));
        assertEquals(0, LocalNet.mirrorBits(1, 1));
    }
}
