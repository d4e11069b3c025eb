package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.topology.NetworkClass;
import java.util.Locale;
import java.util.Optional;

/**
 * The receiver's copy of a network send's eagerly sent bytes into GPU memory, for the network classes NCCL reaches
 * through aws-ofi-nccl and a libfabric provider (EFA, Slingshot's {@code cxi}): a per-send cost that grows with the
 * send up to the provider's eager share, then stops, because the rest of the send moves by the NIC's own RDMA read at
 * the line rate. Charged once per network crossing on the call's critical path ({@link NetHops#of}), on the first
 * send of the crossing, as the pipeline fill is: a later send finds the first one's read in flight and goes by the
 * plain long read, no eager bytes (item 1 below), and its time is the bandwidth term's, with the wait of its read
 * rendezvous ({@link LibfabricReadRendezvous}). Not charged: the copies of later sends whose runting read finds no
 * other read in flight (NCCL before 2.20 halves small Tree chunks, 32-256 KiB on the p4de run). One home for both
 * providers; each has its own {@link Provider} figures.
 *
 * <p><b>EFA</b> (libfabric's {@code efa} provider, RDM endpoint, through aws-ofi-nccl's SENDRECV protocol: tagged
 * {@code fi_tsend}/{@code fi_trecv} of each NCCL network send, aws/aws-ofi-nccl v1.13.2-aws
 * {@code src/nccl_ofi_sendrecv.c}). What libfabric's source fixes (ofiwg/libfabric v1.22.0):
 * <ol>
 *   <li>Above the eager size a message from CUDA memory goes by a read-based protocol ({@code prov/efa/src/rdm/
 *       efa_rdm_msg.c efa_rdm_msg_select_rtm}: {@code min_read_msg_size} is the largest eager payload + 1 for
 *       {@code FI_HMEM_CUDA}, {@code prov/efa/src/efa_hmem.c}), the runting read when no other read message of the
 *       domain is in flight ({@code efa_rdm_peer.c efa_rdm_peer_select_readbase_rtm}).</li>
 *   <li>A runting read sends its first {@code runt_size} bytes as eager packets and lets the receiver read only the
 *       rest: {@code efa_rdm_peer_get_runt_size} gives min(EFA_DEFAULT_RUNT_SIZE 307200 B less the runt bytes in
 *       flight to that peer, the message), {@code prov/efa/src/efa.h}; FI_EFA_RUNT_SIZE sets it
 *       ({@code efa_env.c}). A message up to that size is sent whole as eager packets.</li>
 *   <li>Each eager packet lands in a host bounce buffer and is copied into the GPU receive buffer by gdrcopy (up to 4
 *       receives of an endpoint at a time) or by a local RDMA read of the EFA device
 *       ({@code prov/efa/src/rdm/efa_rdm_pke_utils.c efa_rdm_pke_copy_payload_to_cuda}); the receive completes, and
 *       NCCL's proxy can post the step's next hop, once every packet is copied.</li>
 * </ol>
 * The runting read is in libfabric from v1.16.0 (commit 83f1912ed, 2022-04-19, tag 2022-09-29); a run's libfabric is
 * not a model input, so the run's NCCL release stands for it: 2.15 and later ({@link #EFA_FIRST_MINOR}), NCCL v2.15.1-1
 * being tagged 2022-09-27. The read path needs a device with RDMA read (EFA on p4d and later; p3dn's EFA has none, and
 * collsim runs V100 without GPUDirect RDMA), and the SENDRECV protocol runs on the EFA hosts before Hopper
 * ({@code simulator.channel.AwsOfiNcclProto}; Hopper hosts use the plugin's RDMA-write protocol, no eager copy): so
 * the EFA figures apply to A100-class GPUs (sm 80-89). The copy rate is fitted ({@link #EFA_COPY_GBPS}).
 *
 * <p><b>Slingshot</b> (libfabric's {@code cxi} provider): no figure. Its eager limit is FI_CXI_RDZV_THRESHOLD 16384 B
 * + FI_CXI_RDZV_GET_MIN 2049 B ({@code prov/cxi/include/cxip.h}, {@code prov/cxi/src/cxip_info.c}), above which the
 * receiver gets the rest with an RDMA Get; only an eager message that arrives before its receive is copied from host
 * memory ({@code cxip_copy_to_md}), and HPE's settings (HewlettPackard/shs-ccl-docs {@code ccl_env.sh}:
 * FI_CXI_RDZV_THRESHOLD=0, FI_CXI_RDZV_EAGER_SIZE=0) send no data eagerly at all. The public Slingshot runs miss by a
 * fixed cost at 1-4 MiB, not one that grows with the send (docs/accuracy.md, their rows), so none is charged.
 *
 * <pre>
 *   send    = the bytes of the crossing's first network send: Tree/Simple min(NCCL's chunk, nBytes / channels)
 *             ({@link TreeSimpleFill#chunk}); Ring/Simple one slice of a rank's piece, min(chunk / slices, nBytes /
 *             (channels x nRanks))
 *   copy_us = crossings x min(send, eagerBytes) / (1000 x copyGBps)
 * </pre>
 * Stateless and thread-safe.
 */
public final class LibfabricEagerCopy {

    /**
     * A provider's figures.
     *
     * @param eagerBytes bytes of a send that arrive as eager packets and are copied into GPU memory, &gt; 0
     * @param copyGBps   rate of that copy, GB/s (1e9 B/s), &gt; 0
     */
    public record Provider(long eagerBytes, double copyGBps) {
    }

