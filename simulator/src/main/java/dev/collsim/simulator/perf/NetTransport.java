package dev.collsim.simulator.perf;

import static dev.collsim.nccl.NcclDevice.NCCL_STEPS;
import static dev.collsim.units.DecimalText.fixed;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.bound.PhysicalBound;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.TuningConstants;

/**
 * The network transport as NCCL's proxy runs it, reduced to the limit that NCCL's own model leaves out and that
 * makes NCCL_BUFFSIZE and the message size matter between nodes: the bytes a connection keeps in flight (NCCL
 * 2.30.7 {@code src/transport/net.cc} {@code sendProxyProgress}, {@code recvProxyProgress}; fact sheet §3.3).
 *
 * <p><b>What overlaps.</b> The sending proxy posts a network send for each slice as soon as the GPU has filled it,
 * without waiting for earlier sends to complete: it keeps up to NCCL_STEPS = 8 steps outstanding per connection
 * ({@code transmitted < done + NCCL_STEPS}), i.e. NCCL_STEPS / sliceSteps sends, each of one slice (Ring
 * AllReduce/AllGather/ReduceScatter Simple: sliceSteps 2 and two slices per ring step, chunkSteps 4, so 4 sends = 2
 * ring steps in flight; every other algorithm: 1 step per slice, 8 sends in flight). A slot is used again only
 * after the receiving proxy has completed it, the receiving GPU has consumed it and the sender has the credit back
 * ({@code recvProxyProgress} posts a receive only for slots the GPU has released), two network steps of
 * {@link PerformanceParameters#netStepUs} (the class's {@link NetClassProfile#stepUs}) each. So one connection moves
 * at most {@code bytes in flight / (2 x stepUs)}, bytes in flight = min(NCCL_BUFFSIZE, sends in flight x bytes per
 * send): each send's fixed cost overlaps with the other sends in flight and with the other channels (every
 * channel has its own connection and its own slots).
 *
 * <p><b>What is serial.</b> The slot cycle above; and the proxy's cost of posting one send, which NCCL charges as a
 * floor per ring step, "network post overhead" 1 us on Intel, 2 us on AMD, x3 for Simple (NCCL 2.30.7
 * {@code src/graph/tuning.cc getNetOverhead}: "Inter-node rings still have to launch nsteps * net overhead").
 * NCCL's latency charges it once per ring step ({@code max(intraLat, netOverhead)}), as if every channel posted in
 * parallel; but one proxy thread per rank posts the sends of all its connections in turn, so a Ring's node posts at
 * most {@link #proxyPostGBps} (every protocol). Measured: 2x4 GB300 (gIB RoCE, NCCL 2.28.9; public dataset
 * A-allgather-2x4xGB300-gcp-a4xmax-gke-gib-cross-nvl-domain-nccl2.28.txt:41) AllGather 16 MiB takes 189.74 us where
 * NCCL's latency and the links give 93 us; 16 channels over 4 ranks per host post 4 x 14 sends of 3 us (Grace: 1 us,
 * x3 Simple), 168 us. Not fitted: the constant is NCCL's.
 *
 * <p>A small Ring AllReduce sends each ring step's data, nBytes / (channels x nRanks), in its 2 slices, so its 2
 * (nRanks - 1) steps pass the node boundary 2 at a time per slot cycle: at least 2 (nRanks - 1) x stepUs (2 x 8
 * DGX H100, 10 us: 300 us), where NCCL's own estimate (131 us + bandwidth time) charges the network step latency
 * (14 us for Simple, hwLat[NET][Ring][Simple]) only on its 2 (nNodes - 1) crossings of the ring and 3.4 us on every
 * other step. The posting floor is higher there: 2 connections per rank x 60 sends x 3 us = 360 us
 * ({@link #proxyPostGBps}); the 2x4 GB300 dataset above is the public one that runs Ring/Simple between nodes at
 * mid sizes (NCCL's choice by collsim's tuning model; the file does not log it).
 * From Hopper on NCCL skips the receive-side GPU Direct RDMA flush (NCCL 2.30.7 {@code src/graph/paths.cc
 * ncclTopoNeedFlush}); collsim charges no flush. The {@code stepUs} of 10 us is consistent with NCCL's own network
 * step latency (14 us for the data pass, of which the credit's return is a part); NVIDIA/nccl#2409 measured a
 * connection at chunk / (10-12 us) with 8 sends in flight (post-to-poll 110 us) on a run its reporter calls
 * degraded, a slot cycle of about 80 us, so degraded fabrics are calibrated through {@code stepUs}.
 *
 * <p>Only the Simple protocol pays: its receiving proxy hands each step to the GPU through the connection's
 * head/tail counters, while LL and LL128 data carries its own flags that the receiving GPU polls directly. LL pays
 * instead for its send FIFO in host memory, once per hop ({@link LlSendFifo}). LL and LL128 use the same 8 slots
 * (NCCL 2.26.6 {@code src/device/prims_ll128.h waitSend}; {@code sendProxyProgress} {@code transmitted < done +
 * NCCL_STEPS}), but a Ring's step k needs step k - 8's slot only after 8 ring steps of its own, NCCL's LL128 hops
 * 7 x 1.9 + 4.0 us on two nodes of 8, about the slot cycle: a wait of a few us a call, not charged (docs/accuracy.md,
 * "Ring/LL128 between nodes at 1-16 MiB").
 * Measured on 2 x 2 DGX H100 (public dataset A-allreduce-2x2xH100-dgx-ib.txt): Ring/LL AllReduce at 8 B takes
 * 16 us for its 6 ring steps, which leaves no room for a 10 us step per LL step.
 *
 * <p>Every channel has one network connection leaving each node (a ring enters and leaves a node once per channel;
 * a tree's up and down links are counted as one), so a node sends at most {@code channels x connection rate}; that
 * figure takes the place of the NIC bandwidth in {@link PhysicalBound#nicBusBw}. Applies to Ring, Tree, PAT and
 * NVLSTree between NCCL nodes; not on one node, and not to NVLS or CollNet (their network part is switch-side).
 * This class is stateless and thread-safe.
 */
