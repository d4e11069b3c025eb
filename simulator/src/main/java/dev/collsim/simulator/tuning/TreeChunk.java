package dev.collsim.simulator.tuning;

import dev.collsim.nccl.Protocol;

/**
 * NCCL's Tree/Simple chunk before 2.20: the Simple step (NCCL_BUFFSIZE / NCCL_STEPS, 512 KiB by default; chunkSteps
 * 1 for Tree), halved for calls with few chunks per channel against the tree's depth, "Optimize chunkSize / nSteps"
 * (NCCL v2.8.4-1 {@code src/enqueue.cc} lines 385-387, v2.17.1-1 lines 1306-1308, v2.19.4-1 lines 1352-1354, inside
 * {@code if (info->algorithm == NCCL_ALGO_TREE && info->protocol == NCCL_PROTO_SIMPLE)}, pattern TreeUpDown):
 * <pre>
 *   while (nBytes / (nChannels x chunk) &lt; depth x 8 &amp;&amp; chunk &gt; 131072) chunk /= 2;
 *   while (nBytes / (nChannels x chunk) &lt; depth x 4 &amp;&amp; chunk &gt; 65536)  chunk /= 2;
 *   while (nBytes / (nChannels x chunk) &lt; depth     &amp;&amp; chunk &gt; 32768)  chunk /= 2;
 * </pre>
 * with integer division, nChannels the call's channels and depth {@code comm->channels[0].tree.depth}, which NCCL
 * sets to {@code nRanks / nNodes - 1 + log2i(nNodes)} ("Not an exact value but a good approximation", v2.17.1-1
 * {@code src/graph/connect.cc} line 139). From v2.20.3-1 ({@code computeCollChunkInfo}, later
 * {@code calcCollChunking}, read at v2.28.9-1) only CollNet keeps such loops: the Tree chunk is the whole step at
 * every size. The one home of the rule for both backends: the flow backend's {@code schedule.TreeSchedule} and the
 * analytical fill ({@code perf.TreeSimpleFill}). Stateless.
 */
public final class TreeChunk {

    /** First NCCL 2 minor release without the halving (v2.20.3-1). */
    public static final int FIRST_WHOLE_MINOR = 20;

    /** Last NCCL 2 minor release whose CollNet is the chain with 2.8's chunk rule ({@link #collNetChain}). */
    public static final int LAST_CHAIN_2_8_MINOR = 8;

    private TreeChunk() {
    }

    /**
     * @param minor    the NCCL 2 minor release
     * @param protocol NCCL's protocol of the call
     * @return true for Simple before 2.20; false for LL, for LL128 (its own halving, {@link #ll128}, in every
     *         release) and from 2.20 on
     */
    public static boolean halves(int minor, Protocol protocol) {
        return minor < FIRST_WHOLE_MINOR && protocol == Protocol.SIMPLE;
    }

    /** LL128's grain, bytes: NCCL 2.30.7 {@code ncclProtoGrainSize(NCCL_PROTO_LL128)}, 32 x 8 / 16 x 15 x 8. */
    public static final int LL128_GRAIN = 1920;

    /**
     * NCCL's Tree/LL128 chunk, halved for calls with few chunks per channel in every release (v2.12.12-1 to
     * v2.30.7-1 {@code src/enqueue.cc}, {@code info->algorithm == NCCL_ALGO_TREE && info->protocol ==
     * NCCL_PROTO_LL128}; v2.30.7-1 lines 2286-2294), then aligned down to {@link #LL128_GRAIN} (line 2321):
     * <pre>
     *   ppn = nRanks / nNodes (float), nsteps = 1 + log2i(nNodes) + 0.1 x ppn
     *   while (nBytes / (nChannels x chunk) &lt; nsteps x 64 / ppn &amp;&amp; chunk &gt; 131072) chunk /= 2;
     *   while (nBytes / (nChannels x chunk) &lt; nsteps x 16 / ppn &amp;&amp; chunk &gt; 32768)  chunk /= 2;
     * </pre>
     * with integer division on the left. 2 nodes x 8 ranks on 16 channels: nsteps 2.8, bounds 22.4 and 5.6; from
     * the default 576,000 bytes (4,915,200 / 8 x 15 / 16) a call of 8 MiB halves to 72,000 (71,040 aligned), of
     * 1 MiB to 18,000 (17,280), of 128 MiB to 288,000.
     *
     * @param step      the LL128 chunk NCCL starts from, bytes ({@code CalcCollChunking.chunk})
     * @param nBytes    the call's bytes
     * @param nChannels the call's channels, &gt;= 1
     * @param nRanks    ranks, &gt;= 1
     * @param nNodes    NCCL nodes, &gt;= 1
     * @return chunk, bytes, at least one grain
     */
    public static long ll128(long step, long nBytes, int nChannels, int nRanks, int nNodes) {
        int nodes = Math.max(1, nNodes);
        float ppn = Math.max(1, nRanks) / (float) nodes;
        float nsteps = (float) (1 + NcclTuningModel.log2i(nodes) + 0.1 * ppn);
        long chunk = step;
        long nc = Math.max(1, nChannels);
        while (nBytes / (nc * chunk) < nsteps * 64 / ppn && chunk > 131072) {
            chunk /= 2;
        }
        while (nBytes / (nc * chunk) < nsteps * 16 / ppn && chunk > 32768) {
            chunk /= 2;
        }
        return Math.max(LL128_GRAIN, chunk / LL128_GRAIN * LL128_GRAIN);
    }