    /** libfabric's EFA_DEFAULT_RUNT_SIZE, bytes (ofiwg/libfabric v1.22.0 {@code prov/efa/src/efa.h}). */
    static final long EFA_RUNT_BYTES = 307_200;

    /**
     * The EFA copy rate, GB/s (1e9 B/s), fitted, with its files: the rise of the measured time from 8 KiB to 32 KiB,
     * where a call runs on one channel and each of its 2 network crossings is one send of the whole call, less the
     * rise the rest of the model gives (16.46 us on both runs: 179.38 to 195.84 us, and 170.98 to 187.44 us, compare at
     * bfb636bf before this term), is the copy of 2 x 24576 B more. p4d, libfabric 1.22, NCCL 2.23.4
     * (A-allreduce-2x8xA100-40GB-aws-p4d-dlami-efa-nccl2.23.txt lines 58, 60: 191.2 and 233.0 us): 49152 B / (41.8 -
     * 16.46) us = 1.940 GB/s; p4de, NCCL 2.17.1 (A-allreduce-2x8xA100-80GB-aws-p4de-efa-parallelcluster-nccl2.17-
     * excerpt.txt lines 45, 47: 172.1 and 220.4 us): 49152 B / (48.3 - 16.46) us = 1.544 GB/s. Their mean 1.742 and
     * the pooled 98304 B / 57.18 us = 1.719, rounded down to 1.7. Leaving one out: 1.94 (fitted on p4d) puts the p4de
     * run at 14.0 % median error at &gt;= 1 MiB (25.0 bare); 1.54 (fitted on p4de) puts the p4d run at 9.3 % (8.2
     * bare) and below 1 MiB at 1.9 % (3.5 bare); EfaEagerCopyTest works both rates out from the rows. No source
     * states gdrcopy's or the local read's rate for the provider's 8 KiB packets.
     */
    public static final double EFA_COPY_GBPS = 1.7;

    /** First NCCL 2 minor release taken to run with libfabric v1.16.0 or later (class comment). */
    static final int EFA_FIRST_MINOR = 15;

    /** Compute capability (x10) range of the EFA hosts whose plugin runs SENDRECV over an RDMA-read device. */
    static final int MIN_SM = 80;
    static final int MAX_SM_EXCLUSIVE = 90;

    private LibfabricEagerCopy() {
    }

    /**
     * @param plan     channel plan (class, GPUs' compute capability)
     * @param runMinor the run's NCCL 2 minor release
     * @return the provider's figures where this copy is charged
     */
    static Optional<Provider> provider(ChannelPlan plan, int runMinor) {
        boolean efaRead = plan.nNodes() > 1 && plan.netClass() == NetworkClass.EFA && plan.minSm() >= MIN_SM
                && plan.minSm() < MAX_SM_EXCLUSIVE && runMinor >= EFA_FIRST_MINOR;
        return efaRead ? Optional.of(new Provider(EFA_RUNT_BYTES, EFA_COPY_GBPS)) : Optional.empty();
    }

    /**
     * The line predict and compare print where the copy is charged.
     *
     * @param plan     channel plan
     * @param runMinor the run's NCCL 2 minor release
     * @return the note, or empty
     */
    public static Optional<String> note(ChannelPlan plan, int runMinor) {
        return provider(plan, runMinor).map(pr -> String.format(Locale.ROOT, "each network crossing's first Simple"
                + " send arrives as libfabric's eager packets up to %d B (its runting read), copied into GPU memory at"
                + " %.1f GB/s (fitted on two public p4d/p4de runs)", pr.eagerBytes(), pr.copyGBps()));
    }

    /**
     * The copy's cost on the call's critical path.
     *
     * @param plan        channel plan
     * @param s           NCCL settings (NCCL_BUFFSIZE)
     * @param func        collective
     * @param a           algorithm
     * @param p           protocol
     * @param nBytes      bytes of the call
     * @param effChannels channels the call's data occupies, &gt;= 1
     * @param channels    NCCL's channels for the call
     * @param runMinor    the run's NCCL 2 minor release
     * @return microseconds, &gt;= 0
     */
    static double extraUs(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p, long nBytes,
            double effChannels, int channels, int runMinor) {
        Optional<Provider> pr = provider(plan, runMinor);
        if (pr.isEmpty() || p != Protocol.SIMPLE || (a != Algorithm.TREE && a != Algorithm.RING)) {
            return 0;
        }
        double send = sendBytes(plan, s, func, a, nBytes, effChannels, channels, runMinor);
        return NetHops.of(func, a, plan) * copyUs(send, pr.get());
    }

    /**
     * @param send bytes of one network send
     * @param pr   the provider's figures
     * @return microseconds to copy its eager bytes
     */
    static double copyUs(double send, Provider pr) {
        return BusBandwidth.timeUs(Math.min(send, pr.eagerBytes()), pr.copyGBps());
    }

    /** @return bytes of the crossing's first network send (class comment) */
    static double sendBytes(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, long nBytes,
            double effChannels, int channels, int runMinor) {
        double perChannel = nBytes / Math.max(1.0, effChannels);
        if (a == Algorithm.TREE) {
            return Math.min(TreeSimpleFill.chunk(plan, s, nBytes, Math.max(1, channels), runMinor), perChannel);
        }
        double slice = CalcCollChunking.chunk(a, Protocol.SIMPLE, func, s)
                * RingLoopFill.netSendShare(a, Protocol.SIMPLE, func, plan.nNodes());
        return Math.min(slice, perChannel / plan.nRanks());
    }
}
