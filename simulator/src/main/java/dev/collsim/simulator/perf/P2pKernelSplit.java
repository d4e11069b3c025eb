package dev.collsim.simulator.perf;

import static dev.collsim.nccl.NcclDevice.NCCL_MAX_DEV_WORK_P2P_PER_BATCH;

import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.NcclDevice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How NCCL cuts the point-to-point operations of one AllToAll into kernels and spreads them over its channels, as
 * {@code scheduleP2pTasksToPlan} does in NCCL 2.22.3 to 2.28.9 ({@code src/enqueue.cc}; the same code, budget and
 * structure sizes at the tags v2.22.3-1, v2.27.3-1 and v2.28.9-1). NCCL 2.30.7 reworked the scheduler (p2p epochs,
 * {@code ncclP2pChannelForPart} = (base + part) mod channels), which collsim has not read through, so this class
 * models the releases up to 2.28.9 only.
 *
 * <p>What the source fixes:
 * <ol>
 *   <li>Rounds. A rank meets its peers in rounds ({@code src/init.cc}, the p2p schedule): node delta 0 first (the
 *       rank's own node, round 0 the rank itself), then the other nodes, one node's local ranks after the other. With
 *       L ranks on every node, rounds 0..L-1 are the node's own ranks and the rest remote. (Nodes of unequal size
 *       make NCCL use one flat schedule: not modelled, {@link #applies}.)</li>
 *   <li>Channels. Round r's work is put on channels {@code ncclP2pChannelForPart(nCh, base, part)} =
 *       (base + bits of part reversed over log2 nCh) mod nCh for part = 0 .. channels per peer - 1
 *       ({@code addP2pToPlan}: {@code addWorkBatchToPlan} for every part below nChannelsMax, data or not), with
 *       base = r mod 256 on one node and (r / L) x ceil(L / 8) + (r mod L) / 8 on several
 *       ({@code src/include/channel.h ncclP2pChannelBaseForRound}); a send of B bytes is cut into
 *       {@link P2pPeerChannels#forOperation} equal parts, part i on the channel of part i.</li>
 *   <li>Batches. A channel's works are grouped in batches of at most 8
 *       ({@link NcclDevice#NCCL_MAX_DEV_WORK_P2P_PER_BATCH}; {@code addWorkBatchToPlan}), and a batch
 *       whose first work lies more than 63 works back in the plan is extended by another batch entry.</li>
 *   <li>Budget. Before each round NCCL tests {@code testBudget(nWorkBatches + nChannelsMax, workBytes +
 *       sizeof(ncclDevWorkP2p))}: it passes when batches x 16 B + works x 48 B fit in the kernel's arguments (4096 B,
 *       {@code ncclMaxKernelArgsSize}, less the 32 B {@code ncclDevKernelArgs}), or the batches fit there and the
 *       works in half of the work FIFO (NCCL_WORK_FIFO_BYTES / 2, 1 MiB by default); otherwise the plan is closed and
 *       the rest goes to the next kernel, which starts when this one ends. With NCCL_WORK_FIFO_BYTES=0 every work
 *       must fit in the 4 KiB of arguments.</li>
 * </ol>
 * Struct sizes: {@code ncclDevWorkBatch} 16 B (4 + 4 + 8), {@code ncclDevWorkP2p} 48 B (two pointers, two size_t,
 * two int, seven bytes, aligned to 16), {@code ncclDevKernelArgs} 32 B (aligned to 16); read from
 * {@code src/include/device.h} at v2.27.3-1 and v2.28.9-1.
 *
 * <p>A channel runs the works of its batches on one CTA, so a kernel lasts as long as its most loaded channel (or the
 * links, {@link P2pModel}); the rounds' works are counted here as parts per channel. Out of place, as nccl-tests'
 * first time column: the rank's own chunk is a work too (in place NCCL skips it without a budget test). Stateless.
 */
public final class P2pKernelSplit {

    /** ncclMaxKernelArgsSize, bytes ({@code src/include/device.h}: 4 KiB for every architecture). */
    public static final int KERNEL_ARGS_BYTES = 4096;
    /** sizeof(ncclDevKernelArgs), bytes. */
    public static final int KERNEL_ARGS_HEADER_BYTES = 32;
    /** sizeof(ncclDevWorkBatch), bytes. */
    public static final int WORK_BATCH_BYTES = 16;
    /** sizeof(ncclDevWorkP2p), bytes. */
    public static final int WORK_P2P_BYTES = 48;
    /** Works a batch may reach back before an extension batch: {@code 63*workSize < offset} in addWorkBatchToPlan. */
    private static final int BATCH_REACH = 63;

    private P2pKernelSplit() {
    }

    /**
     * One kernel of the call.
     *
     * @param localPeers  node peers whose data it moves (the rank itself not counted)
     * @param remotePeers peers on other nodes whose data it moves
     * @param maxParts    parts of peers' data on its most loaded channel (the rank's own chunk not counted)
     */
    public record Kernel(int localPeers, int remotePeers, int maxParts) {
    }

    /**
     * @param nNodes   NCCL nodes
     * @param nRanks   ranks
     * @param maxLocal ranks of the largest node
     * @return true when every node has the same number of ranks (NCCL's node-by-node schedule)
     */
    public static boolean applies(int nNodes, int nRanks, int maxLocal) {
        return nRanks > 1 && maxLocal > 0 && (long) nNodes * maxLocal == nRanks;
    }

    /**
     * The kernels of one AllToAll, out of place, as NCCL plans them (class comment).
     *
     * @param nNodes        NCCL nodes, >= 1
     * @param localRanks    ranks per node, >= 1 (nRanks = nNodes x localRanks)
     * @param p2pChannels   comm.p2pnChannels, a power of two
     * @param perPeer       comm.p2pnChannelsPerPeer (nChannelsMax), a power of two
     * @param partsPerPeer  channels one peer's send is cut over ({@link P2pPeerChannels#forOperation})
     * @param workFifoBytes NCCL_WORK_FIFO_BYTES as NCCL keeps it, bytes
     * @return the kernels in launch order, at least one
     */
    public static List<Kernel> kernels(int nNodes, int localRanks, int p2pChannels, int perPeer, int partsPerPeer,
            long workFifoBytes) {
        int nRanks = nNodes * localRanks;
        int bits = Integer.numberOfTrailingZeros(p2pChannels);
        long inArgs = KERNEL_ARGS_BYTES - KERNEL_ARGS_HEADER_BYTES;
        long outArgs = workFifoBytes / 2;
        List<Kernel> out = new ArrayList<>();
        Plan plan = new Plan(p2pChannels);
        for (int r = 0; r < nRanks; r++) {
            if (!fits(plan.batches + perPeer, plan.workBytes + WORK_P2P_BYTES, inArgs, outArgs)) {
                out.add(plan.kernel());
                plan = new Plan(p2pChannels);
            }
            int base = base(r, nNodes, localRanks);
            long offset = plan.workBytes;
            plan.workBytes += WORK_P2P_BYTES;
            for (int part = 0; part < perPeer; part++) {
                plan.addWork(channelForPart(p2pChannels, bits, base, part), offset);
            }
            if (r == 0) {
                continue;
            }
            for (int part = 0; part < partsPerPeer; part++) {
                plan.parts[channelForPart(p2pChannels, bits, base, part)]++;
            }
            if (r < localRanks) {
                plan.local++;
            } else {
                plan.remote++;
            }
        }
        out.add(plan.kernel());
        return out;
    }

    /**
     * The bandwidth time of a call cut into these kernels, which run one after the other: per kernel the longest of
     * its node peers' share of the call's NVLink time, its remote peers' share of the call's network time and its
     * most loaded channel's parts at one channel's rate.
     *
     * @param kernels      {@link #kernels}
     * @param tIntraUs     the whole call's time on the links inside the node, us
     * @param tInterUs     the whole call's time on the network, us
     * @param partBytes    bytes of one part of one peer's send
     * @param channelGBps  one channel's rate, GB/s (1e9 B/s), > 0
     * @return us
     */
    public static double bandwidthUs(List<Kernel> kernels, double tIntraUs, double tInterUs, double partBytes,
            double channelGBps) {
        int local = 0;
        int remote = 0;
        for (Kernel k : kernels) {
            local += k.localPeers();
            remote += k.remotePeers();
        }
        double sum = 0;
        for (Kernel k : kernels) {
            double intra = local == 0 ? 0 : tIntraUs * k.localPeers() / local;
            double inter = remote == 0 ? 0 : tInterUs * k.remotePeers() / remote;
            sum += Math.max(Math.max(intra, inter), BusBandwidth.timeUs(k.maxParts() * partBytes, channelGBps));
        }
        return sum;
    }

    /** testBudget ({@code src/enqueue.cc}). */
    static boolean fits(long batches, long workBytes, long inArgs, long outArgs) {
        long batchBytes = batches * WORK_BATCH_BYTES;
        return batchBytes + workBytes <= inArgs || (batchBytes <= inArgs && workBytes <= outArgs);
    }

    /** ncclP2pChannelBaseForRound ({@code src/include/channel.h}). */
    static int base(int round, int nNodes, int localRanks) {
        if (nNodes > 1) {
            int nodeDelta = round / localRanks;
            int localDelta = round % localRanks;
            int perBatch = NCCL_MAX_DEV_WORK_P2P_PER_BATCH;
            int b = nodeDelta * ((localRanks + perBatch - 1) / perBatch) + localDelta / perBatch;
            return b & 0xff;
        }
        return round & 0xff;
    }

    /** ncclP2pChannelForPart as in 2.22.3-2.28.9 ({@code src/include/device.h}): the part's bits reversed. */
    static int channelForPart(int p2pChannels, int bits, int base, int part) {
        int delta = bits == 0 ? 0 : Integer.reverse(part) >>> (Integer.SIZE - bits);
        return (base + delta) & (p2pChannels - 1);
    }

    /** The plan being filled: NCCL's per-channel work-in-progress batch and the plan's totals. */
    private static final class Plan {
        private final int[] batchWorks;
        private final long[] batchBase;
        private final int[] parts;
        private int batches;
        private long workBytes;
        private int local;
        private int remote;

        Plan(int channels) {
            batchWorks = new int[channels];
            batchBase = new long[channels];
            parts = new int[channels];
            Arrays.fill(batchWorks, -1);
        }

        /** addWorkBatchToPlan: a new batch when the channel has none or 8 works; an extension when far back. */
        void addWork(int channel, long offset) {
            if (batchWorks[channel] < 0 || batchWorks[channel] == NCCL_MAX_DEV_WORK_P2P_PER_BATCH) {
                batches++;
                batchWorks[channel] = 0;
                batchBase[channel] = offset;
            } else if ((long) BATCH_REACH * WORK_P2P_BYTES < offset - batchBase[channel]) {
                batches++;
                batchBase[channel] = offset;
            }
            batchWorks[channel]++;
        }

        Kernel kernel() {
            int max = 0;
            for (int p : parts) {
                max = Math.max(max, p);
            }
            return new Kernel(local, remote, max);
        }
    }
}