    /**
     * NCCL's tree depth as its chunk rule reads it ({@code tree.depth}, v2.17.1-1 {@code src/graph/connect.cc} line
     * 139): the ranks of a node less one plus NCCL's floor log2 of the nodes.
     *
     * @param nRanks ranks, >= 1
     * @param nNodes NCCL nodes, >= 1
     * @return depth, >= 0
     */
    public static int ncclDepth(int nRanks, int nNodes) {
        return nRanks / nNodes - 1 + NcclTuningModel.log2i(Math.max(1, nNodes));
    }

    /**
     * The halved chunk (the loops in the class comment).
     *
     * @param step      the Simple step NCCL starts from, bytes (NCCL_BUFFSIZE / 8)
     * @param nBytes    the call's bytes
     * @param nChannels the call's channels, >= 1
     * @param depth     the tree depth NCCL reads ({@link #ncclDepth})
     * @return chunk, bytes
     */
    public static long bytes(long step, long nBytes, int nChannels, int depth) {
        return halved(step, nBytes, nChannels, depth, 8, 4);
    }

    /**
     * NCCL's CollNet chain chunk (Simple), halved for calls with few chunks per channel against the chain's depth,
     * {@code collnetChain.depth} / {@code collTree.depth} = nRanks / nNodes (v2.8.4-1 {@code src/graph/connect.cc}
     * line 172, v2.28.9-1 line 464). Two forms:
     * <pre>
     *   2.8 (v2.8.4-1 src/enqueue.cc lines 391-395; nChannels = comm-&gt;nChannels / 2, line 305, never reduced):
     *     chunk = step
     *     while (nBytes / (nChannels x chunk) &lt; depth x 16 &amp;&amp; chunk &gt; 131072) chunk /= 2;
     *     while (nBytes / (nChannels x chunk) &lt; depth x 4  &amp;&amp; chunk &gt; 65536)  chunk /= 2;
     *     while (nBytes / (nChannels x chunk) &lt; depth      &amp;&amp; chunk &gt; 32768)  chunk /= 2;
     *   2.14 to 2.28 (v2.14.3-1 lines 1218-1221, v2.28.9-1 lines 2036-2040; nChannels the call's):
     *     chunk = min(256 KiB, step)
     *     the same loops with depth x 64, depth x 8 and depth
     * </pre>
     * 2 x 8 A100 under 2.8 (4 logical channels, depth 8, 512 KiB step): 32 KiB at 1 MiB, 64 KiB at 2-8 MiB, 128 KiB
     * at 16-128 MiB, 512 KiB from 256 MiB.
     *
     * @param minor     the run's NCCL 2 minor release
     * @param step      the Simple step, bytes (NCCL_BUFFSIZE / 8)
     * @param nBytes    the call's bytes
     * @param nChannels the channels NCCL's rule divides by (2.8: comm-&gt;nChannels / 2), &gt;= 1
     * @param depth     the chain's depth, nRanks / nNodes
     * @return chunk, bytes
     */
    public static long collNetChain(int minor, long step, long nBytes, int nChannels, int depth) {
        boolean early = minor <= LAST_CHAIN_2_8_MINOR;
        return early ? halved(step, nBytes, nChannels, depth, 16, 4)
                : halved(Math.min(256 * 1024, step), nBytes, nChannels, depth, 64, 8);
    }

    /**
     * NCCL's three halving loops of a Simple chunk: halve while the call has fewer than depth x {@code first}
     * chunks per channel and the chunk is above 128 KiB, then depth x {@code second} above 64 KiB, then depth above
     * 32 KiB (integer division, as NCCL's {@code nBytes / (nChannels * chunkSize)}).
     *
     * @return chunk, bytes
     */
    private static long halved(long start, long nBytes, int nChannels, long depth, long first, long second) {
        long chunk = start;
        long nc = Math.max(1, nChannels);
        while (nBytes / (nc * chunk) < depth * first && chunk > 131072) {
            chunk /= 2;
        }
        while (nBytes / (nc * chunk) < depth * second && chunk > 65536) {
            chunk /= 2;
        }
        while (nBytes / (nc * chunk) < depth && chunk > 32768) {
            chunk /= 2;
        }
        return chunk;
    }
}
