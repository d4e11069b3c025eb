package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.channel.ChannelPlan;

/**
 * The share of one step's data a Ring collective pays as {@link PipelineFill}'s pipeline fill: 0 when the ring
 * loop has a single step, so that nothing is forwarded; 1 otherwise. Used for collsim's time prediction only.
 *
 * <p>NCCL 2.30.7 {@code src/device/all_gather.h} {@code runRing}: step 0 sends the rank's own chunk, the
 * nranks - 2 steps {@code directRecvCopyDirectSend} forward the chunk received one step before, the last step only
 * receives; {@code src/device/reduce_scatter.h}: step 0 sends, nranks - 2 steps {@code recvReduceSend}, the last
 * {@code recvReduceCopy}. Every rank sends its own chunk at step 0, so the ring's links start together; the first
 * forwarding step waits for one step's data, and the forwards after it are pipelined behind it: one step of fill.
 * With 2 ranks a ReduceScatter or AllGather loop has no forwarding step: each rank streams its data straight to its
 * peer, and the fill is 0 (where a whole step had doubled the time at 64 MiB on 2 NVLink GPUs; NCCL 2.30.7's own
 * estimate has no fill term either). A Ring AllReduce forwards from 2 ranks on (2 x (nranks - 1) steps per loop:
 * the reduce-scatter half's result is sent on in the all-gather half), and the rooted Ring (Broadcast, Reduce: a
 * chain from the root) forwards at every rank but the last: none when its channels share one order, the ranks
 * running ahead into the next call ({@link #rootedRunsAhead}); else with Simple a whole chunk per hop
 * ({@link #rootedHops}); other algorithms keep the whole step.
 *
 * <p>Stateless and thread-safe.
 */
public final class RingLoopFill {

    private RingLoopFill() {
    }

    /**
     * @param a      algorithm
     * @param func   collective
     * @param nRanks ranks of the communicator
     * @return 0 for a Ring ReduceScatter or AllGather of 2 ranks (one step per loop, nothing forwarded), else 1
     */
    public static double share(Algorithm a, Collective func, int nRanks) {
        boolean oneStep = a == Algorithm.RING && nRanks == 2
                && (func == Collective.REDUCE_SCATTER || func == Collective.ALL_GATHER);
        return oneStep ? 0 : 1;
    }

    /**
     * The share of the Ring's chunk (or per-rank piece) a Ring between NCCL nodes pays as fill: one network send of
     * it, 1 / (slices per chunk). NCCL 2.28.9 and 2.30.7 {@code src/device/prims_simple.h genericOp}: a Simple chunk
     * of chunkSteps 4 is SlicePerChunk = 2 slices of sliceSteps 2 for Ring AllReduce, AllGather and ReduceScatter
     * ({@code src/include/collectives.h} ALLREDUCE/ALLGATHER/REDUCESCATTER_SLICESTEPS), and the kernel posts each
     * slice to the next rank as soon as it is written; {@code src/transport/net.cc sendProxyProgress} sends each
     * posted slice as one network message, and {@code recvProxyProgress} hands the receiving GPU one slice per
     * completed receive. So the unit that waits for its predecessor across the node boundary is a slice, and the
     * chunk's second slice crosses while the first is forwarded: the generic one-chunk fill counted it twice. LL and
     * LL128 (and Broadcast, Reduce, sliceSteps 1) send one step per message, the whole chunk: share 1
     * ({@link NetTransport#slicesPerStep}, the same count the proxy's sends use).
     *
     * <p>Measured, not fitted: a line through 128 MiB and up (relative least squares) leaves at zero size, beyond
     * collsim's launch, NCCL latency and hop terms, the fill the runs pay: GCP A4X Max 2x4 GB300 RoCE AllGather 9.6
     * and 33.7 us (A-allgather-2x4xGB300-gcp-a4xmax-gke-gib-cross-nvl-domain-nccl2.28.txt, runs at lines 27 and 64:
     * intercepts 63.4 and 87.5 us against 53.8), GCP A3 Ultra 2x8 H200 RoCE AllGather 36.3 and 29.8 us
     * (A-allgather-2x8xH200-gcp-a3ultra-gke-gib-skypilot-nccl2.26.txt, lines 35 and 87: 117.1 and 110.6 us against
     * 80.8); one chunk at the per-channel rate is 94.3 us on both machines (2 MiB at 400 x 0.89 / 16 GB/s), one
     * slice 47.1 us. Both machines and all four runs are below half a chunk, so the half is no fit to one of them.
     *
     * @param a      algorithm
     * @param p      protocol
     * @param func   collective
     * @param nNodes NCCL nodes of the communicator
     * @return 1 / {@link NetTransport#slicesPerStep} for a Ring between nodes (1/2 for AllReduce, AllGather and
     *         ReduceScatter with Simple), else 1
     */
    public static double netSendShare(Algorithm a, Protocol p, Collective func, int nNodes) {
        return a == Algorithm.RING && nNodes > 1 ? 1.0 / NetTransport.slicesPerStep(a, p, func) : 1;
    }

