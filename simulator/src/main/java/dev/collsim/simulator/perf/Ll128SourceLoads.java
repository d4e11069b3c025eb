package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.tuning.ReleaseRules;

/**
 * The per-byte time of a Ring LL128 call of NCCL 2.9 or older, whose primitive loads its user input into shared
 * memory before it loads the peer's lines ({@link #ll128StagesInputBeforeReceive}; NCCL v2.8.4-1 and
 * v2.9.9-1 {@code src/collectives/device/prims_ll128.h} {@code GenericOp}: {@code loadSrcToShmem128},
 * {@code __syncwarp}, then {@code recvReduceSendCopy}'s peer loads), where from v2.10.3-1 {@code loadRegsBegin}
 * issues both before either is waited for.
 *
 * <p>Per warp iteration a primitive waits for one global-memory round trip when it either reads its input or receives
 * ({@code send}, {@code copySend}, {@code recv}, {@code recvCopySend}), in every release; one that does both
 * ({@code recvReduceSend}, {@code recvReduceCopySend}, {@code recvReduceCopy}) waits for two one after the other up
 * to 2.9 and for one from 2.10. collsim's assumption: an LL128 channel's rate is set by its warps' round trips (its
 * data in flight per round trip is fixed: {@code NCCL_LL128_SHMEM_ELEMS_PER_THREAD} 8 words per thread), so an older
 * call's per-byte time is the newer one's times (round trips up to 2.9) / (round trips from 2.10) summed over the
 * primitives a rank runs, each on one chunk (NCCL v2.8.4-1 {@code src/collectives/device/*.h}, the LL128 ring
 * functions):
 *
 * <ul>
 *   <li>AllReduce, n ranks: {@code send}, n-2 {@code recvReduceSend}, {@code recvReduceCopySend}, n-2
 *       {@code recvCopySend}, {@code recv}: 2n-1 primitives, n-1 of them both reading and receiving, so
 *       (3n-2) / (2n-1) (4 ranks 10/7, 8 ranks 22/15, towards 3/2);</li>
 *   <li>ReduceScatter: {@code send}, n-2 {@code recvReduceSend}, {@code recvReduceCopy}: (2n-1) / n;</li>
 *   <li>Reduce: a chain whose middle ranks run {@code recvReduceSend} and whose root runs {@code recvReduceCopy}: its
 *       slowest stage, 2 (from 2 ranks on the root's own step);</li>
 *   <li>AllGather and Broadcast: no primitive both reads its input and receives, 1.</li>
 * </ul>
 *
 * <p>Where it applies ({@link PerformanceModel}): the per-channel cap (the CTA's rate) everywhere, and on one node
 * NCCL's link figure too, which there stands for the CTAs' aggregate rate (Ring/LL128 {@code busBw = min(0.92 x nCh
 * x bwIntra, nCh x perChMaxRingLL128Bw)}, NCCL 2.30.7 {@code src/graph/tuning.cc}: 4 or 8 A100 on NVSwitch 0.92 x 12
 * x 20 = 220.8 against 12 x 20 = 240, the two within 9 %). Between nodes the NICs' share of a channel is below a
 * CTA's rate and binds, so a slower kernel does not show there (the multi-node NCCL 2.8 runs miss for another cause,
 * docs/nccl-releases.md).
 *
 * <p>The Tree's LL128 AllReduce stays 1: a middle rank runs its up half ({@code recvReduceSend}) on 70 % of the
 * threads and its down half ({@code recvCopySend}) on 30 % ({@code NCCL_LL128_SPLIT}, v2.8.4-1
 * {@code src/include/devcomm.h}; the same 7/10 in v2.10.3-1 and v2.18.5-1 {@code all_reduce.h}), so per byte the up
 * half takes 2 / 0.7 = 2.9 round trips per thread share up to 2.9 and 1 / 0.7 = 1.4 from 2.10, the down half 1 / 0.3
 * = 3.3 in both: the down half binds either way (the root, {@code recvReduceCopySend} on every thread, 2 / 1 = 2).
 * Not modelled: the shared-memory hops themselves, and the LL protocol (its v2.8.4-1 loop already issues the input's
 * load before the peer's poll).
 * Measured against it: NCCL 2.8.4 Ring/LL128 on one node of 4 A100 (ABCI, A-allreduce-1x4-1x8xA100-40GB-abci-anode-
 * nccl2.8.txt lines 42-43) moved 2 MiB more in 31.0 us between 2 and 4 MiB, 101 GB/s of bus bandwidth, where the
 * 2.18 table collsim times it on gives 220.8 x 0.96 = 212 (x 7/10: 148).
 *
 * <p>Stateless.
 */
public final class Ll128SourceLoads {

    /** First NCCL 2 minor release whose LL128 primitive loads its input straight into registers (v2.10.3-1). */
    static final int FIRST_LL128_REGISTER_LOADS_MINOR = 10;

    private Ll128SourceLoads() {
    }

    /**
     * @param func   the collective
     * @param a      NCCL's algorithm
     * @param p      NCCL's protocol
     * @param nRanks ranks of the communicator
     * @param rules  the run's release rules
     * @return the factor on the call's per-byte time, 1 unless a Ring LL128 call of NCCL 2.9 or older
     */
    public static double timeFactor(Collective func, Algorithm a, Protocol p, int nRanks, ReleaseRules rules) {
        if (p != Protocol.LL128 || a != Algorithm.RING || nRanks < 2 || !ll128StagesInputBeforeReceive(rules)) {
            return 1.0;
        }
        return switch (func) {
            case ALL_REDUCE -> (3.0 * nRanks - 2) / (2.0 * nRanks - 1);
            case REDUCE_SCATTER -> (2.0 * nRanks - 1) / nRanks;
            case REDUCE -> 2.0;
            default -> 1.0;
        };
    }

    /**
     * Whether the run's LL128 kernel stages its user input through shared memory before it reads the peer's lines.
     * Up to 2.9 the LL128 primitive ({@code src/collectives/device/prims_ll128.h} {@code GenericOp}, v2.8.4-1 and
     * v2.9.9-1) copies each warp's input slice from global to shared memory ({@code loadSrcToShmem128}) and only
     * then, after {@code __syncwarp}, loads the peer's lines in {@code recvReduceSendCopy}: two global round trips one
     * after the other wherever a step both reads its input and receives. From v2.10.3-1 (the primitives' rewrite)
     * {@code loadRegsBegin} issues the input's loads into registers before the peer's are issued and
     * {@code loadRegsFinish} collects them after ("defer that shuffle ... until after other memops are launched"):
     * one round trip.
     *
     * @param rules the run's release rules
     * @return true for a run of NCCL 2.9 or older
     */
    static boolean ll128StagesInputBeforeReceive(ReleaseRules rules) {
        return rules.runMinor() < FIRST_LL128_REGISTER_LOADS_MINOR;
    }
}