public final class NetTransport {

    private NetTransport() {
    }

    /**
     * @param a    algorithm
     * @param p    protocol
     * @param plan the channel plan
     * @return true when calls of this algorithm and protocol pay the proxy's per-step cost between NCCL nodes
     */
    public static boolean applies(Algorithm a, Protocol p, ChannelPlan plan) {
        return plan.nNodes() > 1 && p == Protocol.SIMPLE && (a == Algorithm.RING || a == Algorithm.TREE || a == Algorithm.PAT
                || a == Algorithm.NVLS_TREE);
    }

    /**
     * Network connections leaving a node per channel: one for Ring, Tree and PAT; the NVLS heads for NVLSTree,
     * whose every head runs its own tree between nodes (NCCL 2.30.7 {@code src/enqueue.cc calcCollChunking}
     * counts {@code concurrentOps = nChannels x nvls.nHeads}).
     *
     * @return connections per channel, >= 1
     */
    static int connectionsPerChannel(Algorithm a, ChannelPlan plan) {
        return a == Algorithm.NVLS_TREE ? Math.max(1, plan.graphs().nvls().nChannels()) : 1;
    }

    /**
     * Data bytes of one network send for this call: one slice of the protocol ({@link #protocolMessage}), or less
     * when the call has less data per connection. A Ring moves nBytes / (channels x nRanks) per ring step and
     * channel, a rooted Ring (Broadcast, Reduce: every step carries the channel's whole share, NCCL 2.28.9
     * {@code src/device/broadcast.h runRing}) and the other algorithms nBytes / (channels x connections per channel);
     * a Ring AllReduce, AllGather or
     * ReduceScatter Simple step is split into its 2 slices (NCCL 2.30.7 {@code src/device/prims_simple.h}: a chunk
     * of chunkSteps 4 is SlicePerChunk = 2 slices of sliceSteps 2, sized to split the step's data evenly). NCCL
     * also shrinks NVLSTree chunks in steps for mid-size calls (256K/128K/64K/32K, {@code calcCollChunking});
     * collsim keeps this continuous bound instead, so that the predicted time never drops as the size grows.
     *
     * @param a        algorithm
     * @param p        protocol
     * @param func     collective
     * @param s        settings (buffer sizes)
     * @param nBytes   bytes NCCL selects on
     * @param channels channels of the call (may be fractional, >= 1)
     * @param plan     the channel plan (ranks, NVLS heads)
     * @return bytes, >= 1
     */
    public static double messageBytes(Algorithm a, Protocol p, Collective func, NcclSettings s, long nBytes,
            double channels, ChannelPlan plan) {
        int conns = connectionsPerChannel(a, plan);
        double perStep = a == Algorithm.RING && !RingLoopFill.rootedRing(a, func) ? nBytes / (channels * plan.nRanks())
                : nBytes / (channels * conns);
        double perSend = perStep / slicesPerStep(a, p, func);
        return Math.max(1, Math.min(protocolMessage(a, p, func, s), perSend));
    }

