package dev.collsim.simulator.perf;

import static dev.collsim.units.DecimalText.fixed;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.RuntimeChannels;
import dev.collsim.topology.PathType;
import dev.collsim.topology.paths.PathFinder;

/**
 * The rate at which a receiving GPU's LL and LL128 loads fetch its FIFO from host memory over NCCL's SHM transport:
 * a per-channel bus-bandwidth cap of (payload bytes a channel's threads have in flight) / (round trips per batch x
 * {@link #READ_ROUND_TRIP_US}), the receive side being latency-bound, not link-bound. {@link PerformanceModel} takes
 * the call's bytes at that rate as a lower bound on its time ({@link #timeUs}).
 *
 * <p>Where the loads go. Over SHM every protocol's FIFO is in host memory on the receiver's side (NCCL 2.29.7 and
 * 2.30.7 {@code src/transport/shm.cc}, NCCL_SHM_LOCALITY default 2; {@link ShmLinkShare}), pinned by the receiver's
 * proxy thread on its own NUMA node: the sender's stores are posted PCIe writes, the receiver's loads non-posted PCIe
 * reads of memory local to its CPU, each a full round trip. The round trip taken is therefore the local one whatever
 * the pair's path type (PHB or SYS: the socket crossing is on the sender's posted writes).
 *
 * <p>Loads in flight (NCCL 2.28.9 and 2.30.7, {@code src/device}):
 * <ul>
 *   <li>LL ({@code prims_ll.h LLGenericOp}, {@code readLL}: 2.30.7 lines 108-119 and 272, 2.28.9 lines 89-97 and
 *       252): each thread spins on one 16-byte {@code ld.volatile.global.v4.u32} until both flags match, then stores
 *       the line onward and moves on; one load in flight per thread, 8 payload bytes per load (two 4-byte data words,
 *       two 4-byte flags). A Ring/LL channel runs NCCL_LL_MAX_NTHREADS = 512 threads ({@code src/include/device.h};
 *       {@code src/graph/tuning.cc}, NCCL_NTHREADS overrides): 4096 payload bytes per round trip.</li>
 *   <li>LL128 ({@code prims_ll128.h recvReduceSendCopy}, 2.30.7 lines 189-206, 2.28.9 lines 182-200): each thread
 *       issues NCCL_LL128_SHMEM_ELEMS_PER_THREAD / 2 = 4 {@code load128} (16 bytes each), the warp then waits for the
 *       flag words ({@code __any_sync} on {@code needReload}) and loads the same 4 x 16 bytes again before using them:
 *       two round trips per batch. One 8-byte word in every 128-byte line is the flag, so a batch carries
 *       64 x 15/16 = 60 payload bytes per thread; NCCL_LL128_MAX_NTHREADS = 640 threads (NCCL_LL128_NTHREADS
 *       overrides): 38,400 payload bytes per batch, 19,200 per round trip. The reload reaches host memory again: the loads are volatile
 *       (system scope), the kind NCCL's own flag polling relies on to see the sender's stores, so no GPU cache holds
 *       the line between them.</li>
 *   <li>Simple moves whole slices with many loads in flight per thread ({@code prims_simple.h}): bandwidth-bound, no
 *       cap here; but each hop's loads wait for its tail poll, one more round trip per hop
 *       ({@link #simpleDataReadsUs}).</li>
 * </ul>
 * The steady state is assumed to find the sender ahead (NCCL_STEPS = 8 slots of FIFO), so the first load of a line
 * returns it; polling beyond that only lowers the rate. Applied to a Ring on one host over SHM ({@link
 * ShmLinkShare#shm}); the one-host Tree chain and p2p over SHM are not covered (no measurement to check them), nor the
 * halving of threads at small sizes ({@code src/enqueue.cc topoGetAlgoInfo}), which collsim's channel reduction
 * stands in for. Stateless and thread-safe.
 */
public final class ShmHostReads {

