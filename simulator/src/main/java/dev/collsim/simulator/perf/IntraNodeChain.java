package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.NcclTuningModel;
import dev.collsim.simulator.tuning.TuningInput;

/**
 * The real data movement of NCCL's Tree AllReduce on one node, where the tree is a chain (fact sheet §5.4: "a tree
 * is a chain" intra-node), used for collsim's <em>time</em> prediction only; NCCL's choice still follows NCCL's own
 * table ({@link dev.collsim.simulator.tuning.CostTable}).
 *
 * <p>NCCL runs Tree AllReduce as reduce-up and broadcast-down at the same time in every channel (NCCL
 * {@code src/device/all_reduce.h runTreeSplit}: half the threads send towards the parent, half receive from it and
 * forward to the children; the root does {@code directRecvReduceCopySend}; present from NCCL 2.19 to 2.30). With
 * a buffer of S bytes a rank therefore sends S to its parent (if it has one) and S to its child (if it has one):
 *
 * <pre>
 *   busiest rank's sent bytes = S x e,   e = 1 for a chain of 2 ranks (each end has one neighbour),
 *                                        e = 2 for 3 or more ranks (a middle rank has two)
 *   algBw = linkBusBw / e
 * </pre>
 *
 * where linkBusBw is what one GPU can send per direction over the node's links: NCCL's Ring bus bandwidth of the
 * same protocol from the ring graph (nChannels x bwIntra with NCCL's Ring protocol refinements, NCCL 2.30.7
 * {@code src/graph/tuning.cc}), because a ring sends 2(n-1)/n S per rank over the same links and NCCL sizes that
 * graph to the per-direction capacity. So a chain of 2 moves exactly what a ring of 2 moves (S each way) and runs
 * at the Ring bandwidth; NCCL's table instead halves Tree's bus bandwidth for any rank count (ratio 1/2, §2.3) and
 * applies the Tree mid-size correction. Measured on 2x H200 (NV18, NCCL 2.28.3, {@code
 * data/device/h200x2-2026-11-29/collsim-sweep-NCCL_ALGO.txt}): NCCL_ALGO=Tree 354.5 GB/s algbw at 8 GiB, Ring
 * 345.4; NCCL's Tree entry is 232.2. For 3 or more ranks e = 2 equals NCCL's ratio 1/2; only the link bandwidth
 * (the ring graph's instead of the tree graph's x0.92 capped by perChMaxTreeBw) and the dropped correction differ.
 *
 * <p>Stateless and thread-safe.
 */
public final class IntraNodeChain {

    private IntraNodeChain() {
    }

    /**
     * @param func   collective
     * @param a      algorithm
     * @param nNodes NCCL nodes of the communicator
     * @param nRanks ranks
     * @return true for Tree AllReduce on one node with at least 2 ranks (the case this class models)
     */
    public static boolean applies(Collective func, Algorithm a, int nNodes, int nRanks) {
        return a == Algorithm.TREE && func == Collective.ALL_REDUCE && nNodes == 1 && nRanks >= 2;
    }

    /**
     * Algorithm bandwidth over bus bandwidth of the chain: 1/e with e the busiest rank's sent bytes per buffer byte.
     *
     * @param nRanks ranks, >= 2
     * @return 1.0 for 2 ranks, 0.5 for 3 or more
     * @throws IllegalArgumentException when nRanks < 2 (no chain)
     */
    public static double busToAlgRatio(int nRanks) {
        return 1.0 / sentPerByte(nRanks);
    }

    /**
     * e, the bytes the busiest rank of a chain sends over its links per buffer byte (the one home of this count: the
     * one-node chain here and each node's chain of {@link TwoNodeTree}).
     *
     * @param nRanks ranks in the chain, >= 2
     * @return 1 for 2 ranks (each end has one neighbour), 2 for 3 or more (a middle rank sends S up and S down)
     * @throws IllegalArgumentException when nRanks < 2 (no chain)
     */
    public static double sentPerByte(int nRanks) {
        if (nRanks < 2) {
            throw new IllegalArgumentException("a chain needs at least 2 ranks, got " + nRanks);
        }
        return nRanks == 2 ? 1.0 : 2.0;
    }