    /**
     * The largest network send of a protocol, data bytes: Simple sliceSteps x buffSize / 8 ({@link #sliceSteps});
     * LL one step of LL_BUFFSIZE / 8 lines, half data; LL128 one step of LL128_BUFFSIZE / 8, 15/16 data (fact
     * sheet §3.3).
     *
     * @return bytes
     */
    static double protocolMessage(Algorithm a, Protocol p, Collective func, NcclSettings s) {
        return switch (p) {
            case LL, LL128 -> s.buffSize(p) / (double) NCCL_STEPS * NcclDevice.dataPerLineByte(p);
            case SIMPLE -> sliceSteps(a, p, func) * s.buffSize() / (double) NCCL_STEPS;
        };
    }

    /**
     * NCCL's sliceSteps: 2 for Ring AllReduce, AllGather and ReduceScatter with Simple (NCCL_STEPS / 4,
     * {@code src/include/collectives.h ALLREDUCE_SLICESTEPS}), 1 otherwise (fact sheet §3.3).
     *
     * @return steps of the buffer one send occupies
     */
    static int sliceSteps(Algorithm a, Protocol p, Collective func) {
        return p == Protocol.SIMPLE && a == Algorithm.RING && (func == Collective.ALL_REDUCE
                || func == Collective.ALL_GATHER || func == Collective.REDUCE_SCATTER) ? 2 : 1;
    }

    /** @return slices (network sends) per algorithm step: chunkSteps / sliceSteps, 2 where sliceSteps is 2, else 1 */
    static int slicesPerStep(Algorithm a, Protocol p, Collective func) {
        return sliceSteps(a, p, func) == 2 ? 2 : 1;
    }

    /** @return sends one connection keeps in flight: NCCL_STEPS / sliceSteps ({@code sendProxyProgress}) */
    static int sendsInFlight(Algorithm a, Protocol p, Collective func) {
        return NCCL_STEPS / sliceSteps(a, p, func);
    }

    /** @return the data bytes a connection's NCCL_STEPS slots hold for a protocol (its whole buffer) */
    static double windowBytes(Protocol p, NcclSettings s) {
        return s.buffSize(p) * NcclDevice.dataPerLineByte(p);
    }