    /**
     * Round trip of one GPU load from pinned host memory on the GPU's own NUMA node, microseconds, measured with
     * NCCL LL's own access pattern: {@code data/device/h200-hostread.txt} (this repository's probe
     * {@code executor/probes/hostread}, 2026-12-05, one H200 on PCIe Gen5 x16 in a KVM guest of an Intel Xeon): one
     * block of 512 threads, each spinning on one 16-byte line until both flags match, moves 6.006 GB/s of lines =
     * 512 x 16 B every 1.364 us; 256 threads 3.007 GB/s = 1.362 us; a single dependent load 1.265 us. The rate grows
     * linearly with loads in flight up to the link (~51 GB/s), so the cap is latency-bound as modelled. A second lent
     * machine, one H100 SXM on PCIe Gen5 x16 in a VM of an Intel Xeon ({@code data/device/h100-hostread.txt}, same
     * probe), gives 6.018 GB/s = 1.361 us. Both are Gen5 guests of Intel hosts: a PCIe Gen4 host or one with another
     * root complex may differ (no figure for one was in hand). Not
     * fitted to any data file (the forced LL runs of the 2x / 4x L40S SHM files, a Gen4 host, would need 1.38 /
     * 1.30 us).
     */
    public static final double READ_ROUND_TRIP_US = 1.364;

    /** Payload bytes per LL load: a 16-byte {@code ncclLLFifoLine} holds two 4-byte data words and two flags. */
    static final double LL_PAYLOAD_PER_LOAD = NcclDevice.LL_LINE_DATA_BYTES;
    /** LL128 loads per thread per batch: NCCL_LL128_SHMEM_ELEMS_PER_THREAD (8 words) / 2 words per load128. */
    static final int LL128_LOADS_PER_THREAD = NcclDevice.NCCL_LL128_SHMEM_ELEMS_PER_THREAD / 2;
    /** Payload bytes per 16-byte LL128 load: 120 of every 128 bytes (NCCL_LL128_DATAELEMS / NCCL_LL128_LINEELEMS). */
    static final double LL128_PAYLOAD_PER_LOAD = 16 * NcclDevice.dataPerLineByte(Protocol.LL128);
    /** Round trips per LL128 batch: the flag poll and the unconditional reload. */
    static final int LL128_ROUND_TRIPS = 2;

    private ShmHostReads() {
    }

    /**
     * Payload bytes one channel's receiving threads fetch per round trip.
     *
     * @param p       protocol
     * @param threads threads of the channel's CTA (NCCL's maxThreads for the algorithm and protocol)
     * @return bytes; infinite for Simple (not latency-bound)
     */
    public static double payloadPerRoundTrip(Protocol p, int threads) {
        return switch (p) {
            case LL -> threads * LL_PAYLOAD_PER_LOAD;
            case LL128 -> threads * LL128_LOADS_PER_THREAD * LL128_PAYLOAD_PER_LOAD / LL128_ROUND_TRIPS;
            case SIMPLE -> Double.POSITIVE_INFINITY;
        };
    }

    /**
     * The most bus bandwidth one channel's receive moves when it reads its FIFO from host memory: a ring rank
     * receives busBw bytes per second (nccl-tests' bus bandwidth is the per-rank receive rate of a ring), so the cap
     * is the channel's payload per round trip over the round trip.
     *
     * @param plan the channel plan
     * @param s    settings (NCCL_NTHREADS, NCCL_LL128_NTHREADS, NCCL_P2P_DISABLE, NCCL_P2P_LEVEL)
     * @param a    algorithm
     * @param p    protocol
     * @return GB/s per channel; infinite unless a Ring over SHM on one host with LL or LL128
     */
    public static double perChannelBusBw(ChannelPlan plan, NcclSettings s, Algorithm a, Protocol p) {
        if (a != Algorithm.RING || p == Protocol.SIMPLE || plan.nRanks() < 2 || !ShmLinkShare.shm(plan, s)) {
            return Double.POSITIVE_INFINITY;
        }
        int threads = RuntimeChannels.maxThreads(a, p, plan.graphs(), s);
        return BusBandwidth.algBw(payloadPerRoundTrip(p, threads), READ_ROUND_TRIP_US);
    }

