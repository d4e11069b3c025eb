package dev.collsim.simulator.schedule;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.simulator.tuning.TreeChunk;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * NCCL's Tree AllReduce: two complementary binary trees across hosts ({@link DoubleBinaryTree}), each carrying
 * half of the buffer, with a chain inside every host (tree 0 enters a host at its first local rank, tree 1 at
 * its last, as NCCL uses different GPUs/NICs for the two trees; each channel's chain is rotated inside the host so
 * channels use different NICs). Even channels run tree 0, odd channels tree 1
 * (one channel: both on channel 0). Each tree's share is cut into chunks of {@value #CHUNK_BYTES} bytes (NCCL
 * Simple: 4 MiB buffer / NCCL_STEPS 8, chunkSteps 1 for trees; nccl-model.md section 3.3) at every size, as NCCL
 * 2.20 and later do; for a release before 2.20 smaller for small Tree/Simple calls as NCCL halved them
 * ({@link #chunkBytes}, {@link #halvesTreeChunk}), and pipelined: a reduce up the tree and a broadcast down. In pipeline
 * step s, the edge from a node at depth d up to its parent carries chunk {@code s - (D - d)} (D the tree's depth),
 * and the edge down to a child at depth d carries chunk {@code s - D - (d - 1)}. Consecutive identical steps (the steady state, every edge busy) are one
 * {@link Step} with a repeat count. As in NCCL's TreeUpDown pattern the broadcast of a chunk leaves the root as soon
 * as its reduce has arrived, overlapping the reduce of later chunks (edges carry the reduce up and the broadcast
 * down at once, one direction each): chunks + 2 x depth - 1 steps. Before, the broadcast started only after the
 * whole reduce had drained, which doubled a bandwidth-bound Tree's time.
 */
public final class TreeSchedule implements ScheduleAlgorithm {

    /** Tree chunk: NCCL Simple buffer 4 MiB / NCCL_STEPS 8 (NCCL 2.30 {@code src/init.cc}, {@code enqueue.cc}). */
    public static final long CHUNK_BYTES = NcclSettings.DEFAULTS.stepBytes(Protocol.SIMPLE);

    /** True where the modelled release halves the chunk of small calls ({@link #halvesTreeChunk}). */
    private final boolean halveChunk;

    /** The Tree schedule of the default release ({@link NcclVersion#DEFAULT}): the chunk is never halved. */
    public TreeSchedule() {
        this(NcclVersion.DEFAULT, Protocol.SIMPLE);
    }

    /**
     * @param release  the NCCL release modelled: its rule for the Tree chunk ({@link #halvesTreeChunk})
     * @param protocol NCCL's protocol for the call, or null when none is known (a schedule given by the user: the
     *                 Simple rule)
     */
    public TreeSchedule(NcclVersion release, Protocol protocol) {
        this.halveChunk = halvesTreeChunk(release, protocol == null ? Protocol.SIMPLE : protocol);
    }

    /**
     * Whether a release halves the Tree chunk of small calls: only Tree/Simple, and only before 2.20. NCCL 2.18.5 to
     * 2.19.4 {@code src/enqueue.cc}
     * {@code computeColl} ("Optimize chunkSize / nSteps", Tree/Simple, pattern TreeUpDown; read at v2.18.5-1,
     * v2.19.3-1, v2.19.4-1) do; from v2.20.3-1 ({@code computeCollChunkInfo}, later {@code calcCollChunking}) such
     * loops are kept for CollNet only and the Tree chunk stays NCCL_BUFFSIZE / NCCL_STEPS x chunkSteps (read at
     * v2.20.3-1, v2.28.9-1). collsim's entry 2.19.4 stands for 2.19-2.20 ({@link NcclVersion#range}) and takes
     * 2.19's rule, so it models a 2.20 release's small Tree calls with the halved chunk.
     *
     * The loop sits inside {@code if (info->algorithm == NCCL_ALGO_TREE && info->protocol == NCCL_PROTO_SIMPLE)}
     * there, so Tree/LL and Tree/LL128 never halve.
     *
     * @param release  the NCCL release modelled
     * @param protocol NCCL's protocol
     * @return true for Simple under 2.18.5 and 2.19.4; false for LL and LL128, and from 2.21.5 on
     */
    public static boolean halvesTreeChunk(NcclVersion release, Protocol protocol) {
        return TreeChunk.halves(release.minor(), protocol);
    }

    /** Two Tree schedules are equal when they cut chunks alike (the release's and protocol's rule). */
    @Override
    public boolean equals(Object o) {
        return o instanceof TreeSchedule t && t.halveChunk == halveChunk;
    }

    @Override
    public int hashCode() {
        return Boolean.hashCode(halveChunk);
    }

    @Override
    public String name() {
        return "Tree";
    }

    @Override
    public boolean supports(Collective c) {
        return c == Collective.ALL_REDUCE;
    }

    @Override
    public Schedule schedule(ScheduleRequest r) {
        checkSupported(r);
        int n = r.nRanks();
        List<Step> steps = new ArrayList<>();
        if (r.movesData()) {
            int[][] channels = {channelsOf(r.nChannels(), 0), channelsOf(r.nChannels(), 1)};
            int[][][] parent = new int[2][][];
            int[][][] depth = new int[2][][];
            int[] maxDepth = new int[2];
            for (int t = 0; t < 2; t++) {
                parent[t] = new int[channels[t].length][];
                depth[t] = new int[channels[t].length][];
                for (int i = 0; i < channels[t].length; i++) {
                    parent[t][i] = rankParents(r, t, channels[t][i]);
                    depth[t][i] = DoubleBinaryTree.depths(parent[t][i]);
                }
                maxDepth[t] = Arrays.stream(depth[t][0]).max().orElse(0);
            }
            double[] perChannel = new double[2];
            long[] chunks = new long[2];
            long chunk = halveChunk ? chunkBytes(r.sizeBytes(), r.nChannels(), Math.max(maxDepth[0], maxDepth[1]))
                    : CHUNK_BYTES;
            for (int t = 0; t < 2; t++) {
                perChannel[t] = r.sizeBytes() / 2.0 / channels[t].length;
                chunks[t] = Math.max(1, (long) Math.ceil(perChannel[t] / chunk));
            }
            long total = Math.max(chunks[0] + 2L * maxDepth[0] - 1, chunks[1] + 2L * maxDepth[1] - 1);
            long s = 0;
            while (s < total) {
                int[][] active = {active(s, chunks[0], maxDepth[0]), active(s, chunks[1], maxDepth[1])};
                long run = 1;
                while (s + run < total && Arrays.equals(active[0], active(s + run, chunks[0], maxDepth[0]))
                        && Arrays.equals(active[1], active(s + run, chunks[1], maxDepth[1]))) {
                    run++;
                }
                List<Transfer> ts = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    ts.addAll(edges(n, channels[t], parent[t], depth[t], perChannel[t] / chunks[t], active[t]));
                }
                steps.add(new Step("tree pipeline step " + s, ts, run));
                s += run;
            }
        }
        return scheduleOf(r, steps);
    }

    /** @return one tree's transfers of {@code bytes} over its edges whose child depth is in the active ranges */
    private static List<Transfer> edges(int n, int[] channels, int[][] parent, int[][] depth, double bytes,
            int[] active) {
        List<Transfer> ts = new ArrayList<>();
        for (int i = 0; i < channels.length; i++) {
            int[] p = parent[i];
            for (int rank = 0; rank < n; rank++) {
                int d = depth[i][rank];
                int c = channels[i];
                if (p[rank] >= 0 && d >= active[0] && d <= active[1]) {
                    ts.add(new Transfer(rank, p[rank], bytes, c));
                }
                if (p[rank] >= 0 && d >= active[2] && d <= active[3]) {
                    ts.add(new Transfer(p[rank], rank, bytes, c));
                }
            }
        }
        return ts;
    }

    /**
     * NCCL's Tree/Simple chunk before 2.20 for a call (used only where {@link #halvesTreeChunk}): {@link TreeChunk#bytes}
     * from {@value #CHUNK_BYTES} bytes.
     *
     * @param nBytes    call size, bytes
     * @param nChannels channels, >= 1
     * @param depth     tree depth in ranks (chain inside the host plus tree across hosts)
     * @return chunk, bytes
     */
    static long chunkBytes(long nBytes, int nChannels, int depth) {
        return TreeChunk.bytes(CHUNK_BYTES, nBytes, nChannels, depth);
    }

    /**
     * @return [upLo, upHi, downLo, downHi]: child depths whose edge up (reduce) and down (broadcast) is busy in
     *         step s; the broadcast of chunk j leaves the root in step j + depth, right after its reduce arrived
     */
    private static int[] active(long s, long k, int depth) {
        int[] up = activeDepths(true, s, k, depth);
        int[] down = s >= depth ? activeDepths(false, s - depth, k, depth) : new int[] {1, 0};
        return new int[] {up[0], up[1], down[0], down[1]};
    }

    /** @return [lo, hi] of child depths whose edge is busy in step s (empty when lo > hi) */
    private static int[] activeDepths(boolean up, long s, long k, int depth) {
        long lo;
        long hi;
        if (up) {
            lo = depth - s;
            hi = depth - s + k - 1;
        } else {
            lo = s - k + 2;
            hi = s + 1;
        }
        lo = Math.max(lo, 1);
        hi = Math.min(hi, depth);
        return lo > hi ? new int[] {1, 0} : new int[] {(int) lo, (int) hi};
    }

    private static int[] channelsOf(int nChannels, int tree) {
        int count = (nChannels + 1 - tree) / 2;
        if (count == 0) {
            return new int[] {0};
        }
        int[] cs = new int[count];
        for (int i = 0; i < count; i++) {
            cs[i] = 2 * i + tree;
        }
        return cs;
    }

    /**
     * Rotation of the chain inside each host for a channel. NCCL runs its two trees on a pair of channels that share
     * one search channel, so one GPU and NIC (NCCL 2.x {@code src/graph/connect.cc}: channel c + nChannels copies
     * channel c's graph with the other tree): each NIC is then interior in one tree and leaf in the other. Here
     * channels 2i (tree 0) and 2i + 1 (tree 1) are pair i; the pairs are spread over the host's local ranks (pair i
     * at local rank {@code i L / pairs}, or {@code i mod L} when there are more pairs than ranks), and both trees of a
     * pair enter and leave the host through that rank: tree 0's head is chain position 0, tree 1's position L - 1,
     * so tree 1's chain is rotated one further.
     */
    static int rotation(int nChannels, int l, int tree, int channel) {
        return rotation(nChannels, l, l, tree, channel);
    }

    /**
     * As {@link #rotation(int, int, int, int)}, the pairs spread over local ranks 0 .. nicRanks-1 only (the ranks
     * with a NIC of their own, {@link ScheduleRequest#nicRanks}; NCCL's trees enter a node through a GPU next to
     * the channel's NIC).
     */
    static int rotation(int nChannels, int l, int nicRanks, int tree, int channel) {
        int pairs = Math.max(1, nChannels / 2);
        int pair = channel / 2;
        int base = pairs <= nicRanks ? pair * nicRanks / pairs : pair % nicRanks;
        return (base + tree) % l;
    }

    /**
     * Parent rank of every rank for one channel: a chain inside each host, the double binary tree between host
     * heads. The chain order is rotated by the channel (position j is local rank {@code (j + channel) mod L}), as
     * for rings, so different channels enter and leave hosts through different GPUs and NICs. With {@link
     * ScheduleRequest#channelEntries} (hosts with fewer NICs than GPUs) pair i's head is the entry of i modulo their
     * count, a GPU local to NIC i mod NICs: NCCL's tree search starts each search channel at the next NIC and its
     * local GPU, and a tree leaves by the GPU and NIC it entered (NCCL 2.30.7 {@code src/graph/search.cc
     * ncclTopoSearchRecNet}, "Trees are symmetric").
     */
    private static int[] rankParents(ScheduleRequest r, int tree, int channel) {
        int l = r.ranksPerHost();
        List<Integer> entries = r.channelEntries();
        int rot = entries.isEmpty() ? rotation(r.nChannels(), l, r.nicRanks() > 0 ? r.nicRanks() : l, tree, channel)
                : (entries.get(channel / 2 % entries.size()) + tree) % l;
        int[] hostParent = DoubleBinaryTree.parents(r.hosts(), tree);
        int[] p = new int[r.nRanks()];
        int headPos = tree == 0 ? 0 : l - 1;
        for (int g = 0; g < r.hosts(); g++) {
            for (int j = 0; j < l; j++) {
                int rank = g * l + (j + rot) % l;
                if (j != headPos) {
                    int up = tree == 0 ? j - 1 : j + 1;
                    p[rank] = g * l + (up + rot) % l;
                } else if (hostParent[g] < 0) {
                    p[rank] = -1;
                } else {
                    p[rank] = hostParent[g] * l + (headPos + rot) % l;
                }
            }
        }
        return p;
    }
}
