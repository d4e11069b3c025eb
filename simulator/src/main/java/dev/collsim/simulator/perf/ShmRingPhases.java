package dev.collsim.simulator.perf;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.tuning.TuningConstants;

/**
 * A one-host Ring/LL128 AllReduce, AllGather or ReduceScatter over SHM, per direction of a GPU's PCIe link: the
 * lower of two limits on its payload rate, the loop's phases (each direction at most the link's rate, step by step)
 * and the link's duplex share over the whole loop ({@link ShmLinkShare#duplexShare} as one budget for both
 * directions, {@link ShmLinkShare#DUPLEX_LL128}), both counted in the wire bytes LL128 moves. Returned as a factor on
 * collsim's LL128 rate of the link (NCCL's table rate times {@code bwEfficiencyLL128}), which
 * {@link ShmLinkShare#factor} applies in place of duplex share x {@link ShmLinkShare#DUPLEX_LL128}.
 *
 * <p>The phases (NCCL 2.29.2 {@code src/device/all_reduce.h runRing}; {@code all_gather.h},
 * {@code reduce_scatter.h} the same shape): per chunk a rank runs one primitive that only sends ({@code send},
 * {@code directSend}), R - 1 that receive and send ({@code recvReduceSend}, {@code recvReduceCopySend},
 * {@code recvCopySend}) and a last one that only receives ({@code recv}, {@code recvReduceCopy}), R = 2 (n - 1)
 * receives for AllReduce, n - 1 for AllGather and ReduceScatter. Each LL128 primitive opens and closes with a barrier
 * of the channel's threads ({@code src/device/prims_ll128.h GenericOp}: {@code barrier()} before and after its loop
 * over the slice), and every rank runs the same primitive at once (each receives what its predecessor sent in the
 * step before), so the steps follow one another on each GPU. Over SHM the sender stores each 128-byte line once
 * (upstream) and the receiver loads it twice (downstream: the flag-polling load and the reload, {@link
 * ShmLinkShare#LL128_READS_PER_LINE}). In units of one line pass through one direction at the link's rate: the send
 * step takes 1 (upstream only), each middle step 2 (two loads per line downstream, the store upstream beside them),
 * the last step 2: 2R + 1 units for R received chunks, a payload share of R / (2R + 1) of the link's line rate: 2/5
 * for a 2-rank AllReduce, 6/13 for 4 ranks. Simple's phases (1 unit each, R / (R + 1) at least 2/3) never go below
 * the duplex share on Gen3/Gen4 (0.666) or Gen5 (0.815 against 6/7 from 4 ranks), so it keeps the share alone.
 *
 * <p>The rate the units are counted in: the link's rate as the duplex share was measured on it, NCCL's PCIe figure
 * times {@code bwEfficiencySimple} 0.98 ({@link ShmLinkShare#DUPLEX_SHARE}: Simple's busbw over 24 x 0.98), and
 * LL128's payload per wire byte, 120 of 128 (a line is 16 eight-byte words, one of them the flag:
 * {@code src/include/device.h} NCCL_LL128_LINEELEMS, NCCL_LL128_DATAELEMS; NCCL's tuning writes its Ring/LL128 factor
 * as "0.92 /*120.0/128.0*&#47;", {@code src/graph/tuning.cc} line 305). collsim's LL128 rate of the link is NCCL's 0.92
 * times {@code bwEfficiencyLL128} 0.96 (an assumption of LL128 a little below Simple, {@link PerformanceParameters});
 * over SHM the share already holds what the link achieves, so the factor carries 0.98 x 120/128 over 0.92 x 0.96 =
 * 1.040.
 *
 * <p>Checked, nothing fitted (A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt run 5 and
 * A-allreduce-1x4xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt run 7, NCCL_PROTO=ll128, one FarmShare host,
 * 24 x 0.98 x 120/128 = 22.05 GB/s of payload per direction): 2 ranks, phases 2/5 x 22.05 = 8.82, the share 2/3 x
 * 0.666 x 22.05 = 9.79: 8.82 GB/s busbw against 8.89 measured at 128 MiB; 4 ranks, phases 6/13 x 22.05 = 10.18, the
 * share 9.79: 9.79 against 9.93. The earlier rule (the share alone, on 24 x 0.92 x 0.96) gave 9.41 for both: the
 * 4-rank ring moves 1.117 times the 2-rank one, which one share cannot give. Taken with the call's channels in step
 * (each call starts them together; the measured 2-rank rate is flat from 512 KiB to 128 MiB); with the 2-rank
 * AllGather's drift between channels ({@link ShmLinkShare#alternatingShare}: half the bytes in step, half apart, where
 * a send phase of one channel overlaps another's loads) the 2-rank ring would move 9.28.
 */
public final class ShmRingPhases {

    /** LL128's payload bytes per wire byte: 120 of a 128-byte line (one 8-byte flag word in 16). */
    static final double LL128_LINE_PAYLOAD = NcclDevice.dataPerLineByte(Protocol.LL128);

    /**
     * Line rate over collsim's LL128 rate of the link: bwEfficiencySimple x 120/128 over NCCL's 0.92 x
     * bwEfficiencyLL128 (the bare model's {@link PerformanceParameters#DEFAULTS}), 1.040.
     */
    static final double LINE_RATE_OVER_LL128_RATE = PerformanceParameters.DEFAULTS.bwEfficiency(Protocol.SIMPLE)
            * LL128_LINE_PAYLOAD / (TuningConstants.LL128_EFFICIENCY * PerformanceParameters.DEFAULTS.bwEfficiency(
                    Protocol.LL128));

    private ShmRingPhases() {
    }

    /**
     * @param func   collective
     * @param nRanks ranks of the ring
     * @return the chunks a rank receives per loop of NCCL's runRing: 2 (n - 1) for AllReduce, n - 1 for AllGather and
     *         ReduceScatter, 0 for any other collective
     */
    static int receivesPerLoop(Collective func, int nRanks) {
        return switch (func) {
            case ALL_REDUCE -> 2 * (nRanks - 1);
            case ALL_GATHER, REDUCE_SCATTER -> nRanks - 1;
            default -> 0;
        };
    }

    /**
     * @param receives chunks received per loop, R >= 1
     * @return R / (2R + 1): the payload share of the link's line rate that LL128's steps allow
     */
    static double ll128PhaseShare(int receives) {
        return receives / (2.0 * receives + 1);
    }

    /**
     * The factor on collsim's LL128 rate of the link for a duplex Ring over SHM (class note).
     *
     * @param func        collective (AllReduce; AllGather or ReduceScatter of 3 or more ranks)
     * @param nRanks      ranks of the ring, >= 2
     * @param duplexShare the link's duplex share ({@link ShmLinkShare#duplexShare})
     * @return 1.040 x min(R / (2R + 1), duplexShare x {@link ShmLinkShare#DUPLEX_LL128}); for other collectives
     *         duplexShare x {@link ShmLinkShare#DUPLEX_LL128}, the share alone
     */
    static double ll128RingFactor(Collective func, int nRanks, double duplexShare) {
        double budget = duplexShare * ShmLinkShare.DUPLEX_LL128;
        int receives = receivesPerLoop(func, nRanks);
        if (receives < 1) {
            return budget;
        }
        return LINE_RATE_OVER_LL128_RATE * Math.min(ll128PhaseShare(receives), budget);
    }
}
