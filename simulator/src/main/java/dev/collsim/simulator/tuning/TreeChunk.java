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

    private TreeChunk() {
    }

    /**
     * @param minor    the NCCL 2 minor release
     * @param protocol NCCL's protocol of the call
     * @return true for Simple before 2.20; false for LL and LL128 (never halved) and from 2.20 on
     */
    public static boolean halves(int minor, Protocol protocol) {
        return minor < FIRST_WHOLE_MINOR && protocol == Protocol.SIMPLE;
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
        long chunk = step;
        long nc = Math.max(1, nChannels);
        while (nBytes / (nc * chunk) < depth * 8L && chunk > 131072) {
            chunk /= 2;
        }
        while (nBytes / (nc * chunk) < depth * 4L && chunk > 65536) {
            chunk /= 2;
        }
        while (nBytes / (nc * chunk) < depth && chunk > 32768) {
            chunk /= 2;
        }
        return chunk;
    }
}
