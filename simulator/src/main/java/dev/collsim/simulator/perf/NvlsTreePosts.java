package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.channel.ChannelPlan;

/**
 * The network sends NCCL's proxy posts, one after another, on each network hop of an NVLSTree AllReduce between
 * nodes, beyond the 16 NVLS channels that NCCL's NVLSTree latency figure stands for; {@link PerformanceModel} adds
 * the time to the latency term (collsim's time only: NCCL's cost table and choice are unchanged).
 *
 * <p>What the source fixes (NCCL 2.26.2 and 2.30.7):
 * <ol>
 *   <li>Connections. Every NVLS channel has its own tree between nodes per head rank ({@code src/graph/connect.cc
 *       connectNvls}: each head keeps {@code nvls.treeUp} and {@code treeDown} on every channel; the two trees of
 *       {@code ncclGetDtree} alternate by channel), and a call's proxy work is saved per channel and peer
 *       ({@code src/proxy.cc SaveProxy}, {@code ncclPatternNvlsTree}: a send to the tree parent and to each child).
 *       So on each network hop one rank sends on (nNodes - 1) / nNodes of the channels on average: on 2 nodes it is
 *       the child on one tree's channels (hop up) and the root on the other's (hop down), half the channels per
 *       hop.</li>
 *   <li>One proxy thread per rank posts them in turn ({@code src/proxy.cc progressOps};
 *       {@code src/transport/net.cc sendProxyProgress}: one {@code isend} per connection and pass), each at NCCL's own
 *       network post overhead for Simple, 3 us on Intel and other CPUs, 6 us on AMD ({@code src/graph/tuning.cc
 *       getNetOverhead} x 3, {@link NetTransport#postUs}).</li>
 *   <li>Channels. NCCL's NVLSTree latency, intraLat + 2 log2(nNodes) x hwLat[NET][NVLSTree] (25 us + 2 x 20.9 us
 *       on 2 nodes, NCCL 2.28.9 and 2.30.7 {@code tuning.cc}; 19 us in 2.18, 14 in 2.19-2.27), is one figure for every
 *       GPU and channel count. It was set, as 19 and then 14 us, while every GPU ran 16 NVLS channels
 *       (NCCL_NVLS_NCHANNELS 16, v2.18.1-1 to v2.24.3-1 {@code src/transport/nvls.cc}); sm100 runs 32 on several nodes
 *       (v2.25.1-1 and v2.26.2-1 {@code NVLS_NCHANNELS_SM100}; 24 or 32 by 2.30.7's tuning, {@link
 *       dev.collsim.simulator.channel.NvlsTuning}).</li>
 * </ol>
 *
 * <p>So collsim keeps NCCL's figure for up to 16 channels and adds the posts of the further channels on each hop of
 * the tree's critical path (2 x its depth, {@link NetHops#treeDepth}):
 * <pre>
 *   extra_us = 2 x depth x (nNodes - 1) / nNodes x max(0, channels - 16) x postUs(Simple)
 * </pre>
 * 2 x 8 B200 under NCCL 2.26 (32 channels, Intel Xeon 8570): 2 x 1/2 x 16 x 3 = 48 us; 2 x 8 H100 (16): 0. Checked,
 * not fitted (every figure is NCCL's): on the 16-channel 2 x 8 H100 XE9680 run of NCCL 2.26.2
 * (A-allreduce-2x8-4x8xH100-xe9680-ndr-nccl2.26-issue-nccltests309.txt line 53: 71.93 us at 1 MiB) the hop takes
 * about (71.93 - 1 launch - 25 NVLink - 3 data) / 2 = 21 us, NCCL's 20.9 and about 8 sends x 3 us = 24; on the
 * 32-channel 2 x 8 B200 Lambda run of the same release (A-allreduce-2x8xB200-lambda-1cc-ib-dstack-nccl2.26.txt
 * lines 34-36: 115.58, 114.44, 118.25 us at 1-4 MiB) about (115.6 - 29) / 2 = 43 us, 16 sends x 2.7 us. The rest
 * of that run was 41-62 us fast from 8 to 256 MiB (lines 37-43), the GCP A4 B200 run (another cluster, RoCE;
 * A-allreduce-2x8xB200-gcp-a4-roce-dstack-8M-8G.txt lines 15-18) 47-57 us at 8-64 MiB: a fixed cost of the call, as
 * this is. Left out: the spread of the sends over a node's ranks on more than 2 nodes (the average is taken, a
 * rank of two children sends more), receives (NCCL's figure is the cost of a send step, as for
 * {@link NetTransport#proxyPostGBps}), and fewer than 16 channels (NCCL's figure is not lowered). Stateless.
 */
public final class NvlsTreePosts {

    /**
     * NVLS channels NCCL's NVLSTree latency figure stands for: NCCL_NVLS_NCHANNELS' default for every GPU from 2.18 to
     * 2.24 and for sm90 since ({@code NVLS_NCHANNELS_SM90}, v2.26.2-1 {@code src/transport/nvls.cc} line 144).
     */
    static final int NCCL_FIGURE_CHANNELS = 16;

    private NvlsTreePosts() {
    }

    /**
     * @param plan     the channel plan (nodes, CPU)
     * @param func     collective
     * @param a        algorithm
     * @param p        protocol
     * @param channels NVLS channels of the call, >= 1
     * @return microseconds; 0 unless NVLSTree AllReduce Simple between nodes on more than 16 channels
     */
    public static double extraUs(ChannelPlan plan, Collective func, Algorithm a, Protocol p, int channels) {
        if (!NvlsTreePipeline.applies(a, p, func, plan) || channels <= NCCL_FIGURE_CHANNELS) {
            return 0;
        }
        int nodes = plan.nNodes();
        double sendsPerHop = (double) (nodes - 1) / nodes * (channels - NCCL_FIGURE_CHANNELS);
        return 2 * NetHops.treeDepth(nodes) * sendsPerHop * NetTransport.postUs(plan, Protocol.SIMPLE);
    }
}