    /**
     * The same cap between nodes, where a Ring's receive FIFO from the network is host memory: GPU Direct RDMA off on
     * the ring graph's GPU-NIC paths, which then cross the CPU (its {@code typeInter} PHB or farther, beyond the GDR
     * level in force: NCCL_NET_GDR_LEVEL, else NCCL's default). NCCL keeps every protocol's receive FIFO in host memory
     * unless {@code useGdr} (v2.8.4-1 {@code src/transport/net.cc} line 135, {@code protoLoc[p] = useGdr ?
     * LOC_DEVMEM : LOC_HOSTMEM}; 2.30.7 {@code recvProxyConnect} the same), so the rank that receives a channel's
     * data from the network loads its LL or LL128 lines from host memory as an SHM receiver does, and the ring runs at
     * that rank's rate. Unlike one host over SHM, where NCCL's PCI step is this round trip ({@link #timeUs}), NCCL's
     * network step is the proxy's and the NIC's, so the cap is a per-channel rate ({@link PerformanceModel}: the
     * per-channel cap), its time added to the latency. Measured, not fitted: NCCL 2.8.4 on ABCI V100 nodes (GPU-NIC
     * path PHB, A-allreduce-2to32x4xV100-16GB-abci-vnode-edr-nccl2.8.txt), Ring/LL on one channel (NCCL drops
     * channels while nBytes &lt; nc x 512 x 8 x nRanks, v2.8.4-1 {@code src/enqueue.cc getAlgoInfo}): 128 KiB on 8
     * nodes 186.6 us (line 216), 256 KiB on 16 nodes 365.2 us (line 380), 512 KiB on 32 nodes 729.6 us (line 672);
     * on 2 and 4 channels the time stays flat as the bytes double (lines 217-218, 381-382), the mark of a per-channel
     * rate.
     *
     * @param plan the channel plan
     * @param s    settings (NCCL_NTHREADS, NCCL_LL128_NTHREADS, NCCL_NET_GDR_LEVEL)
     * @param a    algorithm
     * @param p    protocol
     * @return GB/s per channel; infinite unless a Ring with LL or LL128 between nodes without GPU Direct RDMA
     */
    public static double netPerChannelBusBw(ChannelPlan plan, NcclSettings s, Algorithm a, Protocol p) {
        if (a != Algorithm.RING || p == Protocol.SIMPLE || plan.nNodes() < 2 || !hostMemoryReceive(plan, s)) {
            return Double.POSITIVE_INFINITY;
        }
        int threads = RuntimeChannels.maxThreads(a, p, plan.graphs(), s);
        return BusBandwidth.algBw(payloadPerRoundTrip(p, threads), READ_ROUND_TRIP_US);
    }

    /**
     * @return true when the ring graph's GPU-NIC path crosses the CPU (PHB or farther) beyond the GDR level in force
     *         ({@code PathFinder.Options#gdrLevelOrDefault}): no GPU Direct RDMA, receive FIFO in host memory
     */
    static boolean hostMemoryReceive(ChannelPlan plan, NcclSettings s) {
        return hostMemoryBuffers(plan.graphs().ring().typeInter(), s);
    }

    /**
     * @param inter a graph's GPU-NIC path type ({@code typeInter}; null on one node)
     * @param s     settings (NCCL_NET_GDR_LEVEL)
     * @return true when that path crosses the CPU (PHB or farther) beyond the GDR level in force ({@code
     *         PathFinder.Options#gdrLevelOrDefault}): no GPU Direct RDMA, the network buffers in host memory (v2.8.4-1
     *         {@code src/transport/net.cc} lines 85, 135; the same rule in 2.30.7)
     */
    static boolean hostMemoryBuffers(PathType inter, NcclSettings s) {
        PathType level = PathFinder.Options.of(s).gdrLevelOrDefault();
        return inter != null && inter.throughCpu() && !inter.atMost(level);
    }

    /**
     * The time the receive's host-memory reads take for the whole call, a lower bound on the call's time that
     * overlaps NCCL's latency term (as the network proxy's sends do in {@link PerformanceModel}): NCCL's per-step
     * latency on PCIe already holds one round trip per step (its Ring/LL step, 1.0 us, is this class's round trip),
     * so adding the reads' time to it would count each step's first round trip twice; at small sizes, where a thread
     * reads about one line per step, the latency term covers the reads, and at large sizes the reads' rate sets the
     * time.
     *
     * @param nBytes         bytes of the call (as NCCL selects on)
     * @param algPerBusChannels the channels the call keeps busy times NCCL's bus-to-algorithm bandwidth ratio
     * @return microseconds; 0 where no cap applies ({@link #perChannelBusBw} infinite)
     */
    public static double timeUs(ChannelPlan plan, NcclSettings s, Algorithm a, Protocol p, long nBytes,
            double algPerBusChannels) {
        double perChannel = perChannelBusBw(plan, s, a, p);
        return Double.isInfinite(perChannel) ? 0 : nBytes / (1000.0 * perChannel * algPerBusChannels);
    }

