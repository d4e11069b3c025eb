package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.HardwareClass;
import dev.collsim.simulator.tuning.TuningConstants;

/**
 * The share of the per-channel Simple cap ({@link PerformanceParameters#perChannelCap}) a rooted Simple Ring
 * (Broadcast, Reduce) keeps: its channels hand their data on in slices half the size of the Ring AllReduce's the cap
 * was measured on, and every slice waits one step handshake in series with its copy. Applied by
 * {@link PerformanceModel} to the per-channel cap, so the data term and the pipeline fill ({@link PipelineFill},
 * charged at the per-channel rate) both carry it. Used for collsim's time prediction only.
 *
 * <p>What the source shows (NCCL 2.24.3, 2.28.9 and 2.30.7 {@code src/device/prims_simple.h genericOp}): one
 * channel's threads walk their slices in order: {@code waitPeer} (the peer's step counter), the workers' barrier, the
 * copy ({@code reduceCopy}), the barrier, {@code postPeer} (a fence and the counter's store); the next slice's loads
 * start only after that. So each slice pays one handshake beside its bytes, whatever the link. The slice is
 * sliceSteps x stepSize: a Ring AllReduce, AllGather and ReduceScatter run {@code ProtoSimple<2, 2>} (ALLREDUCE_,
 * ALLGATHER_, REDUCESCATTER_SLICESTEPS = NCCL_STEPS / 4 = 2, {@code src/include/collectives.h}), slices of 2 steps,
 * 1 MiB at the default NCCL_BUFFSIZE of 4 MiB (stepSize = buffSize / NCCL_STEPS = 512 KiB); Broadcast and Reduce run
 * {@code ProtoSimple<1, 1>} (BROADCAST_ and REDUCE_ CHUNKSTEPS and SLICESTEPS 1, {@code src/device/broadcast.h},
 * {@code reduce.h runRing}), slices of one step, 512 KiB: two handshakes per MiB where the measured cap (2x H200 Ring
 * AllReduce Simple at 8 GiB, {@link PerformanceParameters}) holds one. The handshake is priced at NCCL's own
 * per-step latency of a Simple Ring on NVLink, hwLat[NVLINK][Ring][Simple] = 3.4 us (NCCL 2.30.7
 * {@code src/graph/tuning.cc}; {@link TuningConstants#hwLatency}), the link every channel's other hops take on a
 * multi-GPU host; between nodes its network step is the proxy's, overlapped over NCCL_STEPS slots
 * ({@link NetTransport}), and not added here. So one channel moves
 * {@code 1 / (1 / cap + stepUs x (1 / slice - 1 / referenceSlice))}, the share being that over the cap.
 *
 * <p>Checked, not fitted: the one public cluster with rooted and unrooted Simple Rings at GiB sizes, 4x8 H100 over 8x
 * 400 Gb/s InfiniBand, NCCL 2.24.3, 16 runtime channels (Voltage Park; ZiyanIshani/vpbenchmarking). Per channel and
 * per added byte from 1 to 8 GiB: AllGather (1 MiB slices, the same {@code directRecvCopyDirectSend} per rank as
 * Broadcast) 334.4 GB/s algbw x 31/32 / 16 = 20.24 GB/s
 * (results/nccl/nccl_multinode/nccl_allgather_20260224_225706.txt, 2 to 8 GiB rows; not a dataset here), AllReduce 171.6 x 62/32 / 16 = 20.8 (nccl_allreduce_20260224_225706.txt, same
 * folder); Broadcast 294.4 / 16 = 18.4 and Reduce 293.3 / 16 = 18.3 (A-bcast-reduce-4x8xH100-voltagepark-ib-
 * nccl2.24.txt lines 81-84 and 160-163, 1 to 8 GiB). From the AllGather's 20.24 this share gives 18.99 GB/s for the
 * rooted rings, two thirds of the measured drop (a handshake of 5.2 us would give all of it; NCCL's figure is kept).
 * The Broadcast's intercept at those sizes, 850-910 us (time less the bytes at 294.4 GB/s), is its 30 store-and-forward
 * hops of one 512 KiB chunk at the same per-channel rate (30 x 28.5 us = 855 us, {@link RingLoopFill#rootedHops}), so
 * every hop, NVLink ones too, runs at that rate: a channel's limit, not the network's. Not applied over SHM, whose
 * steps {@link ShmStepWaits} charges whole, nor to LL and LL128 (their flags travel in the lines, no handshake per
 * slice). Stateless and thread-safe.
 */
public final class RootedSliceWaits {

    /** Data bytes of the Simple slice the per-channel cap was measured on: 2 steps of 4 MiB / 8 (class note). */
    static final double REFERENCE_SLICE_BYTES = 2.0 * NcclSettings.DEFAULTS.buffSize() / NcclDevice.NCCL_STEPS;

    private RootedSliceWaits() {
    }

    /**
     * @param plan     the channel plan
     * @param s        settings (NCCL_BUFFSIZE; whether the ranks use SHM)
     * @param c        NCCL's tuning constants of the release modelled (the handshake's hwLat)
     * @param func     collective
     * @param a        algorithm
     * @param p        protocol
     * @param capGBps  the per-channel cap before this share, bus bandwidth, GB/s (1e9 B/s)
     * @return the share of the cap a rooted Simple Ring's channel keeps, in (0, 1]; 1 for every other call
     */
    static double capShare(ChannelPlan plan, NcclSettings s, TuningConstants c, Collective func, Algorithm a,
            Protocol p, double capGBps) {
        if (!RingLoopFill.rootedSimple(a, func, p) || plan.nRanks() < 2 || ShmLinkShare.shm(plan, s)
                || !(capGBps > 0) || Double.isInfinite(capGBps)) {
            return 1;
        }
        double slice = (double) s.buffSize() / NcclDevice.NCCL_STEPS;
        double extraUsPerByte = handshakeUs(c) * (1 / slice - 1 / REFERENCE_SLICE_BYTES);
        double capUsPerByte = BusBandwidth.timeUs(1, capGBps);
        return Math.min(1, capUsPerByte / (capUsPerByte + Math.max(0, extraUsPerByte)));
    }

    /**
     * @param c NCCL's tuning constants of the release modelled
     * @return one slice's handshake, microseconds: hwLat[NVLINK][Ring][Simple] (3.4 us in NCCL 2.30.7)
     */
    static double handshakeUs(TuningConstants c) {
        return c.hwLatency(HardwareClass.NVLINK, Algorithm.RING, Protocol.SIMPLE);
    }
}
