package dev.collsim.simulator.perf;

import static dev.collsim.simulator.SimulatorFixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An LL step's wait for its host-memory send FIFO on each network hop ({@link LlSendFifo}). */
class LlSendFifoTest {

    /**
     * The table is the probe file's scan medians for 512 threads less the 256-byte one, read here from the file
     * itself (data/device/h100-proxyscan.txt, lines "test=scan lines=N line_bytes=B median_us=T" of the first run).
     */
    @Test
    void tableIsTheProbeFilesScanMediansOverTheSmallestStep() throws Exception {
        List<String> scan = Files.readAllLines(Path.of("../data/device/h100-proxyscan.txt")).stream()
                .filter(l -> l.startsWith("test=scan")).limit(9).toList();
        double base = median(scan.get(0));
        assertEquals(256, bytes(scan.get(0)));
        for (int i = 0; i < LlSendFifo.LL_FIFO_LINE_BYTES.length; i++) {
            double b = LlSendFifo.LL_FIFO_LINE_BYTES[i];
            String line = scan.stream().filter(l -> bytes(l) == b).findFirst().orElseThrow();
            assertEquals(median(line) - base, LlSendFifo.LL_FIFO_US[i], 1e-9, "line bytes " + b);
        }
    }

    /**
     * Linear between the probe's rows: 12288 B is halfway from 8192 B (5.589 - 5.134 = 0.455 us) to 16384 B
     * (6.015 - 5.134 = 0.881 us): 0.668 us; at or below 256 B nothing; past 64 KiB the last slope (32 KiB 4.242 us,
     * 64 KiB 8.378 us): 98304 B is 8.378 + (8.378 - 4.242) = 12.514 us.
     */
    @Test
    void stepTimeInterpolatesTheProbe() {
        assertEquals(0.668, LlSendFifo.stepUs(12288), 1e-9);
        assertEquals(0, LlSendFifo.stepUs(100), 0);
        assertEquals(12.514, LlSendFifo.stepUs(98304), 1e-9);
    }

    /**
     * 2 DGX H100 (16 ranks). Tree/LL AllReduce of 8 KiB on 2 channels: 4096 data bytes per channel in one step
     * (below LL's 32 KiB step, 524288 / 8 / 2), 8192 line bytes, 0.455 us; NCCL's inter-node steps of a Tree
     * AllReduce on 2 nodes: 2 x log2(2) = 2, so 0.910 us. Ring/LL AllReduce of 64 KiB on 2 channels: a ring step
     * moves 65536 / (2 x 16) = 2048 data bytes, 4096 line bytes, 0.197 us, over 4 crossings (8 ranks per node: the
     * chain of a middle rank's chunk, all_reduce.h runRing, crosses both network links twice, 2 nNodes): 0.788 us.
     * LL128 and Simple keep their FIFO in GPU memory under GDR (net.cc sendProxyConnect), one node has no network.
     */
    @Test
    void eachHopWaitsForOneLlStep() throws Exception {
        ChannelPlan two = plan("dgx-h100x2");
        NcclSettings s = NcclSettings.DEFAULTS;
        assertEquals(0.910, LlSendFifo.extraUs(two, s, Collective.ALL_REDUCE, Algorithm.TREE, Protocol.LL,
                8192, 2), 1e-9);
        assertEquals(0.788, LlSendFifo.extraUs(two, s, Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL,
                65536, 2), 1e-9);
        assertEquals(0, LlSendFifo.extraUs(two, s, Collective.ALL_REDUCE, Algorithm.RING, Protocol.LL128,
                65536, 2), 0);
        assertEquals(0, LlSendFifo.extraUs(two, s, Collective.ALL_REDUCE, Algorithm.RING, Protocol.SIMPLE,
                65536, 2), 0);
        assertEquals(0, LlSendFifo.extraUs(plan("dgx-h100"), s, Collective.ALL_REDUCE, Algorithm.RING,
                Protocol.LL, 65536, 2), 0);
    }

    private static double median(String line) {
        return Double.parseDouble(field(line, "median_us"));
    }

    private static double bytes(String line) {
        return Double.parseDouble(field(line, "line_bytes"));
    }

    private static String field(String line, String key) {
        for (String kv : line.split(" ")) {
            if (kv.startsWith(key + "=")) {
                return kv.substring(key.length() + 1);
            }
        }
        throw new IllegalArgumentException(key + " not in " + line);
    }
}