    /**
     * Whether a rooted Ring (Broadcast, Reduce) runs ahead into the next call, so that back-to-back calls (nccl-tests'
     * timed iterations) pay neither its pipeline fill nor a latency per rank: true when every channel's ring has one
     * rank order ({@code sameChannels} of NCCL's ring graph). Then rank r is the same number of hops from the root on
     * every channel and finishes its kernel that many hops after the root; each rank's next call starts as soon as its
     * own kernel ends ({@code src/device/prims_simple.h}: a sender waits only for its peer's free step slots, NCCL_STEPS
     * = 8, and {@code ~Primitives} keeps the step counters for the next kernel), so the chain stays skewed by one hop
     * per rank and the fill is paid once per run, not per call. NCCL 2.30.7 {@code src/graph/tuning.cc} charges such a
     * ring one hop (baseLat + hwLat[Ring][p]); when the orders differ, every rank is the last of some channel, finishes
     * with the whole traversal, and NCCL charges nRanks hops (hwLat[Tree][Simple] for Simple, "some chunk latency").
     * Measured: the 2-rank Ring Broadcast/Reduce over SHM ran ahead the same way ({@link ShmLinkShare#ringWithoutFill},
     * docs/pcie-protocols.md); 4x8 H100 over InfiniBand (A-bcast-reduce-4x8xH100-voltagepark-ib-nccl2.24.txt, 32
     * ranks) ran Broadcast and Reduce of 8-512 B, one channel, in 8.1-12.1 us, one hop (NCCL's 32-hop estimate is 93
     * us), while from 8 to 32 MiB, on the 16 channels of NCCL's inter-node ring graph, whose GPU orders differ, the
     * Broadcast's intercept (2 t(S) - t(2S)) is 177-199 us, the whole traversal ({@link #rootedTraversal}).
     * A single call waited on at once (no next call to overlap) pays the whole traversal.
     *
     * @param a    algorithm
     * @param func collective
     * @param plan     the channel plan (its ring graph's sameChannels)
     * @param channels the call's runtime channels: a call on one channel has one order whatever the graph's others
     * @return true for Ring Broadcast or Reduce whose ring channels share one order, or that runs on one channel
     */
    public static boolean rootedRunsAhead(Algorithm a, Collective func, ChannelPlan plan, int channels) {
        return rootedRing(a, func) && (plan.graphs().ring().sameChannels() || channels == 1);
    }

    /**
     * Whether a rooted Ring between NCCL nodes pays its whole traversal hop by hop: its channels' orders differ and it
     * runs on more than one channel ({@link #rootedRunsAhead} false), so its last rank finishes the whole chain from
     * the root. NCCL's own figure for it (NCCL 2.24.3 to 2.30.7 {@code src/graph/tuning.cc ncclTopoTuneModel}) charges
     * every one of its nRanks steps at the network's hwLat (hw = NET on several nodes), for Simple at
     * hwLat[NET][Tree][Simple] = 14 us, "some chunk latency, waiting for proper chunk modeling"; its other rings it
     * composes of intra-node and network steps. collsim models the chunks (Simple: {@link #rootedHops} chunks of
     * store and forward; LL128: the network hops' whole steps, {@link #rootedNetSteps}; LL: the host-memory send
     * FIFO, {@link LlSendFifo}), so the latency it adds is NCCL's composition for its other rings over
     * the rooted ring's nRanks steps, nNodes - 1 of them network steps
     * ({@link dev.collsim.simulator.tuning.RootedRingLatency#rootedRingHopLatency}), where lower than NCCL's figure.
     *
     * <p>Measured, not fitted (4x8 H100 over InfiniBand, NCCL 2.24.3, A-bcast-reduce-4x8xH100-voltagepark-ib-
     * nccl2.24.txt): the Broadcast's intercept 2 t(S) - t(2S) over 16 channels is 198.6, 207.5, 215.1 and 209.9 us at
     * 16, 32, 64 and 128 MiB (LL128, lines 75-79), where NCCL's figure is 14 + 32 x 4.0 = 142 us and the hop by hop
     * latency 14 + 29 x 1.9 + 3 x 4.0 = 81.1 us plus three network hops of one 576000-byte LL128 step at the channel's
     * rate (about 17.6 GB/s: 281 GB/s busbw per added byte at 64-256 MiB over 16 channels), 3 x 32.7 = 98.2 us, 179.3
     * us; at 1 GiB and up (Simple) the intercept is 850-910 us (time less the bytes at 294.4 GB/s, lines 81-84), where
     * NCCL's figure 8.4 + 32 x 14 = 456.4 us plus the 30 chunk hops at 28.5 us (855 us) would be 1311 us.
     *
     * @param a        algorithm
     * @param func     collective
     * @param plan     the channel plan
     * @param channels the call's runtime channels
     * @return true for a rooted Ring on several NCCL nodes that does not run ahead
     */
    public static boolean rootedTraversal(Algorithm a, Collective func, ChannelPlan plan, int channels) {
        return rootedRing(a, func) && plan.nNodes() > 1 && !rootedRunsAhead(a, func, plan, channels);
    }