    /**
     * Whether a chain ({@link #applies}) pays {@link #fillSlices} in place of the generic fill: Simple over GPU
     * pairs NCCL connects with the SHM
     * transport ({@link ShmLinkShare#shm}: the ring's path goes through the CPU beyond the P2P level in force, NCCL
     * 2.30.7 {@code src/graph/paths.cc ncclTopoCheckP2p}, default level PXB; {@code src/transport/shm.cc}), which
     * stages every slice in a host buffer: the sender copies it in, the receiver copies it out, and only then can it
     * be reduced and forwarded. Over NVLink or a PCIe switch NCCL connects the pair peer to peer, and within one
     * process through direct pointers (nccl-tests -g N: "via P2P/direct pointer"), so the root of a 2-rank chain reads
     * the leaf's buffer and writes the result into the leaf's in one pass and the hops overlap: 2x H200 (NV18, one
     * process, NCCL_ALGO=Tree, data/device/h200x2-2026-11-29/collsim-sweep-NCCL_ALGO.txt) is predicted 21 % and 10 %
     * too slow at 2 and 8 MiB with the full slice, +11 % and -8 % with the generic fill ({@link IntraNodeFill}), which
     * those paths keep.
     *
     * @param p    protocol
     * @param plan the channel plan
     * @param s    settings (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL)
     * @return true for a Simple chain over SHM
     */
    public static boolean staged(Protocol p, ChannelPlan plan, NcclSettings s) {
        return p == Protocol.SIMPLE && ShmLinkShare.shm(plan, s);
    }

    /**
     * A Simple chain's pipeline fill over SHM, in slice times at the chain's steady per-channel rate (the SHM share
     * included): what the first slice of a channel takes to cross the chain, less what the data term already counts
     * for it.
     *
     * <p>What NCCL runs (NCCL 2.29.2 and 2.30.7 {@code src/device/all_reduce.h runTreeSplit}): the leaf
     * {@code directSend}s, each middle rank {@code directRecvReduceDirectSend}s up, the root
     * {@code directRecvReduceCopyDirectSend}s, each middle rank {@code directRecvCopyDirectSend}s down and the leaf
     * {@code directRecv}s, one chunk per call; Tree/Simple is {@code ProtoSimple<1, 1>}, one slice per chunk of
     * buffSize / NCCL_STEPS = 512 KiB by default ({@code src/enqueue.cc calcCollChunking}: no Tree/Simple chunk
     * reduction in 2.28.9 to 2.30.7), and a receiver may start only once the whole slice is posted
     * ({@code src/device/prims_simple.h}). Over SHM every one of these calls is a stage of its own: the sender's kernel
     * stores the slice into host memory, the receiver's kernel loads it from there ({@code src/transport/shm.cc}). So a
     * channel's first slice crosses 1 + (nRanks - 2) + 1 + (nRanks - 2) + 1 = 2 nRanks - 1 stages one after another,
     * each rank running one call for it at a time, at the link's rate without the SHM share ({@link ShmLinkShare} is
     * measured on steady states, every rank storing and loading at once); every later slice follows one steady slice
     * time apart at the busiest rank, e = 1 / {@link #busToAlgRatio} steady slice times (a middle rank carries the
     * slice up and down). In steady slice times T:
     *
     * <pre>
     *   time = (2 nRanks - 1) x share x T + (k - 1) x e x T,  the data term counts k x e x T,
     *   fill = (2 nRanks - 1) x share - e
     * </pre>
     *
     * with k a channel's slices (the channel's whole share as one slice when smaller than a chunk) and share the
     * chain's steady share ({@link ShmLinkShare#chainShare}). Worked examples (Gen4): 2 ranks (e = 1, share 0.666)
     * 3 x 0.666 - 1 = 0.998; 4 ranks (e = 2, share 0.815) 7 x 0.815 - 2 = 3.705 (where 2 nRanks - 3 = 5 slice times
     * charged every stage at the steady rate). Checked on 4x L40S over SHM (NCCL 2.29.2,
     * NCCL_ALGO=tree, validation/src/test/resources/data/A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-
     * nccl2.29.txt run 5, lines 220-224): from 64 KiB to 1 MiB a channel holds one slice, and the time grows by 318 us
     * per 512 KiB of slice (58.7 us at 64 KiB to 358.6 us at 1 MiB, a straight line through 40 us): 7 stages of
     * 45.4 us, 11.5 GB/s per channel, 0.98 of the GPU link's 24 GB/s over the 2 channels, the link's rate without a
     * share; the steady rate from 2 MiB is 0.80-0.87 of it per middle rank ({@link ShmLinkShare#DUPLEX_LINK_CEILING}).
     * On 2x L40S (the same file's 2-GPU companion, A-allreduce-1x2xL40S-..., line 128) 1 MiB takes 152.2 us: 9.4 us + 3 x 512 KiB / 11.76 GB/s = 143 us.
     *
     * @param nRanks   ranks of the chain, >= 2
     * @param shmShare the steady SHM share of the chain's links ({@link ShmLinkShare#factor}), in (0, 1]
     * @return (2 nRanks - 1) x shmShare - 1 / busToAlgRatio(nRanks)
     */
    public static double fillSlices(int nRanks, double shmShare) {
        return (2.0 * nRanks - 1) * shmShare - 1.0 / busToAlgRatio(nRanks);
    }