    /**
     * The second dependent host-memory round trip each hop of a Simple call over SHM waits for, microseconds for the
     * whole call; {@link PerformanceModel} adds it to the latency term.
     *
     * <p>What a Simple hop does (NCCL 2.29.2 {@code src/device/prims_simple.h}: {@code waitPeer} lines 109-120, the
     * workers' {@code subBarrier} line 237 and {@code reduceCopy} from {@code connEltsFifo} lines 246-264; 2.30.7 the
     * same, {@code waitPeer} line 101): one thread spins on the connection's tail word with a volatile load until the
     * sender's step arrives, then the workers load the slice from the FIFO. Over SHM both the tail and the FIFO are in
     * the receiver's host memory ({@code src/transport/shm.cc shmSendConnect}: {@code conn.tail} and
     * {@code conn.buffs} in the receiver's host buffer, NCCL_SHM_LOCALITY default 2, NCCL_SHM_USE_CUDA_MEMCPY default
     * 0 in 2.29; the copy-engine path is gone in 2.30), so the data loads are a second PCIe round trip that can only
     * start once the flag load has returned. LL and LL128 carry their flags in the data lines (one load sees both),
     * and NCCL's PCI step cost holds one round trip per step (the Ring/LL step, 1.0 us, is {@link
     * #READ_ROUND_TRIP_US}: see {@link #timeUs}); over P2P the FIFO is the receiver's own GPU memory, a local load.
     * So Simple over SHM pays {@link #READ_ROUND_TRIP_US} more per hop than NCCL's table holds.
     *
     * <p>Hops on the critical path: a Ring AllReduce 2 (nRanks - 1), AllGather and ReduceScatter nRanks - 1 (NCCL's
     * own step counts, {@code src/graph/tuning.cc}), a rooted Ring Broadcast/Reduce nRanks - 1 (the chain from the
     * root); the one-host Tree AllReduce chain 2 (nRanks - 1) (up and down, {@link IntraNodeChain}). Not fitted to
     * any data file; the forced Simple runs of the 2x / 4x L40S SHM files (NCCL 2.29.2) check it
     * (ShmHostReadsTest). For a Ring AllReduce, AllGather or ReduceScatter the rest of the step is no longer NCCL's
     * 5.7 us: {@link PcieSimpleStep} prices it as two store flights and the poll's round trip, so with this one a
     * Simple ring step over SHM is 2 x 1.0 + 2 x 1.364 = 4.73 us (the measured SHM rings, per step, are listed
     * there); rooted rings and the Tree chain keep NCCL's step plus this trip.
     *
     * @param plan the channel plan
     * @param s    settings (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL)
     * @param func collective
     * @param a    algorithm
     * @param p    protocol
     * @return microseconds; 0 unless Simple, a Ring or the Tree chain, over SHM on one host
     */
    public static double simpleDataReadsUs(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a,
            Protocol p) {
        int n = plan.nRanks();
        if (p != Protocol.SIMPLE || n < 2 || !ShmLinkShare.shm(plan, s)) {
            return 0;
        }
        int hops = switch (a) {
            case RING -> func == Collective.ALL_REDUCE ? 2 * (n - 1) : n - 1;
            case TREE -> func == Collective.ALL_REDUCE ? 2 * (n - 1) : 0;
            default -> 0;
        };
        return hops * READ_ROUND_TRIP_US;
    }

    /**
     * @param channels the call's channels
     * @return the bottleneck text when the reads bind
     */
    public static String bottleneck(ChannelPlan plan, NcclSettings s, Algorithm a, Protocol p, int channels) {
        return "SHM host-memory reads: " + channels + " channels x " + fixed(perChannelBusBw(plan, s, a, p), 1)
                + " GB/s busBw (" + fixed(READ_ROUND_TRIP_US, 2) + " us round trip)";
    }
}