    /**
     * The LL128 steps a rooted Ring between NCCL nodes stores whole before its network sends: one per network hop on
     * the chain ({@link NetHops#of}, nNodes - 1). NCCL 2.24.3 and 2.30.7 {@code src/device/prims_ll128.h GenericOp}:
     * on a network connection (its {@code connFifo} set) the channel's threads write the step's lines, meet at the
     * barrier and only then {@code postSend} the tail (after {@code __threadfence_system} on sm90), and the proxy
     * posts the step's send on that tail ({@code src/transport/net.cc sendProxyProgress}: {@code ready = useGdr} for
     * LL128); the receiving GPU then polls each line's flag, so the network's own transfer overlaps its forwarding. A
     * rooted Ring's step carries the channel's whole stream (every step a chunk of the LL128 buffer, {@code
     * src/enqueue.cc calcCollChunking}: stepSize x 15/16 data, no reduction for a Ring), so each network hop waits for
     * one whole step at the channel's rate; NVLink hops forward line by line. Simple pays its chunks through
     * {@link #rootedHops}; LL through {@link LlSendFifo}.
     *
     * @param a      algorithm
     * @param func   collective
     * @param p      protocol
     * @param plan   the channel plan
     * @return network hops that store a whole LL128 step, 0 unless a rooted LL128 Ring on several nodes
     */
    public static int rootedNetSteps(Algorithm a, Collective func, Protocol p, ChannelPlan plan) {
        return rootedRing(a, func) && p == Protocol.LL128 && plan.nNodes() > 1 ? NetHops.of(func, a, plan) : 0;
    }

    /**
     * @param a    algorithm
     * @param func collective
     * @return true for a Ring Broadcast or Reduce (a chain from the root)
     */
    public static boolean rootedRing(Algorithm a, Collective func) {
        return a == Algorithm.RING && (func == Collective.BROADCAST || func == Collective.REDUCE);
    }

    /**
     * Whether the call is a rooted Simple Ring (Broadcast, Reduce), whose fill, where it does not run ahead
     * ({@link #rootedRunsAhead}), is {@link #rootedHops} store-and-forward hops of one chunk rather than the
     * symmetric ring's step. NCCL 2.28.9 {@code src/device/broadcast.h runRing} and
     * {@code src/device/reduce.h runRing}: each channel walks its share in chunks of {@code chunkCount}; the root sends
     * ({@code directSend}/{@code directCopySend}; Reduce: {@code send}), every rank after it but the last forwards
     * ({@code directRecvCopyDirectSend}; Reduce: {@code recvReduceSend}), the last only receives. The Simple protocol
     * runs {@code ProtoSimple<BROADCAST_CHUNKSTEPS/BROADCAST_SLICESTEPS, BROADCAST_SLICESTEPS>} = {@code <1, 1>}
     * ({@code src/include/collectives.h}: BROADCAST_ and REDUCE_ CHUNKSTEPS and SLICESTEPS are 1), so a chunk is one
     * slice of one step ({@code src/device/prims_simple.h genericOp}: sliceSize = max(nelem, stepSize / 32) with one
     * slice per chunk), and a rank forwards it only once the previous rank has posted the whole slice (the step's
     * tail, after the sender's stores). The chunk is stepSize = buffSize / NCCL_STEPS, 512 KiB by default
     * ({@code src/enqueue.cc calcCollChunking}: stepSize x chunkSteps, chunkSteps 1; no reduction for a Ring
     * Broadcast/Reduce). LL and LL128 forward line by line (each thread's 16-byte or each warp's 128-byte line, with
     * its own flag), so they pay no whole-chunk hop: they keep the generic fill.
     *
     * @param a    algorithm
     * @param func collective
     * @param p    protocol
     * @return true for Ring Broadcast or Reduce with Simple
     */
    public static boolean rootedSimple(Algorithm a, Collective func, Protocol p) {
        return a == Algorithm.RING && p == Protocol.SIMPLE
                && (func == Collective.BROADCAST || func == Collective.REDUCE);
    }

    /**
     * The chunk hops a rooted Simple Ring ({@link #rootedSimple}) pays beyond its data term: nRanks - 2. With k chunks
     * per channel, each crossing a hop in t (one chunk at the channel's rate), chunk i reaches the ring's last rank,
     * nRanks - 1 hops from the root, at (i + nRanks - 1) t, so the last chunk arrives at (k + nRanks - 2) t: k t is
     * the data term (nBytes / algBw), the rest is the fill. With 2 ranks the one hop streams, and the fill is 0.
     *
     * @param nRanks ranks of the communicator
     * @return max(0, nRanks - 2)
     */
    public static int rootedHops(int nRanks) {
        return Math.max(0, nRanks - 2);
    }
}