    /**
     * {@link #fillSlices(int, double)} for a channel of k slices: a chain of 3 or more ranks whose channel holds 2 or
     * more slices fills for e - shmShare slice times less, because its second slice also passes the busiest rank alone.
     *
     * <p>Why, from the same stages (the pipeline of {@link #fillSlices(int, double)}, a stage taking a = shmShare x T
     * alone and the busiest rank's up and down stages together e x T per slice). The rank next to the root, the first
     * to carry two slices at once, runs a slice's up call (stage nRanks - 1) two stages before the same slice's down
     * call (stage nRanks + 1; NCCL 2.29.2 {@code src/device/all_reduce.h runTreeSplit}: the up and down groups are
     * separate warps, so the two calls of different slices overlap). The leaf sends slice 2 one stage behind slice 1,
     * so that rank's first two up calls run alone, one after the other, before its first down call starts; only from
     * slice 3 on does an up call share the link with a down call. Its timeline: (nRanks - 2) a before slice 1 reaches
     * it, 2 a for the first two up calls, (k - 2) e T while ups and downs share, 2 a for the last two downs alone,
     * then (nRanks - 2) a for the last slice's remaining down stages: 2 nRanks a + (k - 2) e T in all, where
     * {@link #fillSlices(int, double)} with the data term's k e T says (2 nRanks - 1) a + (k - 1) e T: e T - a more.
     * A chain of 2 has no middle rank (its root carries every slice in one call): unchanged.
     *
     * <p>Checked, not fitted: 4x L40S over SHM (NCCL_ALGO=tree,
     * validation/src/test/resources/data/A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt lines 224
     * and 225): 1 MiB (one 512 KiB slice a channel) 358.6 us, 2 MiB (two) 421.7 us: the second slice added 63.1 us,
     * where a lone stage is 45.4 us and a steady slice at the middle ranks 2 x 512 KiB / (0.815 x 23.52 / 2 GB/s) =
     * 109.4 us; each further slice adds 103-112 us (lines 225-231).
     *
     * @param nRanks           ranks of the chain, >= 2
     * @param shmShare         the steady SHM share of the chain's links, in (0, 1]
     * @param slicesPerChannel slices a channel carries (k), >= 1
     * @return fillSlices(nRanks, shmShare), less (e - shmShare) when nRanks >= 3 and k >= 2
     */
    public static double fillSlices(int nRanks, double shmShare, long slicesPerChannel) {
        double e = 1.0 / busToAlgRatio(nRanks);
        double second = nRanks >= 3 && slicesPerChannel >= 2 ? e - shmShare : 0;
        return fillSlices(nRanks, shmShare) - second;
    }

    /**
     * The chain's algorithm bandwidth before collsim's efficiency and per-channel limits.
     *
     * @param in the communicator's tuning input (its ring graph)
     * @param p  protocol
     * @return GB/s; 0 when the communicator has no ring graph (the caller then keeps NCCL's Tree entry)
     */
    public static double algBw(TuningInput in, Protocol p) {
        return NcclTuningModel.ringBusBw(in, p) * busToAlgRatio(in.nRanks());
    }
}
