package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;

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
 * chain from the root) forwards at every rank but the last; other algorithms keep the whole step.
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
}