    /**
     * The most one network connection moves, GB/s: min(buffer, sends in flight x message) / (2 x stepUs), the
     * bytes in flight over one slot cycle. Infinite when stepUs is 0.
     *
     * @param message  data bytes of one send ({@link #messageBytes}, or a p2p chunk)
     * @param inFlight sends the connection keeps in flight (NCCL_STEPS / sliceSteps)
     * @param p        protocol
     * @param s        settings
     * @param stepUs   cost of one network step of the network class, microseconds
     *                 ({@link PerformanceParameters#netProfile}, {@link NetClassProfile#stepUs})
     * @return GB/s
     */
    public static double connectionGBps(double message, int inFlight, Protocol p, NcclSettings s, double stepUs) {
        if (stepUs <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        double bytesPerUs = Math.min(windowBytes(p, s), inFlight * message) / (2 * stepUs);
        return bytesPerUs / 1000.0;
    }

    /**
     * The microseconds NCCL's proxy thread spends posting one network send: NCCL's own "network post overhead", 1 us
     * (2 us on AMD x86), x3 for Simple (NCCL 2.28.9 and 2.30.7 {@code src/graph/tuning.cc getNetOverhead} and its use:
     * "Inter-node rings still have to launch nsteps * net overhead"; {@link TuningConstants#netOverhead}). The CPU's
     * figure, not NCCL_NET_OVERHEAD: that variable changes NCCL's estimate, not the host.
     *
     * @return microseconds per send
     */
    static double postUs(ChannelPlan plan, Protocol p) {
        double overhead = TuningConstants.NCCL_2_30_7.netOverhead(plan.cpu());
        return p == Protocol.SIMPLE ? 3 * overhead : overhead;
    }

    /**
     * The most a node's proxies post for a Ring between NCCL nodes, GB/s of data: one proxy progress thread per
     * rank posts the sends of every connection of that rank, one after another (NCCL 2.28.9 {@code src/proxy.cc
     * ncclProxyProgress}, {@code progressOps} walks the active operations in turn; {@code src/transport/net.cc
     * sendProxyProgress} posts each step's {@code isend}). A Ring leaves each node once per channel, on the node's
     * ranks in turn, so a rank's proxy serves max(1, channels / ranks per node) sending connections and the node posts
     * {@code channels x message / (postUs x that)} per microsecond, where NCCL's latency charges {@link #postUs} once
     * per ring step as if the channels posted in parallel. Receives are not charged apart: NCCL's figure is the cost
     * of a step. One send is one post: NCCL 2.22.3 {@code src/transport/net_ib.cc ncclIbMultiSend} issues one
     * {@code ibv_post_send} per send on one queue pair (NCCL_IB_QPS_PER_CONNECTION adds queue pairs used in turn; only
     * NCCL_IB_SPLIT_DATA_ON_QPS=1, default 0, spreads a send over all of them). With PXN a send is posted by the proxy
     * of the rank next to the NIC; not modelled (rail-local NICs need none; where each channel enters and leaves a node
     * through one NIC, as on Snellius's HGX 4-GPU boards, the NIC's rank serves as many connections as the count
     * above). Applies to every protocol (each posts one send per step); not on one node nor to the other algorithms.
     *
     * @param message  data bytes of one send ({@link #messageBytes})
     * @param channels channels of the call (may be fractional, >= 1)
     * @return GB/s; infinite where it does not apply
     */
    static double proxyPostGBps(Algorithm a, Protocol p, ChannelPlan plan, double message, double channels) {
        if (plan.nNodes() < 2 || a != Algorithm.RING) {
            return Double.POSITIVE_INFINITY;
        }
        double perProxy = Math.max(1, channels * plan.nNodes() / plan.nRanks());
        return channels * message / (postUs(plan, p) * perProxy) / 1000.0;
    }

    /**
     * The time an LL call's network steps wait, in all, for their rank's proxy thread to serve the rank's other network
     * connections first, microseconds; {@link PerformanceModel} charges the larger of it and the data's time.
     *
     * <p>What the source shows (NCCL 2.30.7 {@code src/proxy.cc ncclProxyProgress}, {@code progressOps}; {@code
     * src/transport/net.cc sendProxyProgress}, {@code recvProxyProgress}): one progress thread per rank walks the
     * rank's active operations in turn, and each walks its per-channel connections ("subs") in turn, one action per
     * connection and pass: post a step's buffer, check the step is ready and {@code isend} it, {@code test} a send; on
     * the receiving side {@code irecv}, {@code test}. For LL the readiness check reads the flags of every line of the
     * step in the host-memory send FIFO; LL128 under GPU Direct RDMA and Simple post on the GPU's tail counter. So a
     * rank that holds k network connections comes back to a given connection's next step after the other k - 1 have had
     * their turn. NCCL's latency charges one proxy turn per network step (its per-step network latency, at least the
     * "network post overhead" of {@code src/graph/tuning.cc getNetOverhead}: 1 us on Intel, 2 us on AMD), as if every
     * channel had a proxy of its own; the other k - 1 turns are charged here, {@link #postUs} each (the same NCCL
     * figure, unchanged from NCCL 2.18.5 to 2.30.7). A step whose own data takes longer than the turns does not wait
     * for them, so over the call the time is NCCL's latency plus the larger of the data's time and the turns.
     *
     * <p>Connections per rank: a Ring or Tree channel leaves and enters each node once (a Ring's send to the next node
     * and receive from the previous one; a two-node Tree's up and down links), 2 connections per channel and node,
     * over the ranks of the node with the fewest: k = max(1, 2 x channels / those ranks). Steps that wait: a Ring
     * connection carries each of its ring steps in turn, each waiting for the one before on the ring (2 (nRanks - 1) per loop for
     * AllReduce, nRanks - 1 for AllGather and ReduceScatter; {@code src/device/all_reduce.h runRing}), times the loops
     * its data needs ({@link #protocolMessage} per step); a Tree's chunk crosses the network {@link NetHops#of} times,
     * up then down, and its further chunks each add one turn behind the first.
     *
     * <p>Checked against measured Ring/LL AllReduce between nodes, channels per call from NCCL's thresholds (512
     * threads x 8 B x nRanks per channel): 2x2 DGX H100 InfiniBand (A-allreduce-2x2xH100-dgx-ib.txt:19) grows from
     * 20.21 us at 8 KiB (1 channel) to 29.22, 39.91 and 74.75 us at 32, 64 and 128 KiB (2, 4, 8 channels, the same 16
     * KiB per channel): (29.22 - 20.21) / (1 x 6), (39.91 - 20.21) / (3 x 6) and (74.75 - 20.21) / (7 x 6) = 1.5, 1.1
     * and 1.3 us per ring step per other connection, against NCCL's 1 us used here; 2x1 H200 RoCE
     * (A-allreduce-2x1xH200-gke-dranet-1gpu-1nic-roce-gib.txt:48, 4 runtime channels, both connections on the one rank)
     * from 33.56 us at 4 KiB to 45.47 us at 32 KiB. Not fitted: the per-turn figure is NCCL's. Not charged for LL128,
     * measured: 2x8 H200 gIB AllGather (A-allgather-2x8xH200-gcp-a3ultra-gke-gib-skypilot-nccl2.26.txt:35) runs
     * Ring/LL128 at 1-8 MiB in 58.46-86.92 us, which charging LL128 the same turns predicted as 100.8-102.5 us; nor for
     * Simple, whose posting is the throughput bound {@link #proxyPostGBps} (2x4 GB300 AllGather 16 MiB measured 189.74
     * us, that bound 168 us; the turns, 7 other connections x 7 ring steps x 2 slices x 3 us, would add 294 us).
     * Broadcast and Reduce Rings, PAT, NVLS and CollNet are not charged (their proxies are not modelled per step).
     *
     * @param channels channels of the call (may be fractional, >= 1)
     * @return microseconds; 0 on one node, for LL128 and Simple, and where not modelled
     */
    public static double proxyTurnsUs(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p,
            long nBytes, double channels) {
        if (plan.nNodes() < 2 || p != Protocol.LL) {
            return 0;
        }
        double others = connectionsPerProxy(plan, channels) - 1;
        double perStepMessage = protocolMessage(a, p, func, s);
        double steps;
        if (a == Algorithm.RING && (func == Collective.ALL_REDUCE || func == Collective.ALL_GATHER
                || func == Collective.REDUCE_SCATTER)) {
            int stepsPerLoop = (func == Collective.ALL_REDUCE ? 2 : 1) * (plan.nRanks() - 1);
            double loops = Math.max(1, nBytes / (channels * plan.nRanks()) / perStepMessage);
            steps = stepsPerLoop * loops;
        } else if (a == Algorithm.TREE && func == Collective.ALL_REDUCE) {
            double chunks = Math.max(1, nBytes / channels / perStepMessage);
            steps = NetHops.of(func, a, plan) + chunks - 1;
        } else {
            return 0;
        }
        return others * steps * postUs(plan, p);
    }

    /**
     * Network connections one rank's proxy serves for a Ring or Tree call: 2 per channel and node (one out, one in),
     * over the ranks of the node with the fewest (its proxies wait longest), at least 1 ({@link #proxyTurnsUs}).
     *
     * @param channels channels of the call (may be fractional, >= 1)
     * @return connections, >= 1
     */
    static double connectionsPerProxy(ChannelPlan plan, double channels) {
        return Math.max(1, 2 * channels / Math.max(1, plan.minLocalRanks()));
    }

    /**
     * The bus bandwidth the network proxy allows this call, GB/s: {@link PhysicalBound#nicBusBw} with the node's
     * rate in place of its NIC bandwidth (a Ring's traffic as a Ring's, k = n): channels x the connection rate where
     * {@link #applies}, a slot holding its send's bytes too ({@link NetSendCycle#slotBusBw}), and for a Ring at most
     * {@link #proxyPostGBps}.
     *
     * @param netBusBw the call's network bus bandwidth bound (NICs at the class's share, or TCP streams'), GB/s
     * @return GB/s; infinite where neither limit applies or the class's step cost is 0 and posting is unlimited
     */
    public static double busBwCap(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, Collective func,
            Algorithm a, Protocol p, long nBytes, double channels, double netBusBw) {
        double message = messageBytes(a, p, func, s, nBytes, channels, plan);
        double slots = slotsGBps(plan, s, pp, func, a, p, message, channels);
        double posts = proxyPostGBps(a, p, plan, message, channels);
        double perNode = (double) plan.nRanks() / plan.nNodes();
        double slotBus = Double.isInfinite(slots) ? slots : NetSendCycle.slotBusBw(PhysicalBound.nicBusBw(func,
                a == Algorithm.RING, plan.nRanks(), plan.nNodes(), perNode, slots), netBusBw,
                Math.min(windowBytes(p, s), sendsInFlight(a, p, func) * message) / message);
        double postBus = Double.isInfinite(posts) ? posts
                : PhysicalBound.nicBusBw(func, a == Algorithm.RING, plan.nRanks(), plan.nNodes(), perNode, posts);
        return Math.min(slotBus, postBus);
    }

    /** @return the data rate a node's connection slots allow this call, GB/s; infinite where {@link #applies} not */
    private static double slotsGBps(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, Collective func,
            Algorithm a, Protocol p, double message, double channels) {
        return applies(a, p, plan) ? channels * connectionsPerChannel(a, plan) * connectionGBps(message,
                sendsInFlight(a, p, func), p, s, pp.netProfile(plan.netClass()).stepUs()) : Double.POSITIVE_INFINITY;
    }

    /**
     * The bottleneck text when the proxy's limit binds: the slot cycle's step cost or the posting, whichever is lower.
     *
     * @return text naming the cost per send and the bytes of one send
     */
    public static String bottleneck(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, Collective func,
            Algorithm a, Protocol p, long nBytes, double channels) {
        double message = messageBytes(a, p, func, s, nBytes, channels, plan);
        double posts = proxyPostGBps(a, p, plan, message, channels);
        String bytes = " us per send of " + fixed(message, 0) + " B";
        return posts <= slotsGBps(plan, s, pp, func, a, p, message, channels)
                ? "proxy posts: " + fixed(postUs(plan, p), 1) + bytes + ", "
                        + fixed(Math.max(1, channels * plan.nNodes() / plan.nRanks()), 1) + " connections per rank"
                : "network steps: " + fixed(pp.netProfile(plan.netClass()).stepUs(), 1) + bytes;
    }
}
