package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;

/**
 * The time an LL step waits on the sending node before its network send is posted: its lines must land in the
 * host-memory send FIFO and be seen by the sending proxy. {@link PerformanceModel} adds it to the latency term, as the
 * class's per-hop latency; the step's bytes are {@link NetTransport#messageBytes}'s.
 *
 * <p>What the source shows (NCCL 2.26.2 and 2.30.7 {@code src/transport/net.cc}): the LL send FIFO is pinned host
 * memory even with GPU Direct RDMA ({@code sendProxyConnect}: device memory only for {@code p != NCCL_PROTO_LL
 * && useGdr}), so the sending GPU's LL stores cross PCIe to host memory; the proxy posts a step's {@code isend}
 * only once flag1 and flag2 of every line of the step match ({@code sendProxyProgress}, the LL branch), so the
 * step is stored whole before the NIC reads it back. LL128 and Simple with GDR keep their FIFO in GPU memory and
 * post on the GPU's tail ({@code ready = useGdr}); the receive FIFO is GPU memory under GDR for every protocol
 * ({@code recvProxyConnect}). So each network hop on the critical path ({@link NetHops}) waits for one LL step's
 * lines to land in host memory: the step's data over LL's data per line byte (8 data bytes in a 16-byte line,
 * {@link NcclDevice#dataPerLineByte}), at the probe's rate ({@link #LL_FIFO_US}, interpolated linearly; beyond its
 * last row at its last slope). Later steps overlap the earlier ones' network time, so only one step per hop is
 * charged. Not covered: LL128 without GDR, whose proxy scans the flags in host memory too (collsim does not know
 * whether GDR is on). This class is stateless and thread-safe.
 */
public final class LlSendFifo {

    /**
     * Line bytes of an LL step and the time they take, from the sending GPU's first store, to reach pinned host
     * memory and be seen ready by the sending proxy, beyond that of a 256-byte step: {@code data/device/h100-proxyscan.txt}
     * (this repository's probe {@code executor/probes/proxyscan}, one H100 SXM on PCIe Gen5 x16, one block of 512
     * threads storing 16-byte LL lines, NCCL's own flag scan; medians 5.134, 5.207, 5.331, 5.589, 6.015, 9.376,
     * 13.512 us at 256 B .. 64 KiB minus the 256-byte one). Up to 64 KiB, one whole LL step (NCCL 2.30.7
     * {@code src/include/device.h}: NCCL_LL_LINES_PER_THREAD 8 x NCCL_LL_MAX_NTHREADS 512 x 16 B). One Intel host
     * in a VM: a PCIe Gen4 host or another root complex may differ (no figure for one was in hand). Not fitted to any
     * data file.
     */
    static final double[] LL_FIFO_LINE_BYTES = {256, 1024, 4096, 8192, 16384, 32768, 65536};
    /** Microseconds for {@link #LL_FIFO_LINE_BYTES}, same probe and rows. */
    static final double[] LL_FIFO_US = {0, 0.073, 0.197, 0.455, 0.881, 4.242, 8.378};

    private LlSendFifo() {
    }

    /**
     * @param plan     the channel plan
     * @param s        settings
     * @param func     collective
     * @param a        algorithm
     * @param p        protocol
     * @param nBytes   bytes of the call
     * @param channels channels of the call (may be fractional, >= 1)
     * @return microseconds for the whole call; 0 unless LL between nodes on a Ring or Tree
     */
    public static double extraUs(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p,
            long nBytes, double channels) {
        if (plan.nNodes() < 2 || p != Protocol.LL || (a != Algorithm.RING && a != Algorithm.TREE)) {
            return 0;
        }
        double lineBytes = NetTransport.messageBytes(a, p, func, s, nBytes, channels, plan)
                / NcclDevice.dataPerLineByte(p);
        return NetHops.of(func, a, plan) * stepUs(lineBytes);
    }

    /** @return the probe's time for one LL step of this many line bytes ({@link #LL_FIFO_US}), microseconds */
    static double stepUs(double lineBytes) {
        double[] x = LL_FIFO_LINE_BYTES;
        double[] y = LL_FIFO_US;
        if (lineBytes <= x[0]) {
            return 0;
        }
        int i = 1;
        while (i < x.length - 1 && lineBytes > x[i]) {
            i++;
        }
        return y[i - 1] + (y[i] - y[i - 1]) * (lineBytes - x[i - 1]) / (x[i] - x[i - 1]);
    }
}
