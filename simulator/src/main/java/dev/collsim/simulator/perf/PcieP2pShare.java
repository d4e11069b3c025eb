package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;

/**
 * The rate a Simple ring (or the one-host Tree chain on the ring's links) moves over a GPU's PCIe link when NCCL
 * connects the GPUs with P2P through the CPU, as a multiple of NCCL's figure for the link, by the PCIe generation of
 * the GPUs' own links ({@link ChannelPlan#gpuPcieGen}); the SHM counterpart, a share below 1, is {@link ShmLinkShare}.
 *
 * <p>What NCCL does. On PCIe the P2P transport writes: the sender's kernel stores each slice straight into the
 * receiver's FIFO in the receiver's GPU memory (NCCL 2.30.7 {@code src/graph/paths.cc ncclTopoCheckP2p}: P2P read
 * only for sm80 pairs on NVLink; {@code src/transport/p2p.cc}), so a ring rank's link carries its posted writes
 * upstream and its predecessor's downstream, and the receiver polls its own memory. NCCL's figure for the link is a
 * search constant, width x speed code / 80 (NCCL 2.30.7 {@code src/graph/topo.cc ncclTopoAddPci} and
 * {@code kvDictPciGen}: Gen4 x16 = 16 x 120 / 80 = 24 GB/s, Gen5 x16 48), which collsim's ring rate takes for every
 * PCIe hop ({@code channel.CpuPathRates}, {@link CpuRouteRate}). Physically a Gen4 x16 link carries 16 GT/s x 16
 * lanes x 128/130 / 8 = 31.5 GB/s per direction (PCI Express Base Specification 4.0, 128b/130b encoding), and posted
 * writes of 256-byte payloads with 24 bytes of framing token, 4-doubleword header and LCRC each at most 256 / 280 of
 * it, 28.8 GB/s, before the Ack and flow-control DLLPs: NCCL's 24 is 0.76 of the raw rate, below what the link moves.
 *
 * <p>The share: no source gives what a GPU's P2P write stream moves of its link (the DLLP rate and the payload size in
 * force are left to the implementation), so it is measured, as busbw over 0.98 (bwEfficiencySimple) of NCCL's
 * figure at the size the file gives, the time less the ring's latency as collsim times it (NCCL's Ring/Simple base
 * 8.4 us, NCCL 2.21 to 2.30 {@code src/graph/tuning.cc}, and 2.0 us a step, {@link PcieSimpleStep}), on every Gen4
 * x16 P2P ring through the CPU the project holds (validation/src/test/resources/data):
 * <pre>
 *   4x RTX 4090, AllReduce 1 GiB          25.31                            = 25.31 / 23.52 = 1.076
 *                                          (A-allreduce-1x4xRTX4090-p2p-driver-8gpu-box.txt line 53)
 *   6x RTX 4090, AllReduce 32 MiB         24.58 x 2275.1 / (2275.1 - 28.4) = 24.89 / 23.52 = 1.058
 *                                          (A-allreduce-1x6xRTX4090-tinybox-p2p-driver-single-size.txt line 35)
 *   4x A100 PCIe, AllGather 32 MiB        25.86 x 973.2 / (973.2 - 14.4)   = 26.25 / 23.52 = 1.116
 *                                          (A-allgather-1x4xA100pcie-azure-ncv4-single-size.txt line 21)
 *   median 1.076; leaving each file out: 1.087 (the 4x RTX 4090 box out: it is then 1.0 % fast), 1.096 (the
 *   tinybox out: 3.5 % fast), 1.067 (the A100 out: 4.4 % slow, where NCCL's figure left it 12.7 % slow)
 * </pre>
 * The A100 run is P2P only if its VM allowed P2P across the NVLink pairs; compare now takes that VM type to refuse it
 * ({@code validation.compare.NvlinkOnlyP2p}) and times the run over SHM, one-way; without it the median is 1.067.
 * Two hosts of different builders (an 8-GPU RTX 4090 server and the tinybox) agree within 1.7 %, and both headers
 * state about 50 GB/s of bidirectional P2P per pair, 25 each way. 1.076 x 24 = 25.8 GB/s is 0.82 of the raw link and
 * 0.90 of the 256-byte TLP ceiling. Gen5: the two P2P rings of RTX PRO 6000 (A-allreduce-1x4xRTXPRO6000-dual-turin-
 * shm-vs-p2p-nccl2.29-pr2080.txt "Patched (P2P)", 46.65 GB/s busbw at 128 MiB; A-allreduce-1x8xRTXPRO6000-wrx90-cpayne-
 * pcie-switches-torchdist-ring-nccl2.27.txt, 46.45-46.48 at 1 GiB) move 0.987-0.992 of 48 x 0.98, so NCCL's figure
 * stands there (share 1): the generations do not share one fraction of the physical link (0.82 against 0.75), which is
 * why the share is per generation and measured. Gen3 and older, and an unknown generation: no P2P file, NCCL's figure.
 *
 * <p>Where it applies: Simple, the link-bound protocol (LL and LL128 over PCIe are bound by their own stores and
 * loads, docs/pcie-protocols.md), a Ring or the one-host Tree chain whose rate comes from the links
 * ({@link CpuRouteRate#ringScale}: the ring path goes through the CPU) over P2P (not {@link ShmLinkShare#shm}). Rings
 * under one PCIe switch (PIX, PXB) keep NCCL's graph figure, and p2p calls (AllToAll, SendRecv) their pair rate: no
 * file in hand checks either. Stateless and thread-safe.
 */
public final class PcieP2pShare {

    /**
     * What a Simple P2P ring moves per direction over a GPU's PCIe Gen4 link, as a multiple of NCCL's figure for it
     * (24 GB/s for x16): the median of the three measured Gen4 x16 P2P rings in the class note, 1.076.
     */
    public static final double GEN4_SHARE = 1.076;

    private PcieP2pShare() {
    }

    /**
     * @param plan  the channel plan
     * @param s     settings (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL: P2P or SHM)
     * @param a     algorithm
     * @param p     protocol
     * @param chain true for the one-host Tree AllReduce chain ({@link IntraNodeChain})
     * @return {@link #GEN4_SHARE} for a Simple Ring or chain over P2P through the CPU on one host whose GPU links are
     *         PCIe Gen4, else 1
     */
    public static double factor(ChannelPlan plan, NcclSettings s, Algorithm a, Protocol p, boolean chain) {
        // the rate comes from the links exactly where CpuRouteRate.ringScale takes it from them
        boolean linkRate = (a == Algorithm.RING || chain) && ShmLinkShare.throughCpu(plan) && plan.ringPathBw() > 0;
        if (p != Protocol.SIMPLE || plan.nRanks() < 2 || !linkRate || ShmLinkShare.shm(plan, s)) {
            return 1.0;
        }
        return plan.gpuPcieGen() == 4 ? GEN4_SHARE : 1.0;
    }
}
