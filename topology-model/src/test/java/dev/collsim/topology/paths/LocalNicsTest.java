package dev.collsim.topology.paths;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.units.Bandwidth;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL's local-NIC rule, {@code ncclTopoGetLocal} (NCCL 2.30.7 {@code src/graph/topo.cc}): keep the candidates whose
 * path has the highest bandwidth and, among those, the best (lowest) path type. The cases are worked by hand.
 */
class LocalNicsTest {

    private static final PathType[] PIX_PXB_PXN = {PathType.PIX, PathType.PXB, PathType.PXN};

    @Test
    void bandwidthComesBeforePathType() {
        // 48 GB/s over PXN beats 24 GB/s over PIX or PXB: NCCL compares bandwidth first
        assertArrayEquals(new int[] {2}, HostPaths.local(new double[] {24, 24, 48}, PIX_PXB_PXN));
        // equal bandwidth: the better type (PIX) wins
        assertArrayEquals(new int[] {0}, HostPaths.local(new double[] {24, 24, 24}, PIX_PXB_PXN));
    }

    @Test
    void tiesAreAllLocalAndDisconnectedNeverIs() {
        PathType[] types = {PathType.PIX, PathType.DIS, PathType.PIX};
        assertArrayEquals(new int[] {0, 2}, HostPaths.local(new double[] {24, 99, 24}, types));
        assertArrayEquals(new int[0], HostPaths.local(new double[] {0, 0}, new PathType[] {PathType.DIS, PathType.DIS}));
        assertArrayEquals(new int[0], HostPaths.local(new double[0], new PathType[0]));
    }

    /**
     * Two NICs behind the GPU's PCIe switch, both PIX at NCCL's 48 GB/s (Gen5 x16): NIC a has a 200 Gb/s port
     * (25 GB/s), NIC b a 400 Gb/s port (50 GB/s). The port caps the path as NCCL's NET link does: min(48, 25) = 25
     * and min(48, 50) = 48, so only b is local.
     */
    @Test
    void thePortSpeedCapsThePath() {
        Gpu g = new Gpu("h0/gpu0", 0, 0, "H100", 90, 80_000_000_000L, "");
        Nic a = new Nic("h0/nic0", 0, "mlx5_0", Bandwidth.ofGbits(200), 1, true, 0, "");
        Nic b = new Nic("h0/nic1", 0, "mlx5_1", Bandwidth.ofGbits(400), 1, true, 1, "");
        Bandwidth gen5 = Bandwidth.ofGBps(48);
        Map<Nic, DevicePath> paths = Map.of(
                a, new DevicePath(g, a, PathType.PIX, List.of(), gen5, gen5, ""),
                b, new DevicePath(g, b, PathType.PIX, List.of(), gen5, gen5, ""));
        assertEquals(List.of(b), HostPaths.local(List.of(a, b), paths::get));
        // equal ports: both local, in candidate order
        Nic c = new Nic("h0/nic2", 0, "mlx5_2", Bandwidth.ofGbits(400), 1, true, 2, "");
        Map<Nic, DevicePath> two = Map.of(
                b, new DevicePath(g, b, PathType.PIX, List.of(), gen5, gen5, ""),
                c, new DevicePath(g, c, PathType.PIX, List.of(), gen5, gen5, ""));
        assertEquals(List.of(b, c), HostPaths.local(List.of(b, c), two::get));
    }
}
